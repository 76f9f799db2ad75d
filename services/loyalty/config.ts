import { z } from 'zod';
import { commonSettings, envInt } from '../kit/index.js';

export const LoyaltyConfig = z.object({
  ...commonSettings,
  LOYALTY_API_KEY: z.string().min(8).default('dev-loyalty-key').describe('Key callers send in X-API-Key.'),
  LOYALTY_FIXTURE: z.string().default('fixtures/loyalty-members.json').describe('Member fixture file.'),
  LOYALTY_GLOBAL_LIMIT: envInt(1200, 1, 100_000_000).describe('Lookups per window across all callers before RATE_LIMITED.'),
  LOYALTY_GLOBAL_WINDOW_SECONDS: envInt(60, 1, 86_400).describe('Window of the global ceiling.'),
});
export type LoyaltyConfig = z.output<typeof LoyaltyConfig>;
