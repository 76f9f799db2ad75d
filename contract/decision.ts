import { z } from 'zod';

/** Spec 2.8 and 4.5: the decision service's evaluate call (POST /api/v1/decisions/{model}/evaluate). */
export const EvaluateRequest = z.object({
  inputs: z.record(z.string(), z.unknown()).describe('Every input the evaluated decisions declare; null is a value, absent is an error.'),
  decision: z.string().min(1).optional().describe('Evaluate just this decision (and the decisions it requires).'),
});
export type EvaluateRequest = z.output<typeof EvaluateRequest>;

export const EvaluateResponse = z.object({
  model: z.string(),
  results: z.record(z.string(), z.unknown()).describe('Outputs by decision name.'),
  problems: z
    .array(z.object({ decision: z.string().nullable(), cell: z.string().nullable(), message: z.string() }))
    .optional()
    .describe('Values an item definition rejected (now null in results), by decision and expression; absent when none.'),
  correlationId: z.string(),
  timestamp: z.iso.datetime(),
});
export type EvaluateResponse = z.output<typeof EvaluateResponse>;

/** What a caller needs of the answer: the results by decision name. */
export const EvaluateResults = EvaluateResponse.pick({ results: true });

// A model may leave an output out or give it another type: such an output reads as null, and
// only a non-boolean `eligible` makes the answer unusable.
const orNull = <T extends z.ZodType>(schema: T) => schema.nullable().catch(null);

export const ALLOWANCE_PERIODS = ['DAY', 'WEEK', 'MONTH'] as const;

// An allowance is a limit on access: an output of the wrong type must fail the decision (422),
// never read as null, which would mean "no limit" and grant more than the table says.
const limit = z.number().nonnegative().nullable().default(null);

/**
 * Spec 2.8: the outputs of one decision (`reason` is set only on refusal), and the allowances of
 * the granted package: data in MB and time in minutes per period; absent or null: no limit.
 */
export const DecisionOutputs = z.object({
  eligible: z.boolean(),
  entitlementType: orNull(z.string()),
  tier: orNull(z.string()),
  qosClass: orNull(z.string()),
  deviceSlots: orNull(z.number()),
  sourceType: orNull(z.string()),
  ttlSeconds: orNull(z.number()),
  reason: orNull(z.string()),
  dataAllowanceMb: limit,
  timeAllowanceMinutes: limit,
  allowancePeriod: z.enum(ALLOWANCE_PERIODS).nullable().default(null),
});
export type DecisionOutputs = z.output<typeof DecisionOutputs>;
