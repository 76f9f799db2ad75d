import { z } from 'zod';
import { looksLikeMacAddress } from './device-ref.js';

/** Spec 2.1: the session id path pattern. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
const ENTITLEMENT_ID = /^ent-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const DeviceRef = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
  .refine((value) => !looksLikeMacAddress(value), 'must be an opaque handle, never a MAC address');

export const CreateSessionRequest = z.strictObject({
  subjectId: z.uuid().describe('The identity token `sub`.'),
  deviceRef: DeviceRef.nullable().default(null),
});

// Spec 4.4: `entitlementId` is checked first and apart (422 ENTITLEMENT_DENIED when absent);
// the rest of the body is then validated strictly (400).
export const GrantRequest = z.strictObject({
  entitlementId: z.string().regex(ENTITLEMENT_ID, 'must be an entitlement id ent-<uuid>'),
  entitlementType: z.string().min(1).max(64).nullable().default(null),
  tier: z.enum(['BASIC', 'BOOST']).nullable().default(null),
  qosClass: z.enum(['STANDARD', 'HIGH']).nullable().default(null),
  validUntil: z.iso.datetime({ offset: true }).describe('The entitlement\'s validUntil; becomes expiresAt.'),
  deviceSlots: z.number().int().min(1).max(16).default(1).describe('The entitlement\'s deviceSlots (extension; default 1).'),
});

export const STATES = ['CREATED', 'GRANTED', 'REVOKED', 'EXPIRED'] as const;
const dateTime = z.iso.datetime({ offset: true });

/** Spec 2.7. */
export const Session = z.object({
  sessionId: z.string(),
  subjectId: z.string(),
  deviceRef: z.string().nullable(),
  state: z.enum(STATES),
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
});

/** One entry of the change feed (GET /api/v1/sessions/changes). */
export const SessionChange = z.object({
  cursor: z.string().describe('Position of this change; pass it as `after` to read what follows.'),
  sessionId: z.string(),
  fromState: z.enum(STATES).nullable(),
  state: z.enum(STATES).describe('The state the session entered.'),
  reason: z.string().nullable().describe('Why it ended: REVOKED, DEVICE_SLOTS, EXPIRES_AT_PASSED; null otherwise.'),
  at: dateTime,
});

export const ChangesPage = z.object({
  changes: z.array(SessionChange),
  next: z.string().describe('The cursor to pass as `after` next time (unchanged when nothing is new).'),
});

/** Issue 17: why a subject's sessions end (recorded as each session's revoke reason). */
export const RevokeSubjectRequest = z.strictObject({
  reason: z.enum(['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED', 'SUBJECT_REVOKED']).default('SUBJECT_REVOKED'),
});
export const SubjectRevoked = z.object({ subjectId: z.string(), revoked: z.array(z.string()) });
