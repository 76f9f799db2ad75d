import { z } from 'zod';

/** Spec 4.3: an optional body of hints; the token decides. */
export const EvaluateRequest = z.strictObject({
  subjectId: z.string().min(1).max(64).optional(),
  userType: z.string().max(64).optional(),
  employeeVerified: z.boolean().optional(),
  company: z.string().max(64).optional(),
  sessionId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).nullable().optional(),
});
export type EvaluateRequest = z.output<typeof EvaluateRequest>;

export const ENTITLEMENT_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

const dateTime = z.iso.datetime({ offset: true });

/** Spec 2.6. */
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
    tier: z.enum(['BASIC', 'BOOST']),
    qosClass: z.enum(['STANDARD', 'HIGH']),
    deviceSlots: z.number().int(),
    sourceType: z.enum(['EMPLOYEE_VERIFICATION', 'LOYALTY_TIER', 'IDP_ID_LOGIN']),
    sourceRef: z.string().nullable(),
  }),
  issuedAt: dateTime,
  replayed: z.boolean(),
});
