import type { CompiledModel, CompiledTable, Plan, PlanInput } from './compiled-model.js';
import { compileTable } from './compile-table.js';
import { dependencyOrder } from './dependency-order.js';
import type { ParsedDecision, ParsedModel, ParsedTable } from './parsed-model.js';
import { failure, problem, success, type Outcome, type Where } from './problem.js';
import { anyType, conformerFor, KNOWN_TYPE_REFS, type Conform } from './type-ref.js';

interface InputDeclaration {
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
  steps: readonly CompiledTable[],
  reads: ReadonlyMap<string, readonly InputDeclaration[]>,
  slot: (name: string) => number,
  returned: readonly CompiledTable[],
): Plan {
  const inputs: PlanInput[] = [];
  for (const step of steps) {
    for (const input of reads.get(step.decision) ?? []) {
      if (!inputs.some((i) => i.name === input.name)) inputs.push(planInput(input, slot(input.name), step.decision));
    }
  }
  return { inputs, steps, returned, results: Object.fromEntries(returned.map((table) => [table.decision, null])) };
}

function requiredClosure(name: string, requires: ReadonlyMap<string, readonly string[]>, into = new Set<string>()): Set<string> {
  if (into.has(name)) return into;
  into.add(name);
  for (const required of requires.get(name) ?? []) requiredClosure(required, requires, into);
  return into;
}

/**
 * Checks a parsed model and compiles every decision table once (spec 4.5: "compile every
 * decision table once, when a model loads"). The result holds, for the whole model and for each
 * decision, the inputs to check and the tables to run in dependency order.
 */
export function compileModel(parsed: ParsedModel): Outcome<CompiledModel> {
  const name = parsed.name ?? parsed.id;
  if (!name) return fail('the definitions element needs a name');

  const inputsById = new Map<string, InputDeclaration>();
  const inputsByName = new Map<string, InputDeclaration>();
  for (const input of parsed.inputs) {
    if (!input.name) return fail(`input data '${input.id ?? '?'}' needs a name`);
    if (inputsByName.has(input.name)) return fail(`two input data are named '${input.name}'`);
    const conform = conformerFor(input.typeRef);
    if (conform === undefined) return fail(`input data '${input.name}': unknown typeRef '${input.typeRef}' (known: ${KNOWN_TYPE_REFS.join(', ')})`);
    const declaration = { name: input.name, conform };
    inputsByName.set(input.name, declaration);
    if (input.id) inputsById.set(input.id, declaration);
  }

  const decisionNames = new Map<string, string>();
  const decisions = new Map<string, ParsedDecision & { table: ParsedTable }>();
  for (const decision of parsed.decisions) {
    if (!decision.name) return fail(`decision '${decision.id ?? '?'}' needs a name`);
    if (decisions.has(decision.name) || inputsByName.has(decision.name)) return fail(`the name '${decision.name}' is used twice`);
    const { table } = decision;
    if (table === null) return fail(`only decision tables are supported, not ${decision.logicType ?? 'an empty decision'}`, { decision: decision.name });
    decisions.set(decision.name, { ...decision, table });
    if (decision.id) decisionNames.set(decision.id, decision.name);
  }
  if (decisions.size === 0) return fail('the model has no decision');

  const requires = new Map<string, string[]>();
  const reads = new Map<string, InputDeclaration[]>();
  for (const [decisionName, decision] of decisions) {
    const required: string[] = [];
    for (const id of decision.requiredDecisions) {
      const requiredName = decisionNames.get(id);
      if (requiredName === undefined) return fail(`requires a decision '#${id}' that the model does not have`, { decision: decisionName });
      required.push(requiredName);
    }
    const inputs: InputDeclaration[] = [];
    for (const id of decision.requiredInputs) {
      const input = inputsById.get(id);
      if (input === undefined) return fail(`requires input data '#${id}' that the model does not have`, { decision: decisionName });
      inputs.push(input);
    }
    requires.set(decisionName, required);
    reads.set(decisionName, inputs);
  }

  const sorted = dependencyOrder(requires);
  if ('cycle' in sorted) return fail(`decisions require each other in a cycle: ${sorted.cycle.join(' -> ')}`);

  // A table may read an input by its bare name without drawing the requirement (as DMN
  // editors allow); that input is declared all the same, with the clause's typeRef, and must
  // be supplied (spec 4.7 rule 9).
  for (const [decisionName, decision] of decisions) {
    const inputs = reads.get(decisionName) ?? [];
    const required = requires.get(decisionName) ?? [];
    for (const clause of decision.table.inputs) {
      const read = clause.expression.trim();
      if (!PLAIN_NAME.test(read) || required.includes(read) || inputs.some((i) => i.name === read)) continue;
      if (decisions.has(read)) return fail(`reads decision '${read}' without an information requirement`, { decision: decisionName });
      inputs.push(inputsByName.get(read) ?? { name: read, conform: conformerFor(clause.typeRef) ?? anyType });
    }
  }

  const inputNames = new Set([...inputsByName.keys(), ...[...reads.values()].flat().map((i) => i.name)]);
  const slotNames = [...inputNames, ...sorted.order];
  const slotOf = new Map(slotNames.map((slotName, slot) => [slotName, slot]));
  const slot = (slotName: string) => slotOf.get(slotName) as number;

  const tables = new Map<string, CompiledTable>();
  for (const [decisionName, decision] of decisions) {
    const visible = [...(reads.get(decisionName) ?? []).map((i) => i.name), ...(requires.get(decisionName) ?? [])];
    const table = compileTable(decisionName, slot(decisionName), decision.table, new Map(visible.map((v) => [v, slot(v)])));
    if (!table.ok) return table;
    tables.set(decisionName, table.value);
  }

  const steps = sorted.order.map((decisionName) => tables.get(decisionName) as CompiledTable);
  const plan = (planSteps: readonly CompiledTable[], returned: readonly CompiledTable[]) => planFor(planSteps, reads, slot, returned);
  const all = plan(steps, steps);
  // Spec 2.8: every input the model declares must be supplied, even one no decision reads yet.
  const unread = [...inputsByName.values()].filter((input) => !all.inputs.some((i) => i.name === input.name));
  const wholeModel: Plan = { ...all, inputs: [...all.inputs, ...unread.map((input) => planInput(input, slot(input.name), null))] };
  const byDecision = new Map(
    steps.map((step) => {
      const closure = requiredClosure(step.decision, requires);
      return [step.decision, plan(steps.filter((s) => closure.has(s.decision)), [step])] as const;
    }),
  );

  return success({ name, decisions: sorted.order, inputs: wholeModel.inputs.map((i) => i.name), slotCount: slotNames.length, all: wholeModel, byDecision });
}
