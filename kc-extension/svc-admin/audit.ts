import { z } from 'zod';
import { actorOf } from './authorize.js';
import { readBody } from './read-body.js';
import { isoNow, ok, type AdminContext, type RouteResult } from './context.js';
import { AdminError } from './wire-error.js';

/**
 * The durable audit of operators' access to a person's records (decision 0093): every find, read
 * and erasure, with who, when, why and which person by a keyed reference, never an identifier.
 * Kept as realm attributes (`svc-admin.audit.<ms>.<uuid>`) in Keycloak's own database, so it
 * outlives a restart, is shared by every node and goes with a realm backup. Each entry is written
 * by the store's claim, committed at once: an erasure that fails part-way and rolls back its
 * Keycloak writes still leaves its entry.
 */
const PREFIX = 'audit.';
/** The key of the keyed references; claimed once per realm, sealed, never shown. */
const REFERENCE_KEY = 'auditReferenceKey';
const DEFAULT_RETENTION_DAYS = 365;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
const DAY_MS = 86_400_000;

export const AUDIT_ACTIONS = ['FIND', 'READ', 'ERASE'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  operator: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  /** Keyed reference of the person (HMAC of their account id under the realm's audit key); null when a find matched nobody. */
  person: z.string().nullable(),
  reason: z.string(),
  outcome: z.string(),
});
export type AuditEntry = z.output<typeof AuditEntry>;

// What an operator types as a reason must not carry the person it is about: a run of 9 or more
// digits (a citizen or phone number) and anything shaped like an email address are blanked.
const DIGIT_RUN = /\+?\d[\d .-]{7,}\d/g;
const EMAIL = /[^\s@]+@[^\s@]+/g;
const scrub = (text: string): string => text.replace(EMAIL, '[redacted]').replace(DIGIT_RUN, '[redacted]');

/** The required reason of an access: 3 to 200 characters, scrubbed of identifiers. */
export const Reason = z.string().trim().min(3, 'must say why (at least 3 characters)').max(200, 'must be at most 200 characters').transform(scrub);

/** The reason of a GET (query `reason`), 400 when missing or too short. */
export function queryReason(context: AdminContext): string {
  const parsed = Reason.safeParse(context.host.request.query('reason') ?? '');
  if (!parsed.success) throw new AdminError('INVALID_REQUEST', `reason: ${parsed.error.issues[0]?.message ?? 'is required'}`);
  return parsed.data;
}

/** The person's keyed reference: stable for one realm, so entries about one person can be found together, and naming nobody without the key. */
export function personReference(context: AdminContext, subjectId: string): string {
  const key = context.host.store.claim(REFERENCE_KEY, context.host.crypto.newSealedKey());
  const mac = context.host.crypto.hmac(key, `person:${subjectId}`);
  if (mac === undefined) throw new Error('the audit reference key is unreadable');
  return `p-${mac.replace(/[+/=]/g, '').slice(0, 22)}`;
}

/** The window set by Keycloak's SVC_ADMIN_AUDIT_RETENTION_DAYS (docs/operate/configuration.md); 0 keeps entries for ever. */
export function auditRetentionDays(context: AdminContext): number {
  const given = context.host.auditRetentionDays;
  return given === '' || !/^\d{1,5}$/.test(given) ? DEFAULT_RETENTION_DAYS : Number(given);
}

const entryKey = (atMs: number, id: string): string => `${PREFIX}${String(atMs).padStart(15, '0')}.${id}`;
const atOfKey = (key: string): number => Number(key.slice(PREFIX.length, PREFIX.length + 15));

/** Records one access and removes the entries older than the retention window. */
export function recordAccess(
  context: AdminContext,
  action: AuditAction,
  subjectId: string | undefined,
  reason: string,
  outcome: string,
  operator: string = actorOf(context),
): void {
  const now = context.host.nowMs();
  const entry: AuditEntry = {
    id: context.host.newUuid(),
    at: isoNow(context),
    operator,
    action,
    person: subjectId === undefined ? null : personReference(context, subjectId),
    reason,
    outcome,
  };
  context.host.store.claim(entryKey(now, entry.id), JSON.stringify(entry));
  purgeAudit(context, now);
}

/** Who the audit names for an erasure made by the portal's purge job (inactive accounts, expired vouchers). */
export const RETENTION_JOB = 'retention-job';

export const RetentionErasure = z.strictObject({
  subjectId: z.string().min(1).max(100),
  reason: z.enum(['inactive', 'voucher-expired']),
  outcome: z.enum(['erased', 'incomplete', 'employee', 'voucher']),
});

const RETENTION_REASON = {
  inactive: 'no sign-in within RETENTION_INACTIVE_ACCOUNTS_DAYS',
  'voucher-expired': 'voucher expired more than RETENTION_VOUCHER_ACCOUNTS_DAYS ago',
} as const;
const RETENTION_OUTCOME = { erased: 'ERASED', incomplete: 'INCOMPLETE', employee: 'REFUSED_EMPLOYEE', voucher: 'REFUSED_VOUCHER' } as const;

/**
 * The portal's purge job (role svc-admin-retention): records an erasure it made, as an operator's
 * is recorded, by the job's name and the rule's reason. It reads nothing and writes no other entry.
 */
export function retentionErasureRoute(context: AdminContext): RouteResult {
  const input = readBody(context, RetentionErasure);
  recordAccess(context, 'ERASE', input.subjectId, RETENTION_REASON[input.reason], RETENTION_OUTCOME[input.outcome], RETENTION_JOB);
  return ok({ recorded: true });
}

/** Removes every entry older than the window; answers how many. */
export function purgeAudit(context: AdminContext, now: number): number {
  const days = auditRetentionDays(context);
  if (days === 0) return 0;
  const cutoff = now - days * DAY_MS;
  const old = Object.keys(context.host.store.list(PREFIX)).filter((key) => atOfKey(key) < cutoff);
  for (const key of old) context.host.store.remove(key);
  return old.length;
}

/** Operator: the audit, newest first (`limit` 1-500, default 100; `person` a keyed reference narrows it to one person). */
export function auditRoute(context: AdminContext): RouteResult {
  const given = context.host.request.query('limit');
  const limit = given === undefined ? DEFAULT_LIMIT : Number(given);
  if (!/^\d+$/.test(given ?? '0') || limit < 1 || limit > MAX_LIMIT) {
    throw new AdminError('INVALID_REQUEST', `limit: must be an integer from 1 to ${MAX_LIMIT}`);
  }
  purgeAudit(context, context.host.nowMs());
  const person = context.host.request.query('person');
  const entries = Object.entries(context.host.store.list(PREFIX))
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([, raw]) => AuditEntry.parse(JSON.parse(raw)))
    .filter((entry) => person === undefined || entry.person === person)
    .slice(0, limit);
  return ok({ entries, retentionDays: auditRetentionDays(context) });
}
