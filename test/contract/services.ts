import type { ExecutionContext } from 'ava';
import type { Booted } from '../helpers/service.js';
import { decisionService } from '../services/decision/decision-service.js';
import { hrService, KEY as HR_KEY } from '../services/hr/hr-service.js';
import { loyaltyService, KEY as LOYALTY_KEY } from '../services/loyalty/loyalty-service.js';

export interface ServiceUnderCheck {
  name: string;
  /** Boots the service in-process on a free port (test harness on, so its admin routes are documented too). */
  start(t: ExecutionContext): Promise<Booted>;
  /** Headers a well-behaved caller sends (its API key); the fuzzer sometimes drops or spoils them. */
  headers?: Record<string, string>;
  /** Values that name something real for path parameters (the fuzzer mixes them with random ones). */
  pathValues?: Record<string, string[]>;
}

/**
 * Every service whose OpenAPI document is validated and fuzzed (test/contract/*.test.ts).
 * A new service joins with one line here.
 */
export const SERVICES: ServiceUnderCheck[] = [
  { name: 'hr', start: async (t) => (await hrService(t)).service, headers: HR_KEY },
  { name: 'loyalty', start: async (t) => (await loyaltyService(t)).service, headers: LOYALTY_KEY },
  { name: 'decision', start: (t) => decisionService(t), pathValues: { model: ['WifiEntitlement'] } },
];
