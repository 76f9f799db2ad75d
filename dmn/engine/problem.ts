/**
 * Errors are values (STYLE habit, spec 4.5): every failure of parse, compile or evaluation is a
 * `DmnProblem` saying which decision, which rule and which cell, never an exception and never a
 * denial. Messages describe types, never input values (they reach logs and HTTP bodies).
 */
export type DmnProblemCode = 'DMN_PARSE_ERROR' | 'DMN_COMPILE_ERROR' | 'DMN_EVALUATION_ERROR' | 'DMN_UNKNOWN_DECISION';

export interface DmnProblem {
  readonly code: DmnProblemCode;
  readonly decision: string | null;
  /** 1-based rule number within the decision table. */
  readonly rule: number | null;
  /** The clause the failing cell belongs to, e.g. `input 'userType'` or `output 'ttlSeconds'`. */
  readonly cell: string | null;
  readonly message: string;
}

export interface Where {
  decision?: string | null;
  rule?: number | null;
  cell?: string | null;
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DmnProblem };

export function problem(code: DmnProblemCode, message: string, where: Where = {}): DmnProblem {
  return { code, decision: where.decision ?? null, rule: where.rule ?? null, cell: where.cell ?? null, message };
}

export function success<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function failure<T>(error: DmnProblem): Outcome<T> {
  return { ok: false, error };
}

/** One line naming the cause first: `decision 'X', rule 3, output 'tier': message`. */
export function describeProblem(p: DmnProblem): string {
  const where: string[] = [];
  if (p.decision !== null) where.push(`decision '${p.decision}'`);
  if (p.rule !== null) where.push(`rule ${p.rule}`);
  if (p.cell !== null) where.push(p.cell);
  return where.length > 0 ? `${where.join(', ')}: ${p.message}` : p.message;
}

/**
 * What a cell returns when it cannot produce a value; the decision table adds the decision and
 * rule, and the clause when the producer did not name it. A class so cells can return it in
 * place of any FEEL value and be told apart.
 */
export class CellFailure {
  constructor(
    readonly message: string,
    readonly cell: string | null = null,
  ) {}
}

/**
 * Thrown by a business knowledge model, function definition or decision service that fails
 * while FEEL calls it, so the failure (naming where it happened) reaches the decision intact
 * rather than becoming a FEEL null.
 */
export class InvocationAbort extends Error {
  constructor(readonly failure: CellFailure) {
    super(failure.message);
  }
}

/**
 * A value that does not conform to an item definition (a structure, a collection, allowed
 * values). DMN 1.3 section 7.3.2 / 10.3.2.9.4: such a value becomes null, and the evaluation
 * reports the problem beside its results rather than failing.
 */
export class Violation {
  constructor(readonly message: string) {}
}
