import type { CompiledModel } from './compiled-model.js';
import { compileKnowledge, compileSteps } from './compile-decisions.js';
import { compileService, type ServiceContext } from './compile-service.js';
import { declareElements, declareTypes } from './model-declarations.js';
import { exportModel, planModel, slotLayout } from './model-plan.js';
import { collectRequirements } from './model-requirements.js';
import type { ParsedModel } from './parsed-model.js';
import { failure, problem, success, type Outcome, type Where } from './problem.js';

function fail<T>(message: string, where: Where = {}): Outcome<T> {
  return failure(problem('DMN_COMPILE_ERROR', message, where));
}

/**
 * Checks a parsed model and compiles every decision once, when the model loads (spec 4.5), in
 * named phases, each in its own module: types (item definitions, imports) and inputs and names
 * (model-declarations.ts), requirements and order (model-requirements.ts), slots
 * (model-plan.ts), knowledge and decisions (compile-decisions.ts), decision services
 * (compile-service.ts), plans (model-plan.ts). The result holds, for the whole model and for
 * each decision, the inputs to check and the steps to run in dependency order.
 */
export function compileModel(parsed: ParsedModel, imported: ReadonlyMap<string, CompiledModel> = new Map()): Outcome<CompiledModel> {
  const name = parsed.name ?? parsed.id;
  if (!name) return fail('the definitions element needs a name');
  const types = declareTypes(parsed, imported);
  if (typeof types === 'string') return fail(types);
  const declared = declareElements(parsed, types);
  if ('message' in declared) return fail(declared.message, declared.decision === undefined ? {} : { decision: declared.decision });
  const needs = collectRequirements(declared, types.imports, types.types);
  if ('message' in needs) return fail(needs.message, needs.decision === undefined ? {} : { decision: needs.decision });
  const layout = slotLayout(declared, needs);

  const library = compileKnowledge(declared, types.types);
  if (!library.ok) return library;
  const steps = compileSteps(declared, needs, layout, library.value, types.types);
  if (!steps.ok) return steps;

  const constants: (readonly [number, unknown])[] = [];
  const serviceContext: ServiceContext = {
    decisionNames: declared.decisionNames,
    inputsById: declared.inputsById,
    requires: needs.requires,
    steps: steps.value,
    slot: layout.slot,
    slotCount: layout.count,
    constants,
  };
  for (const service of declared.services) {
    const fn = compileService(service, serviceContext);
    if (typeof fn === 'string') return fail(fn);
    library.value[service.name] = fn;
  }
  for (const knowledge of new Set(declared.knowledgeNames.values())) constants.push([layout.slot(knowledge), library.value[knowledge]]);

  const { all, byDecision, ownSteps } = planModel(declared, needs, layout, steps.value);
  const exported = exportModel(parsed, types.local, library.value, needs, serviceContext);
  return success({
    name,
    decisions: ownSteps.map((step) => step.decision),
    inputs: all.inputs.map((i) => i.name),
    slotCount: layout.count,
    constants,
    all,
    byDecision,
    exported,
  });
}
