import type { FeelFunction } from 'feelin';
import { compileBoxed, conformed, feelFunction, type Frame } from './compile-boxed.js';
import type { CompiledModel, CompiledStep, CompiledTable, Plan, PlanInput } from './compiled-model.js';
import { compileTable } from './compile-table.js';
import { compileService, decisionFunction, type ServiceContext } from './compile-service.js';
import { dependencyOrder, requiredClosure } from './dependency-order.js';
import { evaluateTable } from './evaluate-table.js';
import { importedDecision, importedKnowledge, importStep, resolveImports, withImportedTypes } from './imports.js';
import { typeResolver, unknownTypeRef, type TypeResolver } from './item-definition.js';
import type { ParsedDecision, ParsedDecisionService, ParsedExpression, ParsedKnowledgeModel, ParsedModel } from './parsed-model.js';
import { CellFailure, failure, problem, success, type Outcome, type Where } from './problem.js';
import { anyType, type Conform } from './type-ref.js';

export interface InputDeclaration {
  readonly name: string;
  readonly conform: Conform;
}

// A FEEL name without spaces: the input expression of a table that reads an input directly.
const PLAIN_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

function fail<T>(message: string, where: Where = {}): Outcome<T> {
  return failure(problem('DMN_COMPILE_ERROR', message, where));
}

function planInput(input: InputDeclaration, slot: number, readBy: string | null): PlanInput {
  return { ...input, slot, readBy, inherited: input.name in Object.prototype };
}

function planFor(
  steps: readonly CompiledStep[],
  reads: ReadonlyMap<string, readonly InputDeclaration[]>,
  slot: (name: string) => number,
  returned: readonly CompiledStep[],
): Plan {
  const inputs: PlanInput[] = [];
  for (const step of steps) {
    for (const input of reads.get(step.decision) ?? []) {
      if (!inputs.some((i) => i.name === input.name)) inputs.push(planInput(input, slot(input.name), step.decision));
    }
  }
  return { inputs, steps, returned, results: Object.fromEntries(returned.map((step) => [step.decision, null])) };
}

/** How an error names a decision's logic (DMN 1.3 chapter 10 names of the boxed expressions). */
function logicLabel(logic: ParsedExpression): string {
  switch (logic.kind) {
    case 'literal':
      return 'literal expression';
    case 'invocation':
      return `invocation of '${logic.callee}'`;
    case 'function':
      return 'function definition';
    case 'iterator':
      return `${logic.iterator} iterator`;
    case 'unsupported':
      return 'decision logic';
    default:
      return logic.kind;
  }
}

function tableStep(table: CompiledTable): CompiledStep {
  return { decision: table.decision, slot: table.slot, json: table.json, run: (slots) => evaluateTable(table, slots) };
}

function boxedStep(decision: string, slot: number, visible: readonly (readonly [string, number])[], evaluator: (frame: Frame) => unknown): CompiledStep {
  return {
    decision,
    slot,
    json: false,
    run: (slots) => {
      const frame: Frame = {};
      for (const [name, at] of visible) frame[name] = slots[at];
      const value = evaluator(frame);
      return value instanceof CellFailure ? failure(problem('DMN_EVALUATION_ERROR', value.message, { decision, cell: value.cell })) : success(value);
    },
  };
}

// DMN 1.3 section 6.3.2: the decision's variable typeRef is what its result must conform to.
function typedStep(step: CompiledStep, check: Conform): CompiledStep {
  const cell = `result of decision '${step.decision}'`;
  return {
    ...step,
    json: false,
    run: (slots) => {
      const outcome = step.run(slots);
      if (!outcome.ok) return outcome;
      const value = conformed(check, outcome.value, cell);
      return value instanceof CellFailure ? failure(problem('DMN_EVALUATION_ERROR', value.message, { decision: step.decision, cell })) : success(value);
    },
  };
}

