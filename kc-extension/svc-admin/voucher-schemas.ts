import { z } from 'zod';

/** The most vouchers one batch makes: one request writes them all in one Keycloak transaction. */
export const MAX_BATCH_COUNT = 500;
/** The session service takes at most 16 device slots for a subject. */
export const MAX_DEVICE_SLOTS = 16;
const YEAR_MINUTES = 366 * 24 * 60;
const YEAR_MS = 366 * 24 * 3_600_000;

/** POST /api/vouchers/batches: what every voucher of the batch gets. */
export const BatchInput = z
  .strictObject({
    count: z.number().int().min(1).max(MAX_BATCH_COUNT),
    validFrom: z.iso.datetime({ offset: true }).optional(),
    validUntil: z.iso.datetime({ offset: true }),
    durationMinutes: z.number().int().min(1).max(YEAR_MINUTES),
    deviceSlots: z.number().int().min(1).max(MAX_DEVICE_SLOTS).default(1),
    shared: z.boolean().default(false),
    note: z
      .string()
      .max(200)
      .regex(/^[^\p{Cc}]*$/u, 'must not hold control characters')
      .default(''),
  })
  .refine((input) => Date.parse(input.validUntil) > Date.parse(input.validFrom ?? '1970-01-01T00:00:00Z'), {
    message: 'must be after validFrom',
    path: ['validUntil'],
  })
  .refine((input) => Date.parse(input.validUntil) - Date.parse(input.validFrom ?? input.validUntil) <= YEAR_MS, {
    message: 'must be at most a year after validFrom',
    path: ['validUntil'],
  });
export type BatchInput = z.output<typeof BatchInput>;

/** A batch as the realm keeps it (realm attribute `svc-admin.voucher-batch.<id>`): never a code. */
export const StoredBatch = z.object({
  id: z.string(),
  count: z.number().int(),
  validFrom: z.string(),
  validUntil: z.string(),
  durationMinutes: z.number().int(),
  deviceSlots: z.number().int(),
  shared: z.boolean(),
  note: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  revokedAt: z.string().optional(),
});
export type StoredBatch = z.output<typeof StoredBatch>;

export const VOUCHER_STATES = ['UNUSED', 'ACTIVE', 'USED_UP', 'EXPIRED', 'NOT_YET_VALID', 'REVOKED', 'INVALID'] as const;

/** One voucher as listed: its id (the Keycloak user id), never its code. */
export const VoucherView = z
  .object({
    id: z.string(),
    state: z.enum(VOUCHER_STATES),
    firstUsedAt: z.string().nullable(),
    signIns: z.number().int(),
    signInsAllowed: z.number().int(),
  })
  .strict();

export const BatchView = StoredBatch.extend({ states: z.record(z.string(), z.number().int()) }).strict();

/** POST /api/vouchers/revoke: a lost card is revoked by the code printed on it. */
export const RevokeByCode = z.strictObject({ code: z.string().min(1).max(64) });
