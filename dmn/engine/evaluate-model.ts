import type { CompiledModel } from './compiled-model.js';
import { DEFAULT_BOUND, withinBound, type EvaluationBound } from './deadline.js';
import { toPlain, type DmnValue } from './plain-value.js';
import { CellFailure, problem, Violation, type DmnProblem, type Where } from './problem.js';
import { closeProblems, inDecision, nulled, openProblems } from './problems.js';
import type { Slots } from './slots.js';

export type EvaluationResult =
  | { readonly ok: true; readonly results: Record<string, DmnValue>; readonly problems?: readonly DmnProblem[] }
  | { readonly ok: false; readonly error: DmnProblem };

function evaluationError(message: string, where: Where): EvaluationResult {
  return { ok: false, error: problem('DMN_EVALUATION_ERROR', message, where) };
}

/**
 * Evaluates the whole model, or one decision and the decisions it requires, in dependency
 * order. Every declared input the evaluation reads must be present (null is a value; absent is
 * not): spec 4.7 rule 9, a missing input is an evaluation error, never a denial. Returns the
 * result of each decision asked for, as JSON data; results made of literals are shared, frozen
 * objects, so copy one before changing it. Values an item definition rejected are null in the
 * results and listed in `problems` (DMN 1.3 section 7.3.2). The evaluation runs under `bound`
 * (deadline.ts): past it, it is a `DMN_EVALUATION_ERROR`, never a hang.
 */
export function evaluate(
  model: CompiledModel,
  inputs: Readonly<Record<string, unknown>>,
  decision?: string,
  bound: EvaluationBound = DEFAULT_BOUND,
): EvaluationResult {
  return withinBound(bound, () => evaluateWithin(model, inputs, decision));
}

function evaluateWithin(model: CompiledModel, inputs: Readonly<Record<string, unknown>>, decision: string | undefined): EvaluationResult {
  const plan = decision === undefined ? model.all : model.byDecision.get(decision);
  if (plan === undefined) return { ok: false, error: problem('DMN_UNKNOWN_DECISION', `model '${model.name}' has no decision '${decision}'`) };

  openProblems();
  const slots: Slots = new Array<unknown>(model.slotCount);
  for (const [slot, value] of model.constants) slots[slot] = value;
  for (const input of plan.inputs) {
    const raw = !input.inherited || Object.hasOwn(inputs, input.name) ? inputs[input.name] : undefined;
    const value = raw === undefined ? new CellFailure('the input is missing') : input.conform(raw);
    if (value instanceof CellFailure) return evaluationError(value.message, { decision: input.readBy, cell: `input data '${input.name}'` });
    if (value instanceof Violation) {
      inDecision(input.readBy);
      slots[input.slot] = nulled(value.message, `input data '${input.name}'`);
    } else slots[input.slot] = value;
  }

  for (const step of plan.steps) {
    inDecision(step.decision);
    const outcome = step.run(slots);
    if (!outcome.ok) return outcome;
    slots[step.slot] = outcome.value;
  }

  const results: Record<string, DmnValue> = { ...plan.results };
  for (const step of plan.returned) results[step.decision] = step.json ? (slots[step.slot] as DmnValue) : toPlain(slots[step.slot]);
  const problems = closeProblems();
  return problems === null ? { ok: true, results } : { ok: true, results, problems };
}