/** DMN 1.3 section 10.3.2.4: a business knowledge model is a function of its parameters. */
function compileKnowledgeModel(bkm: ParsedKnowledgeModel & { name: string }, knows: readonly string[], library: Readonly<Record<string, unknown>>, types: TypeResolver): FeelFunction | CellFailure {
  const where = `business knowledge model '${bkm.name}'`;
  const logic = bkm.logic;
  if (logic === null || logic.kind !== 'function') return new CellFailure('needs encapsulated logic (a function definition)', where);
  if (logic.functionKind !== 'FEEL') return new CellFailure(`function definitions of kind ${logic.functionKind} are not supported (FEEL only)`, where);
  if (logic.body === null) return new CellFailure('the function definition has no body', where);
  const parameters: { name: string; check: Conform }[] = [];
  for (const parameter of logic.parameters) {
    const check = types(parameter.typeRef);
    if (check === undefined) return new CellFailure(`parameter '${parameter.name}': ${unknownTypeRef(parameter.typeRef)}`, where);
    parameters.push({ name: parameter.name, check });
  }
  const body = compileBoxed({ ...logic.body, typeRef: logic.body.typeRef ?? logic.typeRef } as ParsedExpression, [...parameters.map((p) => p.name), ...knows], where, types);
  if (body instanceof CellFailure) return body;
  let base: Frame | null = null;
  return feelFunction(parameters, where, body, () => (base ??= Object.fromEntries(knows.map((name) => [name, library[name]]))));
}

/**
 * Checks a parsed model and compiles every decision once, when the model loads (spec 4.5):
 * decision tables into closures, other boxed expressions with their FEEL syntax checked, item
 * definitions into type checks, business knowledge models and decision services into FEEL
 * functions. The result holds, for the whole model and for each decision, the inputs to check
 * and the steps to run in dependency order.
 */
