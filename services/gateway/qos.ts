import { z } from 'zod';

const Limits = z.strictObject({
  up: z.number().int().min(0).describe('WISPr-Bandwidth-Max-Up, bit/s'),
  down: z.number().int().min(0).describe('WISPr-Bandwidth-Max-Down, bit/s'),
});
export type Limits = z.output<typeof Limits>;

/**
 * Bandwidth by the entitlement's class: keys `<tier>:<qosClass>` (most specific), `<qosClass>`,
 * then `*` (anything else). Set with QOS_TABLE.
 */
export const QosTable = z.record(z.string().regex(/^(\*|[A-Z_]+(:[A-Z_]+)?)$/), Limits).refine((table) => '*' in table, 'needs a "*" row');
export type QosTable = z.output<typeof QosTable>;

export const DEFAULT_QOS_TABLE: QosTable = {
  'BOOST:HIGH': { up: 20_000_000, down: 100_000_000 },
  HIGH: { up: 10_000_000, down: 50_000_000 },
  STANDARD: { up: 2_000_000, down: 10_000_000 },
  '*': { up: 1_000_000, down: 5_000_000 },
};

export function limitsFor(table: QosTable, tier: string | null, qosClass: string | null): Limits {
  return table[`${tier}:${qosClass}`] ?? (qosClass === null ? undefined : table[qosClass]) ?? table['*']!;
}
