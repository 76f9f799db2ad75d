import { z } from 'zod';

// Spec 2.8 and 4.5: decision service bodies.
export const ModelName = z.string().min(1).describe("The model's name (the DMN definitions' name), as listed by GET /api/v1/decisions.");

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

const ModelEntry = z.object({
  model: z.string(),
  file: z.string(),
  decisions: z.array(z.string()),
  inputs: z.array(z.string()),
});

export const ModelList = z.object({ models: z.array(ModelEntry), loadedAt: z.iso.datetime() });

export const ReloadResponse = ModelList.extend({ reloaded: z.literal(true) });
