import { z } from 'zod';
import { commonSettings } from '../kit/index.js';
import { storeSettings } from '../kit/store/index.js';

export const SessionConfig = z.object({
  ...commonSettings,
  ...storeSettings,
  SESSION_API_KEY: z.string().min(8).default('dev-session-key').describe('Key callers send in X-API-Key.'),
});
export type SessionConfig = z.output<typeof SessionConfig>;
