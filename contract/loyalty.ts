import { z } from 'zod';

/** Spec 2.9 and 4.6: the member lookup (POST /api/v1/members/lookup) and its answer. */
export const LookupRequest = z.object({ email: z.email() });

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
