import type { CompiledInputClause, CompiledRule, CompiledTable, Reader } from './compiled-model.js';
import { compileRow, type OutputSpec } from './compile-row.js';
import { compileExpression } from './expression.js';
import { hitPolicyFor } from './hit-policy.js';
import type { TypeResolver } from './item-definition.js';
import { rankFor } from './output-rank.js';
import type { ParsedOutputClause, ParsedTable } from './parsed-model.js';
import { CellFailure, failure, problem, success, type Outcome, type Where } from './problem.js';
import type { Visible } from './slots.js';
import { conformerFor } from './type-ref.js';
import { compileUnaryTest, MATCH_ANY } from './unary-test.js';
import { checkedReader, checker } from './value-check.js';

// Identical cells (`-`, `true`, `"BASIC"`) compile once per table; the functions are pure.
function memo<T>(compile: (text: string) => T): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let compiled = cache.get(text);
    if (compiled === undefined) {
      compiled = compile(text);
      cache.set(text, compiled);
    }
    return compiled;
  };
}

function outputCell(clause: ParsedOutputClause, index: number): string {
  return `output '${clause.name ?? clause.label ?? index + 1}'`;
}

/**
 * Compiles one decision table, when the model loads: every input entry, output entry, input
 * expression and value list becomes a function, and every literal output is checked against
 * its typeRef and output values now. `visible` maps the variables the decision can see to their
 * slots; `slot` is where its own result goes.
 */
export function compileTable(decision: string, slot: number, table: ParsedTable, visible: Visible, types: TypeResolver = conformerFor): Outcome<CompiledTable> {
  const fail = <T = CompiledTable>(message: string, where: Where = {}) => failure<T>(problem('DMN_COMPILE_ERROR', message, { decision, ...where }));
  const unaryTest = memo((text) => compileUnaryTest(text, visible));
  const expression = memo((text) => compileExpression(text, visible));
  const allowedTest = (text: string | null) => (text === null ? null : unaryTest(text));

  const inputs: CompiledInputClause[] = [];
  for (const [i, clause] of table.inputs.entries()) {
    const cell = `input '${clause.label ?? (clause.expression.trim() || i + 1)}'`;
    if (clause.expression.trim() === '') return fail('the input expression is empty', { cell });
    const compiled = expression(clause.expression);
    const allowed = allowedTest(clause.allowedValues);
    if (compiled instanceof CellFailure) return fail(compiled.message, { cell });
    if (allowed instanceof CellFailure) return fail(`input values: ${allowed.message}`, { cell });
    const check = checker(cell, clause.typeRef, allowed, types);
    if (typeof check === 'string') return fail(check, { cell });
    inputs.push({ cell, read: checkedReader(compiled, cell, check) });
  }

  if (table.outputs.length === 0) return fail('a decision table needs at least one output');
  const outputs: OutputSpec[] = [];
  for (const [i, clause] of table.outputs.entries()) {
    const cell = outputCell(clause, i);
    // DMN 1.3 section 8.2: a single output needs no name; compound outputs are named.
    const name = clause.name ?? (table.outputs.length === 1 ? '' : null);
    if (name === null) return fail('every output of a table with several outputs needs a name', { cell });
    if (outputs.some((o) => o.name === name)) return fail('two outputs have the same name', { cell });
    const allowed = allowedTest(clause.allowedValues);
    if (allowed instanceof CellFailure) return fail(`output values: ${allowed.message}`, { cell });
    const check = checker(cell, clause.typeRef, allowed, types);
    if (typeof check === 'string') return fail(check, { cell });
    outputs.push({ name, cell, check, allowedValues: clause.allowedValues });
  }

  const policy = hitPolicyFor(table.hitPolicy, table.aggregation, outputs.length, rankFor(outputs));
  if (typeof policy === 'string') return fail(policy);

  let json = true;
  // A rule's output entries (or the default outputs, as rule 0) compiled into its row.
  const outputRow = (texts: readonly string[], rule: number | null, what = ''): Outcome<Reader> => {
    const entries = [];
    for (const [i, text] of texts.entries()) {
      const entry = expression(text);
      if (entry instanceof CellFailure) return fail<Reader>(`${what}${entry.message}`, { rule, cell: outputs[i]?.cell ?? null });
      entries.push(entry);
    }
    const row = compileRow(entries, outputs);
    if (row instanceof CellFailure) return fail<Reader>(`${what}${row.message}`, { rule, cell: row.cell });
    json &&= row.json;
    return success(row.read);
  };

  const rules: CompiledRule[] = [];
  for (const [r, rule] of table.rules.entries()) {
    const number = r + 1;
    if (rule.inputEntries.length !== inputs.length || rule.outputEntries.length !== outputs.length) {
      return fail(
        `has ${rule.inputEntries.length} input and ${rule.outputEntries.length} output entries; the table has ${inputs.length} and ${outputs.length}`,
        { rule: number },
      );
    }
    const tests = [];
    for (const [i, text] of rule.inputEntries.entries()) {
      const test = unaryTest(text);
      if (test instanceof CellFailure) return fail(test.message, { rule: number, cell: inputs[i]?.cell ?? null });
      if (test !== MATCH_ANY) tests.push({ input: i, test });
    }
    const row = outputRow(rule.outputEntries, number);
    if (!row.ok) return row;
    rules.push({ number, tests, row: row.value });
  }

  let defaults: CompiledRule | null = null;
  if (table.outputs.some((o) => o.defaultValue !== null)) {
    const row = outputRow(
      table.outputs.map((o) => o.defaultValue ?? ''),
      null,
      'default output: ',
    );
    if (!row.ok) return row;
    defaults = { number: 0, tests: [], row: row.value };
  }

  return success({ decision, slot, inputs, rules, defaults, policy, json });
}
