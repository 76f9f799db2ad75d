import { z } from 'zod';
import { commonSettings, envInt } from '../kit/index.js';

export const DecisionConfig = z.object({
  ...commonSettings,
  DMN_DIR: z.string().min(1).default('dmn/models').describe('Directory whose .dmn files (DMN 1.3) are the models served.'),
  DMN_EVALUATION_LIMIT_MS: envInt(1000, 10, 60_000).describe('Time one evaluation may take; past it the request is 422 DMN_EVALUATION_ERROR.'),
});
export type DecisionConfig = z.output<typeof DecisionConfig>;
