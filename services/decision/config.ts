import { z } from 'zod';
import { commonSettings } from '../kit/index.js';

export const DecisionConfig = z.object({
  ...commonSettings,
  DMN_DIR: z.string().min(1).default('dmn/models').describe('Directory whose .dmn files (DMN 1.3) are the models served.'),
});
export type DecisionConfig = z.output<typeof DecisionConfig>;
