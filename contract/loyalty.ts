import { z } from 'zod';
import { E164_PATTERN } from './phone.js';

/**
 * Spec 2.9 and 4.6: the member lookup (POST /api/v1/members/lookup) and its answer. A member is
 * looked up by a verified email, or by a verified phone number in E.164 (a guest who signed in
 * with a phone and an SMS code): exactly one of the two.
 */
export const LookupRequest = z
  .object({ email: z.email().optional(), phone: z.string().regex(E164_PATTERN, 'must be E.164').optional() })
  .refine((body) => (body.email === undefined) !== (body.phone === undefined), 'exactly one of email and phone');
export type LookupKey = { email: string } | { phone: string };

export const MEMBER_TIERS = ['GOLD', 'SILVER', 'NONE'] as const;
export const MEMBER_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;

/** Spec 2.9: these five fields are the whole member answer. */
export const MemberFound = z.object({
  found: z.literal(true),
  memberRef: z.string(),
  tier: z.enum(MEMBER_TIERS),
  status: z.enum(MEMBER_STATUSES),
  wifiBenefit: z.boolean(),
});
export const MemberNotFound = z.object({ found: z.literal(false) });
export const LookupResponse = z.union([MemberFound, MemberNotFound]);
export type LookupResponse = z.output<typeof LookupResponse>;
