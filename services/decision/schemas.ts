import { z } from 'zod';

// Spec 2.8 and 4.5: decision service bodies.
export const ModelName = z.string().min(1).describe("The model's name (the DMN definitions' name), as listed by GET /api/v1/decisions.");

export { EvaluateRequest, EvaluateResponse } from '../../contract/decision.js';

const ModelEntry = z.object({
  model: z.string(),
  file: z.string(),
  decisions: z.array(z.string()),
  inputs: z.array(z.string()),
});

export const ModelList = z.object({ models: z.array(ModelEntry), loadedAt: z.iso.datetime() });

export const ReloadResponse = ModelList.extend({ reloaded: z.literal(true) });
