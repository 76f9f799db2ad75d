import type { AuthHost, UserView } from './auth-host.js';

// Synthetic values only: warm-up must touch no real account, counter or service.
const EMPLOYEE_REF = 'WARM-UP-REF';
const USER: UserView = { id: 'warm-up', username: 'emp-warm-up', enabled: true, hasPassword: false, attributes: {} };
const VERDICTS = [
  JSON.stringify({ verified: true, active: true, employeeRef: EMPLOYEE_REF, company: 'WARM-UP', wifiEligible: true }),
  JSON.stringify({ verified: false, active: false, reason: 'NOT_FOUND_OR_MISMATCH' }),
];

/**
 * An in-memory AuthHost used at start-up: running the authenticator through it lets the JVM
 * compile the interpreter paths before the first real login arrives.
 */
export function warmUpHost(round: number): AuthHost {
  const form: Record<string, string> = { employeeId: 'WARM-UP-1', citizenId: '000000000' };
  return {
    request: { formParam: (name) => form[name], header: () => undefined, clientAddress: () => '192.0.2.1' },
    config: { hrUrl: 'http://warm-up.invalid', hrApiKey: 'warm-up' },
    http: {
      postJson: () => ({ kind: 'response', status: 200, body: VERDICTS[round % VERDICTS.length] ?? '' }),
      // The warm-up drives the employee sign-in only, which sends no form.
      postForm: () => ({ kind: 'unreachable' }),
    },
    users: {
      findByAttribute: () => [],
      findByUsername: () => undefined,
      create: () => USER,
      setAttributes: () => undefined,
    },
    counters: { claim: () => true, exists: () => false, remove: () => undefined },
    values: { put: () => undefined, get: () => undefined, take: () => undefined },
    hmacHex: () => '0'.repeat(64),
    voucherHashHex: () => '0'.repeat(64),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    eventDetail: () => undefined,
    newUuid: () => '00000000-0000-4000-8000-000000000000',
    nowMs: () => 0,
  };
}
