import type { FeelFunction } from 'feelin';
import { compileBoxed, conformed, feelFunction, type Frame } from './compile-boxed.js';
import type { CompiledStep, CompiledTable } from './compiled-model.js';
import { compileTable } from './compile-table.js';
import { evaluateTable } from './evaluate-table.js';
import { importStep } from './imports.js';
import { unknownTypeRef, type TypeResolver } from './item-definition.js';
import { knowledgeOf, type Declarations, type NamedKnowledgeModel } from './model-declarations.js';
import type { SlotLayout } from './model-plan.js';
import type { Requirements } from './model-requirements.js';
import type { ParsedExpression } from './parsed-model.js';
import { CellFailure, failure, problem, success, type Outcome, type Where } from './problem.js';
import type { Conform } from './type-ref.js';

/**
 * Compile phase 4 (compile-model.ts): the business knowledge models into FEEL functions, then
 * each decision into a step: a decision table into closures, any other boxed expression with its
 * FEEL checked, both held to the decision's typeRef.
 */

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
function compileKnowledgeModel(
  bkm: NamedKnowledgeModel,
  knows: readonly string[],
  library: Readonly<Record<string, unknown>>,
  types: TypeResolver,
): FeelFunction | CellFailure {
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
  const body = compileBoxed(
    { ...logic.body, typeRef: logic.body.typeRef ?? logic.typeRef } as ParsedExpression,
    [...parameters.map((p) => p.name), ...knows],
    where,
    types,
  );
  if (body instanceof CellFailure) return body;
  let base: Frame | null = null;
  return feelFunction(parameters, where, body, () => (base ??= Object.fromEntries(knows.map((name) => [name, library[name]]))));
}

const compileFailure = <T>(message: string, where: Where = {}): Outcome<T> => failure(problem('DMN_COMPILE_ERROR', message, where));

/**
 * The knowledge library: imported knowledge, then every business knowledge model. Knowledge is
 * compiled before the decisions that call it and read from the library only when called, so
 * models may list it in any order and a BKM may call another.
 */
export function compileKnowledge(declared: Declarations, types: TypeResolver): Outcome<Record<string, unknown>> {
  const library: Record<string, unknown> = { ...declared.importedValues };
  for (const bkm of declared.knowledgeModels) {
    const known = knowledgeOf(declared, bkm.requiredKnowledge, `business knowledge model '${bkm.name}'`);
    if (typeof known === 'string') return compileFailure(known);
    const fn = compileKnowledgeModel(bkm, known, library, types);
    if (fn instanceof CellFailure) return compileFailure(fn.message, { cell: fn.cell });
    library[bkm.name] = fn;
  }
  return success(library);
}

/** Every decision's step (and one per import prefix), in dependency order. */
export function compileSteps(
  declared: Declarations,
  needs: Requirements,
  layout: SlotLayout,
  library: Readonly<Record<string, unknown>>,
  types: TypeResolver,
): Outcome<CompiledStep[]> {
  const { slot } = layout;
  const stepsByName = new Map<string, CompiledStep>();
  for (const [decisionName, decision] of declared.decisions) {
    const visible = [
      ...(needs.reads.get(decisionName) ?? []).map((i) => i.name),
      ...(needs.requires.get(decisionName) ?? []),
      ...(needs.knows.get(decisionName) ?? []),
    ];
    let step: CompiledStep;
    if (decision.table !== null) {
      const table = compileTable(decisionName, slot(decisionName), decision.table, new Map(visible.map((v) => [v, slot(v)])), types);
      if (!table.ok) return table;
      step = tableStep(table.value);
    } else {
      const evaluator = compileBoxed(decision.logic, visible, logicLabel(decision.logic), types);
      if (evaluator instanceof CellFailure) return compileFailure(evaluator.message, { decision: decisionName, cell: evaluator.cell });
      step = boxedStep(
        decisionName,
        slot(decisionName),
        visible.map((v) => [v, slot(v)] as const),
        evaluator,
      );
    }
    const check = types(decision.typeRef);
    if (check === undefined) return compileFailure(unknownTypeRef(decision.typeRef), { decision: decisionName, cell: 'variable' });
    stepsByName.set(decisionName, decision.typeRef === null ? step : typedStep(step, check));
  }
  for (const [prefix, needed] of needs.importNeeds)
    stepsByName.set(prefix, importStep(prefix, slot(prefix), layout.importInputSlot(prefix), needed, library[prefix]));
  return success(needs.order.map((name) => stepsByName.get(name) as CompiledStep));
}
