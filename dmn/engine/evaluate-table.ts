import type { CompiledRule, CompiledTable } from './compiled-model.js';
import type { Hit } from './hit-policy.js';
import { CellFailure, failure, problem, success, type Outcome } from './problem.js';
import type { Slots } from './slots.js';

function evaluationError(table: CompiledTable, cause: CellFailure, rule: number | null, cell: string | null): Outcome<unknown> {
  return failure(problem('DMN_EVALUATION_ERROR', cause.message, { decision: table.decision, rule, cell: cause.cell ?? cell }));
}

function hit(table: CompiledTable, rule: CompiledRule, slots: Slots, hits: Hit[]): Outcome<unknown> | null {
  const value = rule.row(slots);
  if (value instanceof CellFailure) return evaluationError(table, value, rule.number === 0 ? null : rule.number, null);
  hits.push({ rule: rule.number, value });
  return null;
}

/**
 * Runs one compiled decision table against the slots of inputs and earlier decision results
 * (DMN 1.3 section 8.3): input expressions once, then rules in order, then the hit policy.
 */
export function evaluateTable(table: CompiledTable, slots: Slots): Outcome<unknown> {
  const clauses = table.inputs;
  const values = new Array<unknown>(clauses.length);
  for (let i = 0; i < clauses.length; i++) {
    const clause = clauses[i] as CompiledTable['inputs'][number];
    const value = clause.read(slots);
    if (value instanceof CellFailure) return evaluationError(table, value, null, clause.cell);
    values[i] = value;
  }

  const hits: Hit[] = [];
  const rules = table.rules;
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r] as CompiledRule;
    const tests = rule.tests;
    let matched = true;
    for (let c = 0; c < tests.length; c++) {
      const { input, test } = tests[c] as CompiledRule['tests'][number];
      const passes = test(values[input], slots);
      if (passes === true) continue;
      if (passes !== false) return evaluationError(table, passes, rule.number, clauses[input]?.cell ?? null);
      matched = false;
      break;
    }
    if (!matched) continue;
    if (table.policy.stopAtFirstMatch) {
      // FIRST: the first match is the result; no hit list to build.
      const value = rule.row(slots);
      return value instanceof CellFailure ? evaluationError(table, value, rule.number, null) : success(value);
    }
    const failed = hit(table, rule, slots, hits);
    if (failed !== null) return failed;
  }
  if (hits.length === 0 && table.defaults !== null) {
    const failed = hit(table, table.defaults, slots, hits);
    if (failed !== null) return failed;
  }

  const result = table.policy.select(hits);
  return result instanceof CellFailure ? evaluationError(table, result, null, null) : success(result);
}
