import { z } from 'zod';
import { MEMBER_STATUSES as STATUSES, MEMBER_TIERS as TIERS } from '../../contract/loyalty.js';

// Spec 2.9: the lookup and its answer are the wire contract's; the fixture record is loyalty's own.
export { LookupRequest, LookupResponse, MemberFound, MemberNotFound, MEMBER_STATUSES as STATUSES, MEMBER_TIERS as TIERS } from '../../contract/loyalty.js';

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
