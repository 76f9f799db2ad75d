import { z } from 'zod';
import type { AdminUser } from '../host/admin-host.js';
import { authorize } from './authorize.js';
import { readCompany } from './company-store.js';
import { COMPANY_CODE, type StoredCompany } from './company-schemas.js';
import { NAME_PATTERN } from '../../contract/ids.js';
import type { AdminContext, RouteResult } from './context.js';
import { logEvent } from './event-log.js';
import { MAX_SKEW_MS, verifySignature } from './webhook-signature.js';
import { AdminError } from './wire-error.js';

/** spec 6: results and their HTTP statuses. */
type WebhookResult = 'APPLIED' | 'RECORDED' | 'DUPLICATE' | 'NO_MATCH' | 'CONFLICT' | 'REJECTED';

const IDENTITY_EVENTS = ['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED', 'EMPLOYEE_REINSTATED', 'EMPLOYEE_COMPANY_CHANGED'] as const;
type IdentityEvent = (typeof IDENTITY_EVENTS)[number];
const isIdentityEvent = (type: string): type is IdentityEvent => (IDENTITY_EVENTS as readonly string[]).includes(type);

/**
 * How long a replay is recognised, cluster-wide. A signature stays acceptable
 * while its timestamp is within the skew of the server's clock, either way: from the first
 * delivery up to two skews later (a timestamp a full skew ahead), plus a minute for clocks of
 * nodes that differ. After that the timestamp alone refuses it (STALE_TIMESTAMP).
 */
const SIGNATURE_TTL_SECONDS = (2 * MAX_SKEW_MS) / 1000 + 60;
/**
 * Event ids are not signed: a sender's retry of an event under a fresh timestamp carries the same
 * id, and is a duplicate for a day (spec 8 asks for the last 2000 ids; a day holds more).
 */
const EVENT_ID_TTL_SECONDS = 24 * 60 * 60;
/**
 * Test harness only (Keycloak's TEST_HARNESS=true, which a production start refuses): with this
 * header and an operator's token, the webhook's transaction is rolled back after the event was
 * judged and applied, as a failed commit would, so the sender's retry shows what was remembered.
 * Ignored when the harness is off.
 */
export const FORCE_ROLLBACK_HEADER = 'X-Test-Force-Rollback';
/** How many users carrying one employeeRef are looked at (all companies), to find this company's. */
const MAX_REF_HOLDERS = 100;

const WebhookBody = z.object({
  type: z.string().min(1).max(64),
  employeeRef: z.string().min(1).max(64).optional(),
  company: z.string().regex(NAME_PATTERN).optional(),
});

const SIGNATURE_DETAIL = {
  MISSING_HEADERS: 'X-SVC-Timestamp and X-SVC-Signature are required',
  STALE_TIMESTAMP: 'timestamp is more than 5 minutes from server time',
  BAD_SIGNATURE: 'signature does not match, or no webhook secret is configured for this code',
} as const;

export function webhookRoute(context: AdminContext, code: string): RouteResult {
  // The switch is the harness's only when Keycloak runs with it, and needs the service's key: an operator.
  const forceRollback = context.host.testHarness && context.host.request.header(FORCE_ROLLBACK_HEADER) === 'true';
  if (forceRollback) authorize(context);
  const company = COMPANY_CODE.test(code) ? readCompany(context.host.store, code) : undefined;
  const outcome = handle(context, code, company);
  if (forceRollback) throw new AdminError('INTERNAL_ERROR', `test harness: ${outcome.result} rolled back as a failed commit would be`);
  // A code no company has is not logged: strangers could fill the log with codes of their choosing.
  if (company !== undefined)
    logEvent(context, {
      company: code,
      type: outcome.type ?? 'UNKNOWN',
      outcome: outcome.result,
      detail: outcome.review ?? outcome.detail,
      payload: outcome.payload ?? {},
    });
  return { status: outcome.status, body: { result: outcome.result, detail: outcome.detail } };
}

interface Outcome {
  status: number;
  result: WebhookResult;
  detail: string;
  type?: string;
  payload?: Record<string, unknown>;
  /** What the operator's event log says instead of `detail` (never sent to the company). */
  review?: string;
}

const outcome = (status: number, result: WebhookResult, detail: string, extra: Partial<Outcome> = {}): Outcome => ({ status, result, detail, ...extra });

