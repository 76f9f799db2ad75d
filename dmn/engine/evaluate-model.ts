import type { CompiledModel } from './compiled-model.js';
import { evaluateTable } from './evaluate-table.js';
import { toPlain, type DmnValue } from './plain-value.js';
import { CellFailure, problem, type DmnProblem, type Where } from './problem.js';
import type { Slots } from './slots.js';

export type EvaluationResult =
  | { readonly ok: true; readonly results: Record<string, DmnValue> }
  | { readonly ok: false; readonly error: DmnProblem };

function evaluationError(message: string, where: Where): EvaluationResult {
  return { ok: false, error: problem('DMN_EVALUATION_ERROR', message, where) };
}

/**
 * Evaluates the whole model, or one decision and the decisions it requires, in dependency
 * order. Every declared input the evaluation reads must be present (null is a value; absent is
 * not): spec 4.7 rule 9, a missing input is an evaluation error, never a denial. Returns the
 * result of each decision asked for, as JSON data; results made of literals are shared, frozen
 * objects, so copy one before changing it.
 */
export function evaluate(model: CompiledModel, inputs: Readonly<Record<string, unknown>>, decision?: string): EvaluationResult {
  const plan = decision === undefined ? model.all : model.byDecision.get(decision);
  if (plan === undefined) return { ok: false, error: problem('DMN_UNKNOWN_DECISION', `model '${model.name}' has no decision '${decision}'`) };

  const slots: Slots = new Array<unknown>(model.slotCount);
  for (const input of plan.inputs) {
    const raw = !input.inherited || Object.hasOwn(inputs, input.name) ? inputs[input.name] : undefined;
    const value = raw === undefined ? new CellFailure('the input is missing') : input.conform(raw);
    if (value instanceof CellFailure) return evaluationError(value.message, { decision: input.readBy, cell: `input data '${input.name}'` });
    slots[input.slot] = value;
  }

  for (const table of plan.steps) {
    const outcome = evaluateTable(table, slots);
    if (!outcome.ok) return outcome;
    slots[table.slot] = outcome.value;
  }

  const results: Record<string, DmnValue> = { ...plan.results };
  for (const table of plan.returned) results[table.decision] = table.json ? (slots[table.slot] as DmnValue) : toPlain(slots[table.slot]);
  return { ok: true, results };
}
