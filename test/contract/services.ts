import type { ExecutionContext } from 'ava';
import type { FuzzTarget } from '../helpers/fuzz.js';
import type { Booted } from '../helpers/service.js';
import { decisionService } from '../services/decision/decision-service.js';
import { hrService, KEY as HR_KEY } from '../services/hr/hr-service.js';
import { loyaltyService, KEY as LOYALTY_KEY } from '../services/loyalty/loyalty-service.js';
import { bootEntitlement, customerClaims, decisionService as entitlementDecision, KeySet, openEntitlementDb } from '../services/entitlement/harness.js';
import { bootPortal } from '../services/portal/portal-fakes.js';
import { bootSession, KEY as SESSION_KEY, openSessionDb } from '../services/session/session-service.js';
import { mailCatcherService } from '../services/mailcatcher/catcher-service.js';
import { smsCatcherService } from '../services/smscatcher/catcher-service.js';
import { bootGateway, gatewaysFile, openGatewayDb, PORTAL_KEY as GATEWAY_KEY, sessionWorld } from '../services/gateway/platform.js';

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
  {
    name: 'hr',
    start: async (t) => (await hrService(t)).service,
    headers: HR_KEY,
    bodies: { 'POST /api/v1/employees/verify': [{ employeeId: 'A-1001', citizenId: '079201001234' }] },
  },
  {
    name: 'loyalty',
    start: async (t) => (await loyaltyService(t)).service,
    headers: LOYALTY_KEY,
    bodies: { 'POST /api/v1/members/lookup': [{ email: 'gold@demo.example' }] },
  },
  {
    name: 'decision',
    start: (t) => decisionService(t),
    pathValues: { model: ['WifiEntitlement'] },
    bodies: { [EVALUATE]: [{ inputs: EMPLOYEE_INPUTS }, { inputs: EMPLOYEE_INPUTS, decision: 'WifiEntitlement' }] },
  },
  {
    name: 'session',
    async start(t) {
      const db = await openSessionDb('memory');
      t.teardown(() => db.close());
      return bootSession(t, db);
    },
    headers: SESSION_KEY,
    bodies: {
      'POST /api/v1/sessions': [{ subjectId: '3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b', deviceRef: 'dev-1' }],
      'POST /api/v1/sessions/{sessionId}/grant': [
        { entitlementId: 'ent-3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b', validUntil: '2099-01-01T00:00:00Z', tier: 'BASIC', qosClass: 'STANDARD' },
      ],
    },
  },
  entitlementUnderCheck(),
  {
    name: 'gateway',
    async start(t) {
      const [db, world] = await Promise.all([openGatewayDb('memory'), sessionWorld(t)]);
      t.teardown(() => db.close());
      return bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, 9) });
    },
    headers: GATEWAY_KEY,
    bodies: {
      'POST /api/v1/credentials': [{ sessionId: 'sess-1', deviceRef: 'dev-1', nasId: 'test-nas' }],
      'POST /radius/authorize': [{ 'User-Name': { type: 'string', value: ['someone'] } }],
    },
  },
  { name: 'mailcatcher', start: async (t) => (await mailCatcherService(t)).service },
  {
    name: 'smscatcher',
    start: async (t) => (await smsCatcherService(t)).service,
    bodies: { 'POST /api/v1/sms': [{ to: '+84912345678', text: 'Your Wi-Fi code is 482913.' }] },
  },
  {
    name: 'portal',
    start: (t) => bootPortal(t),
    bodies: {
      'POST /api/v1/auth/login': [{ username: 'bob@example.com', password: 'bob-demo-pass' }],
      'POST /api/v1/auth/employee': [{ employeeId: 'A-1001', citizenId: '079201001234' }],
      'POST /api/v1/auth/phone/code': [{ phone: '0912345678' }],
      'POST /api/v1/auth/phone': [{ phone: '+84912345678', code: '482913' }],
    },
  },
];

/** The entitlement service with its own key set and decision service; its bearer token is made at start. */
function entitlementUnderCheck(): ServiceUnderCheck {
  const entry: ServiceUnderCheck = {
    name: 'entitlement',
    async start(t) {
      const [db, keys, decision] = await Promise.all([openEntitlementDb('memory'), KeySet.start(t), entitlementDecision()]);
      t.teardown(async () => {
        await db.close();
        await decision.close();
      });
      entry.headers = { authorization: `Bearer ${await keys.token(customerClaims(), { expiresIn: '30m' })}` };
      return bootEntitlement(t, db, { IDP_JWKS_URL: keys.url, DECISION_URL: decision.url, LOYALTY_URL: '' });
    },
    bodies: { 'POST /api/v1/entitlements/evaluate': [{}, { sessionId: 'sess-1' }] },
  };
  return entry;
}