export function compileModel(parsed: ParsedModel, imported: ReadonlyMap<string, CompiledModel> = new Map()): Outcome<CompiledModel> {
  const name = parsed.name ?? parsed.id;
  if (!name) return fail('the definitions element needs a name');
  const localTypes = typeResolver(parsed.itemDefinitions);
  if (typeof localTypes === 'string') return fail(localTypes);
  const imports = resolveImports(parsed.imports, imported);
  if (typeof imports === 'string') return fail(imports);
  const types = withImportedTypes(localTypes, imports);

  const inputsById = new Map<string, InputDeclaration>();
  const inputsByName = new Map<string, InputDeclaration>();
  for (const input of parsed.inputs) {
    if (!input.name) return fail(`input data '${input.id ?? '?'}' needs a name`);
    if (inputsByName.has(input.name)) return fail(`two input data are named '${input.name}'`);
    const conform = types(input.typeRef);
    if (conform === undefined) return fail(`input data '${input.name}': ${unknownTypeRef(input.typeRef)}`);
    const declaration = { name: input.name, conform };
    inputsByName.set(input.name, declaration);
    if (input.id) inputsById.set(input.id, declaration);
  }

  const taken = (candidate: string) => inputsByName.has(candidate) || decisions.has(candidate) || knowledgeNames.has(candidate);
  const decisionNames = new Map<string, string>();
  const decisions = new Map<string, ParsedDecision & { logic: ParsedExpression }>();
  const knowledgeNames = new Map<string, string>();
  for (const decision of parsed.decisions) {
    if (!decision.name) return fail(`decision '${decision.id ?? '?'}' needs a name`);
    if (taken(decision.name)) return fail(`the name '${decision.name}' is used twice`);
    const { logic } = decision;
    if (logic === null) return fail('the decision has no decision logic', { decision: decision.name });
    decisions.set(decision.name, { ...decision, logic });
    if (decision.id) decisionNames.set(decision.id, decision.name);
  }
  if (decisions.size === 0) return fail('the model has no decision');
  const knowledgeModels: (ParsedKnowledgeModel & { name: string })[] = [];
  const services: (ParsedDecisionService & { name: string })[] = [];
  for (const element of [...parsed.knowledgeModels, ...parsed.decisionServices]) {
    if (!element.name) return fail(`business knowledge model or decision service '${element.id ?? '?'}' needs a name`);
    if (taken(element.name)) return fail(`the name '${element.name}' is used twice`);
    knowledgeNames.set(element.id ?? element.name, element.name);
    if ('logic' in element) knowledgeModels.push({ ...element, name: element.name });
    else services.push({ ...element, name: element.name });
  }
  const fromImports = importedKnowledge(imports);
  for (const prefix of Object.keys(fromImports.values)) if (taken(prefix)) return fail(`the import name '${prefix}' is also the name of an element of the model`);
  for (const [id, prefix] of fromImports.ids) knowledgeNames.set(id, prefix);
  const knowledgeOf = (ids: readonly string[], who: string): string[] | string => {
    const names: string[] = [];
    for (const id of ids) {
      const known = knowledgeNames.get(id);
      if (known === undefined) return `${who} requires knowledge '#${id}' that the model does not have`;
      if (!names.includes(known)) names.push(known);
    }
    return names;
  };

  const requires = new Map<string, string[]>();
  const reads = new Map<string, InputDeclaration[]>();
  const knows = new Map<string, string[]>();
  // Imported decisions a decision requires, by import prefix (DMN 1.3 section 6.3.3, imports.ts).
  const importNeeds = new Map<string, Map<string, FeelFunction>>();
  for (const [decisionName, decision] of decisions) {
    const required: string[] = [];
    for (const id of decision.requiredDecisions) {
      const requiredName = decisionNames.get(id);
      const imported = requiredName === undefined ? importedDecision(imports, id) : undefined;
      if (imported !== undefined) {
        if (!required.includes(imported.prefix)) required.push(imported.prefix);
        importNeeds.set(imported.prefix, (importNeeds.get(imported.prefix) ?? new Map()).set(imported.name, imported.fn));
        continue;
      }
      if (requiredName === undefined) return fail(`requires a decision '${id.includes('#') ? id : `#${id}`}' that the model${id.includes('#') ? ' and its imports do' : ' does'} not have`, { decision: decisionName });
      required.push(requiredName);
    }
    const inputs: InputDeclaration[] = [];
    for (const id of decision.requiredInputs) {
      const input = inputsById.get(id);
      if (input === undefined) return fail(`requires input data '#${id}' that the model does not have`, { decision: decisionName });
      inputs.push(input);
    }
    const known = knowledgeOf(decision.requiredKnowledge, 'the decision');
    if (typeof known === 'string') return fail(known, { decision: decisionName });
    requires.set(decisionName, required);
    reads.set(decisionName, inputs);
    knows.set(decisionName, known);
  }

  for (const prefix of importNeeds.keys()) {
    requires.set(prefix, []);
    reads.set(prefix, [{ name: prefix, conform: anyType }]);
  }
  const sorted = dependencyOrder(requires);
  if ('cycle' in sorted) return fail(`decisions require each other in a cycle: ${sorted.cycle.join(' -> ')}`);

  // A table may read an input by its bare name without drawing the requirement (as DMN
  // editors allow); that input is declared all the same, with the clause's typeRef, and must
  // be supplied (spec 4.7 rule 9).
  for (const [decisionName, decision] of decisions) {
    if (decision.table === null) continue;
    const inputs = reads.get(decisionName) ?? [];
    const required = requires.get(decisionName) ?? [];
    for (const clause of decision.table.inputs) {
      const read = clause.expression.trim();
      if (!PLAIN_NAME.test(read) || required.includes(read) || inputs.some((i) => i.name === read)) continue;
      if (decisions.has(read)) return fail(`reads decision '${read}' without an information requirement`, { decision: decisionName });
      if (knowledgeNames.has(read)) continue;
      inputs.push(inputsByName.get(read) ?? { name: read, conform: types(clause.typeRef) ?? anyType });
    }
  }

  const inputNames = new Set([...inputsByName.keys(), ...[...reads.values()].flat().map((i) => i.name)]);
  // An import prefix names the imported knowledge and decisions; the input data given under it
  // has a slot of its own, read by the step that evaluates the imported decisions.
  const importInput = (prefix: string) => `${prefix} (imported input data)`;
  const slotNames = [...new Set([...inputNames, ...sorted.order, ...knowledgeNames.values(), ...[...importNeeds.keys()].map(importInput)])];
  const slotOf = new Map(slotNames.map((slotName, slot) => [slotName, slot]));
  const slot = (slotName: string) => slotOf.get(slotName) as number;

  // Knowledge is compiled before the decisions that call it and filled in once all of it exists,
  // so models may list it in any order and a BKM may call another.
  const library: Record<string, unknown> = { ...fromImports.values };
  for (const bkm of knowledgeModels) {
    const known = knowledgeOf(bkm.requiredKnowledge, `business knowledge model '${bkm.name}'`);
    if (typeof known === 'string') return fail(known);
    const fn = compileKnowledgeModel(bkm, known, library, types);
    if (fn instanceof CellFailure) return fail(fn.message, { cell: fn.cell });
    library[bkm.name] = fn;
  }

  const stepsByName = new Map<string, CompiledStep>();
  for (const [decisionName, decision] of decisions) {
    const visible = [...(reads.get(decisionName) ?? []).map((i) => i.name), ...(requires.get(decisionName) ?? []), ...(knows.get(decisionName) ?? [])];
    let step: CompiledStep;
    if (decision.table !== null) {
      const table = compileTable(decisionName, slot(decisionName), decision.table, new Map(visible.map((v) => [v, slot(v)])), types);
      if (!table.ok) return table;
      step = tableStep(table.value);
    } else {
      const evaluator = compileBoxed(decision.logic, visible, logicLabel(decision.logic), types);
      if (evaluator instanceof CellFailure) return fail(evaluator.message, { decision: decisionName, cell: evaluator.cell });
      step = boxedStep(decisionName, slot(decisionName), visible.map((v) => [v, slot(v)] as const), evaluator);
    }
    const check = types(decision.typeRef);
    if (check === undefined) return fail(unknownTypeRef(decision.typeRef), { decision: decisionName, cell: 'variable' });
    stepsByName.set(decisionName, decision.typeRef === null ? step : typedStep(step, check));
  }
  for (const [prefix, needed] of importNeeds) stepsByName.set(prefix, importStep(prefix, slot(prefix), slot(importInput(prefix)), needed, library[prefix]));
  const steps = sorted.order.map((decisionName) => stepsByName.get(decisionName) as CompiledStep);
  const ownSteps = steps.filter((step) => !importNeeds.has(step.decision));

  const constants: (readonly [number, unknown])[] = [];
  for (const service of services) {
    const fn = compileService(service, { decisionNames, inputsById, requires, steps, slot, slotCount: slotNames.length, constants });
    if (typeof fn === 'string') return fail(fn);
    library[service.name] = fn;
  }
  for (const knowledge of new Set(knowledgeNames.values())) constants.push([slot(knowledge), library[knowledge]]);

  const inputSlot = (inputName: string) => slot(importNeeds.has(inputName) ? importInput(inputName) : inputName);
  const plan = (planSteps: readonly CompiledStep[], returned: readonly CompiledStep[]) => planFor(planSteps, reads, inputSlot, returned);
  const all = plan(steps, ownSteps);
  // Spec 2.8: every input the model declares must be supplied, even one no decision reads yet.
  const unread = [...inputsByName.values()].filter((input) => !all.inputs.some((i) => i.name === input.name));
  const wholeModel: Plan = { ...all, inputs: [...all.inputs, ...unread.map((input) => planInput(input, slot(input.name), null))] };
  const byDecision = new Map(
    ownSteps.map((step) => {
      const closure = requiredClosure(step.decision, requires);
      return [step.decision, plan(steps.filter((s) => closure.has(s.decision)), [step])] as const;
    }),
  );
  // A decision service asked for by name evaluates its output decisions (DMN 1.3 section 10.4),
  // from the inputs they need.
  for (const service of services) {
    const outputs = service.outputDecisions.map((id) => decisionNames.get(id) as string);
    const closure = new Set<string>();
    for (const output of outputs) requiredClosure(output, requires, closure);
    byDecision.set(service.name, plan(steps.filter((s) => closure.has(s.decision)), steps.filter((s) => outputs.includes(s.decision))));
  }

  const ownKnowledge = new Map([...parsed.knowledgeModels, ...parsed.decisionServices].filter((k) => k.id && k.name).map((k) => [k.id as string, k.name as string]));
  const serviceContext: ServiceContext = { decisionNames, inputsById, requires, steps, slot, slotCount: slotNames.length, constants };
  const exported = {
    namespace: parsed.namespace,
    types: (typeRef: string) => localTypes(typeRef),
    knowledge: Object.fromEntries([...ownKnowledge.values()].map((k) => [k, library[k]])),
    knowledgeIds: ownKnowledge,
    decision: (id: string) => decisionFunction(id, reads, serviceContext),
  };
  return success({ name, decisions: ownSteps.map((step) => step.decision), inputs: wholeModel.inputs.map((i) => i.name), slotCount: slotNames.length, constants, all: wholeModel, byDecision, exported });
}
