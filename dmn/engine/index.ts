/**
 * The DMN 1.3 decision engine: parse (dmn-moddle) -> compile (tables to closures, FEEL via
 * feelin) -> evaluate. Pure JavaScript with no Node API, so the same bundle runs in the
 * decision service and inside Keycloak's GraalJS (DESIGN "Layout").
 */
import { compileModel } from './compile-model.js';
import type { CompiledModel } from './compiled-model.js';
import { parseModel } from './parse.js';
import type { Outcome } from './problem.js';

export { parseModel } from './parse.js';
export { compileModel } from './compile-model.js';
export { evaluate, type EvaluationResult } from './evaluate-model.js';
export { describeProblem, type DmnProblem, type DmnProblemCode, type Outcome } from './problem.js';
export type { DmnValue } from './plain-value.js';
export type { CompiledModel } from './compiled-model.js';
export type { ParsedModel } from './parsed-model.js';

/** Parse and compile in one step: what a host does when a model file loads. */
export async function loadModel(xml: string): Promise<Outcome<CompiledModel>> {
  const parsed = await parseModel(xml);
  return parsed.ok ? compileModel(parsed.value) : parsed;
}