function handle(context: AdminContext, code: string, company: StoredCompany | undefined): Outcome {
  const verdict = verifySignature(context, company?.sealedSecret);
  if (verdict !== 'OK') return outcome(401, 'REJECTED', SIGNATURE_DETAIL[verdict]);

  let json: unknown;
  try {
    json = JSON.parse(context.host.request.body ?? '');
  } catch {
    return outcome(400, 'REJECTED', 'body must be a JSON object');
  }
  const parsed = WebhookBody.safeParse(json);
  if (!parsed.success) return outcome(400, 'REJECTED', `${parsed.error.issues[0]?.path.join('.') || 'body'}: invalid`);
  const event = parsed.data;
  const eventId = context.host.request.header('X-SVC-Event-Id');
  const payload = { type: event.type, employeeRef: event.employeeRef, company: event.company, eventId };
  const extra = { type: event.type, payload };

  if (isIdentityEvent(event.type)) {
    if (event.employeeRef === undefined) return outcome(400, 'REJECTED', 'employeeRef is required for an identity event', extra);
    if (event.type === 'EMPLOYEE_COMPANY_CHANGED' && event.company === undefined) {
      return outcome(400, 'REJECTED', 'company is required for EMPLOYEE_COMPANY_CHANGED', extra);
    }
  }
  // A replay is known by its event id or by its signature: the id is not signed (spec 6), so
  // the same signed bytes under a fresh id are the same event.
  // Both are kept in Keycloak's cluster-wide store: a replay sent to another node is a replay too.
  const seen = [
    { key: eventId === undefined ? undefined : `webhook-id/${code}/${eventId}`, ttl: EVENT_ID_TTL_SECONDS },
    { key: signatureKey(code, context.host.request.header('X-SVC-Signature')), ttl: SIGNATURE_TTL_SECONDS },
  ].filter((entry): entry is { key: string; ttl: number } => entry.key !== undefined);
  if (seen.some(({ key }) => context.host.once.seen(key))) {
    return outcome(200, 'DUPLICATE', 'event already processed; not re-applied', extra);
  }
  const result = judge(context, code, event, extra);
  // Remembered only once Keycloak has committed the effect: a failed commit, a failure while
  // applying and a CONFLICT leave the sender's retry to be judged again. Two deliveries at the
  // very same moment may both apply; every effect sets a state, so applying twice changes nothing.
  if (result.result !== 'CONFLICT') for (const { key, ttl } of seen) context.host.once.rememberOnCommit(key, ttl);
  return result;
}

/** The signature as sent (it was verified, so it is base64 of 32 bytes): keyed per company. */
const signatureKey = (code: string, signature: string | undefined): string | undefined =>
  signature === undefined ? undefined : `webhook-signature/${code}/${signature.trim()}`;

/** Company codes write '-' (spec 2.10 pattern) where HR's company values write '_' (MEMBER_A is MEMBER-A). */
const atCompany = (user: AdminUser, code: string): boolean => user.attributes['company']?.toUpperCase().replace(/_/g, '-') === code;

function judge(context: AdminContext, code: string, event: z.infer<typeof WebhookBody>, extra: Partial<Outcome>): Outcome {
  if (!isIdentityEvent(event.type)) return outcome(200, 'RECORDED', 'not an identity event; recorded only', extra);
  // A company's secret reaches only its own employees (for EMPLOYEE_COMPANY_CHANGED: those still at it).
  // The body check refuses an identity event without one before this; said again for the type.
  if (event.employeeRef === undefined) return outcome(400, 'REJECTED', 'employeeRef is required for an identity event', extra);
  const holders = context.host.users.findByAttribute('employee_ref', event.employeeRef, MAX_REF_HOLDERS);
  const users = holders.filter((user) => atCompany(user, code));
  const [user] = users;
  if (user === undefined) {
    const review = holders.length > 0 ? "employeeRef belongs to another company's employee; not applied, logged for review" : undefined;
    return outcome(200, 'NO_MATCH', 'no employee of this company carries that employeeRef; logged for review', { ...extra, review });
  }
  if (users.length > 1) return outcome(409, 'CONFLICT', 'more than one user carries that employeeRef', extra);
  apply(context, user, event.type, event.company);
  const review = event.type === 'EMPLOYEE_TERMINATED' || event.type === 'EMPLOYEE_SUSPENDED' ? endNetworkSessions(context, user.id, event.type) : undefined;
  return outcome(200, 'APPLIED', `${event.type} applied`, { ...extra, ...(review === undefined ? {} : { review }) });
}

/** How long the session service gets per attempt, and how many attempts. */
const SESSIONS_TIMEOUT_MS = 2000;
const SESSIONS_ATTEMPTS = 2;

/**
 * A terminated or suspended employee's (or a revoked voucher's) network sessions end with the account: the
 * session service revokes every open one (the gateways hear of it through its change feed and
 * disconnect the devices). Revoking is idempotent, so one retry is safe. When the service cannot
 * be reached the account change still stands and the operator's event log says the network
 * sessions will end only at their expiry; answers that review note, or undefined.
 */
export function endNetworkSessions(
  context: AdminContext,
  userId: string,
  reason: 'EMPLOYEE_TERMINATED' | 'EMPLOYEE_SUSPENDED' | 'VOUCHER_REVOKED',
): string | undefined {
  let last = 'unreachable';
  for (let attempt = 0; attempt < SESSIONS_ATTEMPTS; attempt += 1) {
    const reply = context.host.http.postToSessions(`/api/v1/subjects/${encodeURIComponent(userId)}/revoke`, JSON.stringify({ reason }), SESSIONS_TIMEOUT_MS);
    if ('status' in reply && reply.status === 200) return undefined;
    last = 'status' in reply ? `HTTP ${reply.status}` : reply.failure;
  }
  return `${reason} applied, but the network sessions could not be ended (session service: ${last}); they end at their expiry`;
}

/** spec 3.3 */
function apply(context: AdminContext, user: AdminUser, type: IdentityEvent, company: string | undefined): void {
  const { users } = context.host;
  switch (type) {
    case 'EMPLOYEE_TERMINATED':
      users.setEnabled(user.id, false);
      users.setAttributes(user.id, { employee_verified: 'false' });
      users.endSessions(user.id);
      return;
    case 'EMPLOYEE_SUSPENDED':
      users.setEnabled(user.id, false);
      users.endSessions(user.id);
      return;
    case 'EMPLOYEE_REINSTATED':
      users.setEnabled(user.id, true);
      return;
    case 'EMPLOYEE_COMPANY_CHANGED':
      // The body check refuses this event without a company.
      if (company !== undefined) users.setAttributes(user.id, { company });
  }
}
