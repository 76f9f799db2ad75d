import { z } from 'zod';
import { ALLOWANCE_PERIODS } from './decision.js';
import { PATH_ID_PATTERN } from './ids.js';

const dateTime = z.iso.datetime({ offset: true });

export const TIERS = ['BASIC', 'BOOST'] as const;

/**
 * What the package may use per period (in the venue's time zone), counted across the person's
 * sessions and devices; a null limit is no limit.
 */
export const Allowance = z.object({
  dataBytes: z.number().int().nonnegative().nullable(),
  timeSeconds: z.number().int().nonnegative().nullable(),
  period: z.enum(ALLOWANCE_PERIODS),
});
export type Allowance = z.output<typeof Allowance>;
export const QOS_CLASSES = ['STANDARD', 'HIGH'] as const;

/** Spec 2.6: what the entitlement service answers and the portal passes on. */
export const Entitlement = z.object({
  entitlementId: z.string(),
  subjectId: z.string(),
  sessionId: z.string().nullable(),
  eligible: z.boolean(),
  entitlementType: z.string(),
  status: z.enum(['ACTIVE', 'DENIED']),
  validFrom: dateTime,
  validUntil: dateTime,
  permission: z.object({
    tier: z.enum(TIERS),
    qosClass: z.enum(QOS_CLASSES),
    deviceSlots: z.number().int(),
    sourceType: z.enum(['EMPLOYEE_VERIFICATION', 'LOYALTY_TIER', 'IDP_ID_LOGIN']),
    sourceRef: z.string().nullable(),
    allowance: Allowance.nullable().optional().describe('Absent on entitlements issued before allowances existed; null: no limit.'),
  }),
  issuedAt: dateTime,
  replayed: z.boolean(),
});
export type Entitlement = z.output<typeof Entitlement>;

/** Spec 4.3: the evaluate request's optional body of hints; the token decides. */
export const EvaluateRequest = z.strictObject({
  subjectId: z.string().min(1).max(64).optional(),
  userType: z.string().max(64).optional(),
  employeeVerified: z.boolean().optional(),
  company: z.string().max(64).optional(),
  sessionId: z.string().regex(PATH_ID_PATTERN).nullable().optional(),
});
export type EvaluateRequest = z.output<typeof EvaluateRequest>;

/** A subject's entitlements, oldest first (GET /api/v1/subjects/:subjectId/entitlements, an operator's read in svc-admin). */
// As granted and stored: `replayed` describes one evaluate answer, not the entitlement.
export const SubjectEntitlements = z.object({ subjectId: z.string(), entitlements: z.array(Entitlement.omit({ replayed: true })) });

/** A subject erased at the entitlement service: how many entitlements and requests went (0 when an earlier call already erased them). */
export const EntitlementsErased = z.object({ subjectId: z.string(), entitlements: z.number().int(), requests: z.number().int() });
