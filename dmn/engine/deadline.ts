import { CellFailure, InvocationAbort } from './problem.js';

/**
 * A bound on one evaluation, so that no model can hang the decision service or Keycloak: FEEL's
 * loops (`for`, `some`, `every`) and recursive functions can run for as long as a modeller
 * writes them. A running evaluation ticks at every loop step, arithmetic operation and function
 * call; a tick past the deadline, or past the budget of iteration items (which bounds the
 * memory a loop's lists take before its first step runs), aborts the evaluation, which
 * answers `DMN_EVALUATION_ERROR` (spec 4.5: an error, never a denial).
 * Pure JS without Node APIs: the same bound holds inside Keycloak's GraalJS.
 */
export interface EvaluationBound {
  /** Wall-clock time one evaluation may take. */
  readonly timeLimitMs: number;
  /** Items all of one evaluation's iteration sources (lists and ranges) may hold together. */
  readonly iterationItems: number;
}

export const DEFAULT_BOUND: EvaluationBound = { timeLimitMs: 1000, iterationItems: 1_000_000 };

/** How many ticks pass between two reads of the clock (a read costs more than a tick). */
const TICKS_PER_CLOCK_READ = 64;

let current: { bound: EvaluationBound; endsAt: number; items: number; ticks: number } | null = null;

/** Runs `work` under the bound; an evaluation already running keeps its own (nested calls). */
export function withinBound<T>(bound: EvaluationBound, work: () => T): T {
  if (current !== null) return work();
  current = { bound, endsAt: Date.now() + bound.timeLimitMs, items: 0, ticks: 0 };
  try {
    return work();
  } finally {
    current = null;
  }
}

const abort = (message: string): never => {
  throw new InvocationAbort(new CellFailure(message));
};

/** One step of work; aborts the evaluation once its time is up. */
export function tick(): void {
  if (current === null) return;
  current.ticks += 1;
  if (current.ticks % TICKS_PER_CLOCK_READ === 0 && Date.now() > current.endsAt) {
    abort(`the evaluation took longer than its limit of ${current.bound.timeLimitMs} ms`);
  }
}

/** Counts the items of an iteration source against the evaluation's budget, then ticks. */
export function countItems(count: number): void {
  if (current === null) return;
  current.items += count;
  if (current.items > current.bound.iterationItems) abort(`the evaluation iterates over more than ${current.bound.iterationItems} items`);
  tick();
}
