import { z } from 'zod';
import { SubjectEntitlements } from '../../contract/entitlement.js';
import { eraseSubjectEverywhere, isImportedEmployee, isVoucherAccount, type ErasureHold, type ErasureOutcome } from '../../contract/erasure.js';
import { ConnectionHistory } from '../../contract/gateway.js';
import { E164_PATTERN, normalizePhone, UUID } from '../../contract/index.js';
import { SubjectSessions } from '../../contract/session.js';
import type { AdminUser, PlatformService } from '../host/admin-host.js';
import { queryReason, Reason, recordAccess } from './audit.js';
import { ok, type AdminContext, type RouteResult } from './context.js';
import { readBody } from './read-body.js';
import { AdminError } from './wire-error.js';

/**
 * An operator answers a person's request (decision 0094): finds them by email, phone number or
 * employee reference, reads what the platform holds about them, and erases them through the same
 * service routes and in the same order as the person's own erasure (contract/erasure.ts). Every
 * find, read and erasure names a reason and is written to the audit (audit.ts) before it answers.
 */
const SERVICE_TIMEOUT_MS = 3000;
const MAX_FOUND = 20;
// Attributes that are keys, not a person's data: never shown (the citizen-number link is a keyed hash).
const HIDDEN_ATTRIBUTES = new Set(['cccd_link']);

const TermsAcceptances = z.object({
  subjectId: z.string(),
  acceptances: z.array(z.object({ version: z.string(), acceptedAt: z.string(), channel: z.string() })),
});

/** The short view of a person a find answers. */
function summary(user: AdminUser) {
  return {
    id: user.id,
    username: user.username,
    email: user.email ?? null,
    phone: user.attributes['phone_number'] ?? null,
    employeeRef: user.attributes['employee_ref'] ?? null,
    userType: user.attributes['user_type'] ?? null,
    enabled: user.enabled,
  };
}

const EMAIL = z.email();

/** Operator: the persons carrying an email, a phone number (any spelling, compared in E.164) or an employee reference; exactly one is given. */
export function findPersonsRoute(context: AdminContext): RouteResult {
  const query = context.host.request.query;
  const keys = (['email', 'phone', 'employeeRef'] as const).filter((name) => query(name) !== undefined);
  if (keys.length !== 1) throw new AdminError('INVALID_REQUEST', 'Give exactly one of email, phone, employeeRef.');
  const reason = queryReason(context);
  const users = context.host.users;
  let found: AdminUser[];
  if (keys[0] === 'email') {
    const email = (query('email') ?? '').trim().toLowerCase();
    if (!EMAIL.safeParse(email).success) throw new AdminError('INVALID_REQUEST', 'email: must be an email address');
    found = users.findByKeys({ attributes: {}, usernames: [email], emails: [email] });
  } else if (keys[0] === 'phone') {
    const phone = normalizePhone(query('phone') ?? '');
    if (phone === undefined || !E164_PATTERN.test(phone)) throw new AdminError('INVALID_REQUEST', 'phone: must be a phone number');
    found = users.findByAttribute('phone_number', phone, MAX_FOUND);
  } else {
    const ref = (query('employeeRef') ?? '').trim();
    if (!/^[A-Za-z0-9._:-]{1,80}$/.test(ref)) throw new AdminError('INVALID_REQUEST', 'employeeRef: must be an employee reference');
    found = users.findByAttribute('employee_ref', ref, MAX_FOUND);
  }
  const persons = found.slice(0, MAX_FOUND).sort((a, b) => a.id.localeCompare(b.id));
  if (persons.length === 0) recordAccess(context, 'FIND', undefined, reason, 'NONE_FOUND');
  for (const person of persons) recordAccess(context, 'FIND', person.id, reason, 'FOUND');
  return ok({ persons: persons.map(summary) });
}

const ACCOUNT_ID = new RegExp(`^${UUID}$`);

function subjectOf(id: string): string {
  if (!ACCOUNT_ID.test(id)) throw new AdminError('INVALID_REQUEST', 'id: must be a UUID');
  return id;
}

