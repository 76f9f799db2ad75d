import { z } from 'zod';

/**
 * The session limits by entitlement class, one table for every controller: the RADIUS side sends
 * `up`/`down` as WISPr-Bandwidth-Max-Up/-Down (bit/s), openNDS gets them as kbit/s in
 * authmon's auth list with the quotas. Pure: no Node APIs.
 */
const Limits = z.strictObject({
  up: z.number().int().min(0).describe('Upload rate, bit/s (WISPr-Bandwidth-Max-Up; openNDS upload rate in kbit/s = up / 1000).'),
  down: z.number().int().min(0).describe('Download rate, bit/s (WISPr-Bandwidth-Max-Down; openNDS download rate in kbit/s).'),
  upQuotaKB: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Upload quota per session in kB, openNDS only (RADIUS controllers have no standard attribute); 0: none.'),
  downQuotaKB: z.number().int().min(0).default(0).describe('Download quota per session in kB, openNDS only; 0: none.'),
});
export type Limits = z.output<typeof Limits>;

/**
 * Limits by the entitlement's class: keys `<tier>:<qosClass>` (most specific), `<qosClass>`,
 * then `*` (anything else).
 */
export const QosTable = z.record(z.string().regex(/^(\*|[A-Z_]+(:[A-Z_]+)?)$/), Limits).refine((table) => '*' in table, 'needs a "*" row');
export type QosTable = z.output<typeof QosTable>;

/** The `*` row of the shipped table; also what a table without one (refused at load) would give. */
const ANYTHING_ELSE: Limits = { up: 1_000_000, down: 5_000_000, upQuotaKB: 0, downQuotaKB: 0 };

export const DEFAULT_QOS_TABLE: QosTable = {
  'BOOST:HIGH': { up: 20_000_000, down: 100_000_000, upQuotaKB: 0, downQuotaKB: 0 },
  HIGH: { up: 10_000_000, down: 50_000_000, upQuotaKB: 0, downQuotaKB: 0 },
  STANDARD: { up: 2_000_000, down: 10_000_000, upQuotaKB: 0, downQuotaKB: 0 },
  '*': ANYTHING_ELSE,
};

export function limitsFor(table: QosTable, tier: string | null, qosClass: string | null): Limits {
  return table[`${tier}:${qosClass}`] ?? (qosClass === null ? undefined : table[qosClass]) ?? table['*'] ?? ANYTHING_ELSE;
}
