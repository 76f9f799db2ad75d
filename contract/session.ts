import { z } from 'zod';
import { Allowance, QOS_CLASSES, TIERS } from './entitlement.js';
import { ENTITLEMENT_ID_PATTERN } from './ids.js';
import { looksLikeMacAddress } from './mac.js';

/**
 * The network session (spec 2.7) as it crosses the wire: the session service answers it, the
 * portal and the gateway service parse it with this schema, and whether it is still live is
 * decided here, once, for every consumer.
 */
export const SESSION_STATES = ['CREATED', 'GRANTED', 'REVOKED', 'EXPIRED'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

const dateTime = z.iso.datetime({ offset: true });

/** Spec 2.7 and 4.4 rule 2: an opaque portal-issued handle, never a MAC address. */
export const DeviceRef = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .refine((value) => !looksLikeMacAddress(value), 'must be an opaque handle, never a MAC address');

/** What a person has left of an allowance in the current period, and when it renews (a null amount: no limit). */
export const AllowanceLeft = z.object({
  bytesRemaining: z.number().int().nonnegative().nullable(),
  secondsRemaining: z.number().int().nonnegative().nullable(),
  renewsAt: dateTime,
});
export type AllowanceLeft = z.output<typeof AllowanceLeft>;

/** The portal's question before a grant: what a person has left of the allowance an entitlement gives. */
export const AllowanceLeftRequest = z.strictObject({ allowance: Allowance });
export type AllowanceLeftRequest = z.output<typeof AllowanceLeftRequest>;

/** Spec 2.7. */
export const Session = z.object({
  sessionId: z.string(),
  subjectId: z.string(),
  deviceRef: z.string().nullable(),
  state: z.enum(SESSION_STATES),
  entitlementId: z.string().nullable(),
  entitlementType: z.string().nullable(),
  tier: z.string().nullable(),
  qosClass: z.string().nullable(),
  grantedAt: dateTime.nullable(),
  expiresAt: dateTime.nullable(),
  revokedAt: dateTime.nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  replayed: z.boolean(),
  allowance: Allowance.nullable().optional().describe('The allowance of the entitlement it was granted under; null or absent: no limit.'),
  remaining: AllowanceLeft.nullable().optional().describe("What the session's person has left of that allowance now, counted across sessions and devices."),
});
export type Session = z.output<typeof Session>;

/** One entry of the change feed (GET /api/v1/sessions/changes). */
export const SessionChange = z.object({
  cursor: z.string().describe('Position of this change; pass it as `after` to read what follows.'),
  sessionId: z.string(),
  fromState: z.enum(SESSION_STATES).nullable(),
  state: z.enum(SESSION_STATES).describe('The state the session entered.'),
  reason: z.string().nullable().describe('Why it ended: REVOKED, DEVICE_SLOTS, EXPIRES_AT_PASSED, ERASED (the person deleted their account); null otherwise.'),
  at: dateTime,
});
export type SessionChange = z.output<typeof SessionChange>;

export const ChangesPage = z.object({
  changes: z.array(SessionChange),
  next: z.string().describe('The cursor to pass as `after` next time (unchanged when nothing is new).'),
});
export type ChangesPage = z.output<typeof ChangesPage>;

/** Whether a session opens the network now, and for how many whole seconds more. */
export type Liveness = { live: true; secondsLeft: number } | { live: false; state: SessionState };

/**
 * Spec 4.4 rule 5: a GRANTED session is live until its expiresAt, whether or not the session
 * service has stored the expiry yet; past it, it reads as EXPIRED. Every consumer asks this.
 */
export function livenessOf(session: Pick<Session, 'state' | 'expiresAt'>, now: Date): Liveness {
  if (session.state !== 'GRANTED') return { live: false, state: session.state };
  const end = session.expiresAt === null ? Number.NaN : Date.parse(session.expiresAt);
  const secondsLeft = Math.floor((end - now.getTime()) / 1000);
  return secondsLeft > 0 ? { live: true, secondsLeft } : { live: false, state: 'EXPIRED' };
}

/** The session as a consumer should show it: a GRANTED one past its expiresAt reads EXPIRED. */
export const asOf = (session: Session, now: Date): Session => {
  const liveness = livenessOf(session, now);
  return liveness.live || liveness.state === session.state ? session : { ...session, state: liveness.state };
};

/** Spec 4.4: opens a session (portal -> session). */
export const CreateSessionRequest = z.strictObject({
  subjectId: z.uuid().describe('The identity token `sub`.'),
  deviceRef: DeviceRef.nullable().default(null),
});

// Spec 4.4: `entitlementId` is checked first and apart (422 ENTITLEMENT_DENIED when absent);
// the rest of the body is then validated strictly (400).
/** Spec 4.4: grants a session under an entitlement (portal -> session). */
export const GrantRequest = z.strictObject({
  entitlementId: z.string().regex(ENTITLEMENT_ID_PATTERN, 'must be an entitlement id ent-<uuid>'),
  entitlementType: z.string().min(1).max(64).nullable().default(null),
  tier: z.enum(TIERS).nullable().default(null),
  qosClass: z.enum(QOS_CLASSES).nullable().default(null),
  validUntil: z.iso.datetime({ offset: true }).describe("The entitlement's validUntil; becomes expiresAt."),
  deviceSlots: z.number().int().min(1).max(16).default(1).describe("The entitlement's deviceSlots (extension; default 1)."),
  allowance: Allowance.nullable().default(null).describe("The entitlement's permission.allowance (extension; default: no limit)."),
});
export type GrantRequest = z.input<typeof GrantRequest>;

/** Why a subject's sessions end (recorded as each session's revoke reason). */
export const RevokeSubjectRequest = z.strictObject({
  reason: z.enum(['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED', 'VOUCHER_REVOKED', 'SUBJECT_REVOKED']).default('SUBJECT_REVOKED'),
});
export const SubjectRevoked = z.object({ subjectId: z.string(), revoked: z.array(z.string()) });

/** One state change of a network session, as a person's copy of their data shows it. */
export const SessionEventEntry = z.object({
  at: dateTime,
  fromState: z.enum(SESSION_STATES).nullable(),
  state: z.enum(SESSION_STATES),
  reason: z.string().nullable(),
});

/**
 * A person's network sessions, for the copy of their data (GET /api/v1/subjects/:subjectId/sessions):
 * what was granted and when, and every state change. No deviceRef: it is a keyed pseudonym of the
 * device's MAC, which the person cannot read and nobody should be able to link back.
 */
export const SubjectSessions = z.object({
  subjectId: z.string(),
  sessions: z.array(
    Session.omit({ deviceRef: true, replayed: true, subjectId: true }).extend({
      revokeReason: z.string().nullable(),
      events: z.array(SessionEventEntry),
    }),
  ),
});
export type SubjectSessions = z.output<typeof SubjectSessions>;

/** One controller connection's cumulative counters, as the gateway service last stored them. */
export const UsageReport = z.strictObject({
  connectionKey: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .describe('Names one controller connection for good (a NAS reusing its Acct-Session-Id after a reboot is a new key).'),
  sessionId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
  at: dateTime.describe('When the latest counted packet happened (its arrival less Acct-Delay-Time).'),
  octets: z.number().int().nonnegative().describe('Input and output octets with their gigawords, since the connection began.'),
  sessionTime: z.number().int().nonnegative().describe('Acct-Session-Time: seconds since the connection began.'),
});
export type UsageReport = z.output<typeof UsageReport>;

/** The gateway service's usage of connections, added to their persons' allowance counters (extension). */
export const UsageReportRequest = z.strictObject({ reports: z.array(UsageReport).min(1).max(500) });

export const UsageReported = z.object({
  counted: z.number().int().describe('Reports that added to a counter, or found everything already counted (a replay).'),
  refused: z.number().int().describe('Reports refused with nothing changed: counters going backwards, absurd values.'),
  ignored: z.number().int().describe('Reports of sessions unknown, or granted without an allowance (nothing to count against).'),
  exhausted: z
    .array(z.string())
    .describe(
      "Sessions whose person has nothing left (time or data) in the current period: the reported ones and the person's other live sessions (a device that reports only at its end, as openNDS, included); the gateway ends their connections.",
    ),
});
export type UsageReported = z.output<typeof UsageReported>;
/**
 * A subject erased at the session service: the sessions this call revoked and those it
 * anonymised (none when an earlier call already did: erasing again changes nothing).
 */
export const SubjectErased = z.object({ subjectId: z.string(), revoked: z.array(z.string()), anonymised: z.array(z.string()) });
export type SubjectErased = z.output<typeof SubjectErased>;
