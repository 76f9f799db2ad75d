import { z } from 'zod';

/** spec 8 */
export const MAX_IMPORT_ROWS = 5000;
export const CITIZEN_ID = /^[0-9]{9,12}$/;

/** spec 2.10 ImportRow; each row needs employeeId or email (the keys that name an account). */
export const ImportRow = z.object({
  employeeId: z.string().regex(/^[A-Za-z0-9._-]{3,32}$/, 'must match ^[A-Za-z0-9._-]{3,32}$').optional(),
  citizenId: z.string().max(64).optional(),
  email: z.email().max(254).optional(),
  fullName: z.string().max(200).optional(),
});
export type ImportRow = z.output<typeof ImportRow>;

export const ImportRequest = z.object({
  company: z.string().min(1).max(24),
  rows: z.array(z.unknown()),
});

/**
 * spec 3.4, plus LINK_BY_EMPLOYEE_REF for a match by `employee_ref` (the spec leaves it unnamed)
 * and REVIEW_EMAIL_MATCH: an email match to an account that may not be linked (import-match.ts),
 * written nothing.
 */
export const IMPORT_ACTIONS = ['CREATE', 'LINK_BY_CCCD', 'LINK_BY_EMPLOYEE_REF', 'LINK_BY_EMAIL', 'REVIEW_EMAIL_MATCH', 'CONFLICT'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/** spec 2.10 ImportOutcome */
export const ImportOutcome = z
  .object({
    line: z.number().int().min(1),
    action: z.enum(IMPORT_ACTIONS),
    employeeRef: z.string().optional(),
    email: z.string().optional(),
    username: z.string().optional(),
    matchedUserId: z.string().optional(),
    note: z.string().optional(),
  })
  .strict();
export type ImportOutcome = z.output<typeof ImportOutcome>;