/** One read at a platform service, parsed with its contract; undefined when it did not answer as the contract says. */
function read<T extends z.ZodType>(context: AdminContext, service: PlatformService, path: string, schema: T): z.output<T> | undefined {
  const answer = context.host.http.service(service, 'GET', path, undefined, SERVICE_TIMEOUT_MS);
  if (!('status' in answer) || answer.status !== 200) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(answer.body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const unavailable = (service: string) => new AdminError('UPSTREAM_UNAVAILABLE', `The ${service} service did not answer; nothing partial is shown.`);

/**
 * Operator: what the platform holds about one person: the Keycloak account (attributes but the
 * keyed citizen-number link), network sessions with their changes and their connections at the
 * gateways, entitlements, and terms acceptances. A service that does not answer is 502: never a
 * partial record that reads as complete.
 */
export function readPersonRoute(context: AdminContext, id: string): RouteResult {
  const subjectId = subjectOf(id);
  const reason = queryReason(context);
  const user = context.host.users.get(subjectId);
  recordAccess(context, 'READ', subjectId, reason, user === undefined ? 'NO_ACCOUNT' : 'READ');
  const subject = encodeURIComponent(subjectId);
  const sessions = read(context, 'session', `/api/v1/subjects/${subject}/sessions`, SubjectSessions);
  if (sessions === undefined) throw unavailable('session');
  const connections: z.output<typeof ConnectionHistory>[] = [];
  for (const session of sessions.sessions) {
    const history = read(context, 'gateway', `/api/v1/connections/${encodeURIComponent(session.sessionId)}/history`, ConnectionHistory);
    if (history === undefined) throw unavailable('gateway');
    connections.push(history);
  }
  const entitlements = read(context, 'entitlement', `/api/v1/subjects/${subject}/entitlements`, SubjectEntitlements);
  if (entitlements === undefined) throw unavailable('entitlement');
  const terms = read(context, 'portal', `/api/v1/subjects/${subject}/terms`, TermsAcceptances);
  if (terms === undefined) throw unavailable('portal');
  const account =
    user === undefined
      ? null
      : {
          ...summary(user),
          emailVerified: user.emailVerified,
          attributes: Object.fromEntries(Object.entries(user.attributes).filter(([name]) => !HIDDEN_ATTRIBUTES.has(name))),
        };
  return ok({
    subjectId,
    account,
    sessions: sessions.sessions.map((session) => ({
      ...session,
      connections: connections.find((history) => history.sessionId === session.sessionId)?.connections ?? [],
    })),
    entitlements: entitlements.entitlements,
    termsAcceptances: terms.acceptances,
  });
}

export const EraseInput = z.strictObject({
  confirm: z.literal(true, 'must be true: the operator confirmed the erasure'),
  reason: Reason,
});

function post(context: AdminContext, service: PlatformService, path: string, body: unknown): boolean {
  const answer = context.host.http.service(service, 'POST', path, JSON.stringify(body), SERVICE_TIMEOUT_MS);
  return 'status' in answer && answer.status === 200;
}

/** The erasure's steps as svc-admin reaches the stores: Keycloak's user through the host, the services through the host's ports. */
function steps(context: AdminContext) {
  const users = context.host.users;
  return {
    hold: (subjectId: string): ErasureHold => {
      const user = users.get(subjectId);
      if (user === undefined) return 'gone';
      if (isImportedEmployee(user.attributes)) return 'employee';
      if (isVoucherAccount(user.attributes)) return 'voucher';
      if (user.enabled) users.setEnabled(subjectId, false);
      users.endSessions(subjectId);
      return 'held';
    },
    listSessionIds: (subjectId: string) =>
      read(context, 'session', `/api/v1/subjects/${encodeURIComponent(subjectId)}/sessions`, SubjectSessions)?.sessions.map((session) => session.sessionId),
    eraseConnections: (sessionIds: readonly string[]) => post(context, 'gateway', '/api/v1/connections/erase', { sessionIds }),
    eraseSessions: (subjectId: string) => post(context, 'session', `/api/v1/subjects/${encodeURIComponent(subjectId)}/erase`, {}),
    eraseEntitlements: (subjectId: string) => post(context, 'entitlement', `/api/v1/subjects/${encodeURIComponent(subjectId)}/erase`, {}),
    removeAccount: (subjectId: string) => users.remove(subjectId),
  };
}

const OUTCOME_NOTE: Record<ErasureOutcome, string> = {
  erased: 'ERASED',
  employee: 'REFUSED_EMPLOYEE',
  voucher: 'REFUSED_VOUCHER',
  incomplete: 'INCOMPLETE',
};

/**
 * Operator: erases a person, with the refusals of the person's own erasure (an imported
 * employee's account is their company's HR's; a voucher's is the venue's, revoked in Vouchers).
 * A step that fails is 502 with the account left disabled (this request's Keycloak writes are
 * kept), and the same request finishes it.
 */
export async function erasePersonRoute(context: AdminContext, id: string): Promise<RouteResult> {
  const subjectId = subjectOf(id);
  const input = readBody(context, EraseInput);
  const outcome = await eraseSubjectEverywhere(subjectId, steps(context));
  recordAccess(context, 'ERASE', subjectId, input.reason, OUTCOME_NOTE[outcome]);
  if (outcome === 'employee') throw new AdminError('ACCOUNT_MANAGED_BY_EMPLOYER', "An imported employee's account: their company's HR process ends it.");
  if (outcome === 'voucher') throw new AdminError('ACCOUNT_MANAGED_BY_VENUE', "A voucher's account: revoke the voucher in Vouchers.");
  if (outcome === 'incomplete') {
    throw new AdminError('UPSTREAM_UNAVAILABLE', 'The erasure could not be completed just now; the account stays disabled. Repeat it to finish.', {
      keepWrites: true,
    });
  }
  return ok({ erased: true, subjectId });
}
