import type { DmnProblem } from './problem.js';
import { problem } from './problem.js';

/**
 * The problems of the evaluation running now (values nulled by an item-definition check).
 * Evaluation is synchronous and never re-entered, so one collector per engine instance is
 * enough; `evaluate` opens it, names the decision it is in, and closes it.
 */
let collected: DmnProblem[] | null = null;
let currentDecision: string | null = null;

export function openProblems(): void {
  collected = null;
  currentDecision = null;
}

export function inDecision(decision: string | null): void {
  currentDecision = decision;
}

/** Records that a value was replaced by null, naming where; returns null for the caller to use. */
export function nulled(message: string, cell: string | null): null {
  collected ??= [];
  collected.push(problem('DMN_EVALUATION_ERROR', message, { decision: currentDecision, cell }));
  return null;
}

export function closeProblems(): DmnProblem[] | null {
  const out = collected;
  collected = null;
  return out;
}
