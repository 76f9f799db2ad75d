import { z } from 'zod';

export const LookupRequest = z.object({ email: z.email() });

export const TIERS = ['GOLD', 'SILVER', 'NONE'] as const;
export const STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;

// Spec 2.9: these five fields are the whole member answer.
export const MemberFound = z.object({
  found: z.literal(true),
  memberRef: z.string(),
  tier: z.enum(TIERS),
  status: z.enum(STATUSES),
  wifiBenefit: z.boolean(),
});
export const MemberNotFound = z.object({ found: z.literal(false) });
export const LookupResponse = z.union([MemberFound, MemberNotFound]);
export type LookupResponse = z.output<typeof LookupResponse>;

/** A fixture record; name, phone, points and birth date exist only to prove they never leave. */
export const MemberRecord = z.object({
  email: z.email(),
  memberRef: z.string(),
  tier: z.enum(TIERS),
  status: z.enum(STATUSES),
  wifiBenefit: z.boolean(),
  fullName: z.string(),
  phone: z.string(),
  points: z.number().int(),
  birthDate: z.string(),
});
export type MemberRecord = z.output<typeof MemberRecord>;

export const MemberFixture = z.object({ members: z.array(MemberRecord) });
