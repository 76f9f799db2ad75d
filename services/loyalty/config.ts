import { z } from 'zod';
import { apiKeyList, commonSettings, envInt } from '../kit/index.js';

export const LoyaltyConfig = z.object({
  ...commonSettings,
  // One key per caller (the entitlement service; tools), several during a rotation.
  LOYALTY_API_KEYS: apiKeyList(['lookup', 'harness'], 'entitlement:dev-loyalty-key:lookup;tools:dev-loyalty-tools-key:lookup,harness').describe(
    'Keys callers send in X-API-Key: name:key:scope entries separated by ; or spaces (scopes: lookup; harness, the /admin/fault test harness route when TEST_HARNESS is on).',
  ),
  LOYALTY_FIXTURE: z.string().default('fixtures/loyalty-members.json').describe('Member fixture file.'),
  LOYALTY_GLOBAL_LIMIT: envInt(1200, 1, 100_000_000).describe('Lookups per window across all callers before RATE_LIMITED.'),
  LOYALTY_GLOBAL_WINDOW_SECONDS: envInt(60, 1, 86_400).describe('Window of the global ceiling.'),
});
export type LoyaltyConfig = z.output<typeof LoyaltyConfig>;
