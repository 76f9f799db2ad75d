/**
 * The DMN 1.3 decision engine: parse (dmn-moddle) -> compile (tables to closures, FEEL via
 * feelin) -> evaluate. Pure JavaScript with no Node API, so the same bundle runs in the
 * decision service and inside Keycloak's GraalJS (DESIGN "Layout").
 */
import { compileModel } from './compile-model.js';
import type { CompiledModel } from './compiled-model.js';
import { parseModel } from './parse.js';
import type { ParsedModel } from './parsed-model.js';
import { failure, problem, type Outcome } from './problem.js';

export { parseModel } from './parse.js';
export { compileModel } from './compile-model.js';
export { evaluate, type EvaluationResult } from './evaluate-model.js';
export { DEFAULT_BOUND, type EvaluationBound } from './deadline.js';
export { describeProblem, type DmnProblem, type DmnProblemCode, type Outcome } from './problem.js';
export type { DmnValue } from './plain-value.js';
export type { CompiledModel } from './compiled-model.js';
export type { ParsedModel } from './parsed-model.js';

/**
 * Parse and compile in one step: what a host does when a model file loads. `imported` holds
 * the compiled models it may import, by namespace (DMN 1.3 section 6.3.3).
 */
export async function loadModel(xml: string, imported: ReadonlyMap<string, CompiledModel> = new Map()): Promise<Outcome<CompiledModel>> {
  const parsed = await parseModel(xml);
  return parsed.ok ? compileModel(parsed.value, imported) : parsed;
}

/**
 * Compiles the parsed models of one folder, each after the models it imports; the outcomes are
 * in the order given. An import cycle fails the models on it.
 */
export function compileModels(parsed: readonly ParsedModel[]): Outcome<CompiledModel>[] {
  const outcomes = new Array<Outcome<CompiledModel> | undefined>(parsed.length);
  const byNamespace = new Map<string, CompiledModel>();
  const indexOf = new Map(parsed.flatMap((model, i) => (model.namespace === null ? [] : [[model.namespace, i] as const])));
  const visiting = new Set<number>();
  const compile = (i: number): Outcome<CompiledModel> => {
    const done = outcomes[i];
    if (done !== undefined) return done;
    const model = parsed[i] as ParsedModel;
    if (visiting.has(i)) return failure(problem('DMN_COMPILE_ERROR', `model '${model.name ?? '?'}' imports itself through a cycle of imports`));
    visiting.add(i);
    for (const entry of model.imports) {
      const at = indexOf.get(entry.namespace);
      if (at !== undefined) compile(at);
    }
    const outcome = compileModel(model, byNamespace);
    if (outcome.ok && model.namespace !== null) byNamespace.set(model.namespace, outcome.value);
    outcomes[i] = outcome;
    return outcome;
  };
  return parsed.map((_, i) => compile(i));
}
