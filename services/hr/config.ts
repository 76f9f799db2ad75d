import { z } from 'zod';
import { apiKeyList, commonSettings, envInt } from '../kit/index.js';

export const HrConfig = z.object({
  ...commonSettings,
  // One key per caller (Keycloak's employee authenticator; tools such as the benchmarks), several during a rotation.
  HR_API_KEYS: apiKeyList(['verify', 'harness'], 'keycloak:dev-hr-key:verify;tools:dev-hr-tools-key:verify,harness').describe(
    'Keys callers send in X-API-Key: name:key:scope entries separated by ; or spaces (scopes: verify; harness, the /admin/* test harness routes when TEST_HARNESS is on).',
  ),
  HR_FIXTURE: z.string().default('fixtures/hr-employees.json').describe('Employee fixture file (citizen numbers stored as HMAC).'),
  HR_CITIZEN_HASH_KEY: z.string().min(8).default('dev-hr-citizen-hash-key').describe("HMAC key the fixture's citizen hashes were made with."),
  HR_FAILURE_LIMIT: envInt(5, 1, 1_000_000).describe('Failed verifications per employeeId per window before RATE_LIMITED.'),
  HR_FAILURE_WINDOW_SECONDS: envInt(60, 1, 86_400).describe('Window of the per-employee failure limit.'),
  HR_GLOBAL_LIMIT: envInt(600, 1, 100_000_000).describe('Verify requests per window across all callers.'),
  HR_GLOBAL_WINDOW_SECONDS: envInt(60, 1, 86_400).describe('Window of the global ceiling.'),
});
export type HrConfig = z.output<typeof HrConfig>;
