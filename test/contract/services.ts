import type { ExecutionContext } from 'ava';
import type { FuzzTarget } from '../helpers/fuzz.js';
import type { Booted } from '../helpers/service.js';
import { decisionService } from '../services/decision/decision-service.js';
import { hrService, KEY as HR_KEY } from '../services/hr/hr-service.js';
import { loyaltyService, KEY as LOYALTY_KEY } from '../services/loyalty/loyalty-service.js';

export interface ServiceUnderCheck extends FuzzTarget {
  name: string;
  /** Boots the service in-process on a free port (test harness on, so its admin routes are documented too). */
  start(t: ExecutionContext): Promise<Booted>;
}

const EVALUATE = 'POST /api/v1/decisions/{model}/evaluate';
const EMPLOYEE_INPUTS = { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_A', memberTier: null, wifiBenefit: null };

/**
 * Every service whose OpenAPI document is validated and fuzzed (test/contract/*.test.ts).
 * A new service joins with one line here.
 */
export const SERVICES: ServiceUnderCheck[] = [
  { name: 'hr', start: async (t) => (await hrService(t)).service, headers: HR_KEY, bodies: { 'POST /api/v1/employees/verify': [{ employeeId: 'A-1001', citizenId: '079201001234' }] } },
  { name: 'loyalty', start: async (t) => (await loyaltyService(t)).service, headers: LOYALTY_KEY, bodies: { 'POST /api/v1/members/lookup': [{ email: 'gold@demo.example' }] } },
  { name: 'decision', start: (t) => decisionService(t), pathValues: { model: ['WifiEntitlement'] }, bodies: { [EVALUATE]: [{ inputs: EMPLOYEE_INPUTS }, { inputs: EMPLOYEE_INPUTS, decision: 'WifiEntitlement' }] } },
];
