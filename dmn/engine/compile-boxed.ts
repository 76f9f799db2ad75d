import { FeelFunction, isFunction } from 'feelin';
import { compileNewerBoxed } from './compile-newer-boxed.js';
import { compileTable } from './compile-table.js';
import { evaluateTable } from './evaluate-table.js';
import { feelOnFrame, syntaxError } from './feel-fallback.js';
import { compileFeel, runCompiled, UNSURE } from './feel-compile.js';
import type { TypeResolver } from './item-definition.js';
import { unknownTypeRef } from './item-definition.js';
import { NOT_LITERAL, parseLiteral } from './literal.js';
import type { ParsedExpression, ParsedTable } from './parsed-model.js';
import { CellFailure, InvocationAbort, Violation, type DmnProblem } from './problem.js';
import { nulled } from './problems.js';
import type { Conform } from './type-ref.js';

/** The named values a boxed expression sees (DMN 1.3 section 10.3.2: its scope). */
export type Frame = Record<string, unknown>;
/** A compiled boxed expression: its value, or a `CellFailure` naming the expression. */
export type Evaluator = (frame: Frame) => unknown;

// `decision 'X'` is added by whoever runs the expression; the rest locates the failure inside it.
function located(p: DmnProblem, where: string): CellFailure {
  const parts = [where];
  if (p.rule !== null) parts.push(`rule ${p.rule}`);
  if (p.cell !== null) parts.push(p.cell);
  return new CellFailure(p.message, parts.join(', '));
}

const withCell = (value: unknown, cell: string) => (value instanceof CellFailure && value.cell === null ? new CellFailure(value.message, cell) : value);

/** Runs a typeRef check: a type error fails, an item-definition violation is null plus a problem. */
export function conformed(check: Conform, value: unknown, cell: string): unknown {
  const checked = check(value);
  if (checked instanceof CellFailure) return new CellFailure(checked.message, cell);
  if (checked instanceof Violation) return nulled(checked.message, cell);
  return checked;
}

// feelin answers a parameter mismatch with a signal object (not exported) rather than a value.
function isInvocationFailure(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'warning' in value && 'template' in value;
}

/** Calls a FEEL function value with named arguments; a failure inside it comes back as a `CellFailure`. */
export function invoke(fn: unknown, args: Frame, callee: string, cell: string): unknown {
  if (!isFunction(fn)) return new CellFailure(`'${callee}' is not a function`, cell);
  try {
    const result = fn.invoke(args);
    return isInvocationFailure(result) ? new CellFailure(`the bindings do not match the parameters of '${callee}'`, cell) : (result ?? null);
  } catch (error) {
    if (error instanceof InvocationAbort) return error.failure;
    throw error;
  }
}

/** A FEEL function value running `body` on a frame of its parameters; failures travel as `InvocationAbort`. */
export function feelFunction(
  parameters: readonly { name: string; check: Conform }[],
  where: string,
  body: (frame: Frame) => unknown,
  base: () => Frame,
): FeelFunction {
  return new FeelFunction(
    (...args: unknown[]) => {
      const frame: Frame = { ...base() };
      for (const [i, parameter] of parameters.entries()) {
        const value = conformed(parameter.check, args[i] ?? null, `${where}, parameter '${parameter.name}'`);
        if (value instanceof CellFailure) throw new InvocationAbort(value);
        frame[parameter.name] = value;
      }
      const result = body(frame);
      if (result instanceof CellFailure) throw new InvocationAbort(result);
      return result;
    },
    parameters.map((p) => p.name),
  );
}

function compileLiteral(text: string, scope: readonly string[], where: string): Evaluator | CellFailure {
  const trimmed = text.trim();
  if (trimmed === '') return () => null;
  const literal = parseLiteral(trimmed);
  if (literal !== NOT_LITERAL) return () => literal;
  if (scope.includes(trimmed)) return (frame) => frame[trimmed] ?? null;
  const error = syntaxError('expression', trimmed, new Map(scope.map((name) => [name, 0])));
  if (error !== null) return new CellFailure(error.message, where);
  const run = feelOnFrame(trimmed, scope);
  const compiled = compileFeel(trimmed, scope);
  if (compiled === null) return (frame) => withCell(run(frame), where);
  return (frame) => {
    const value = runCompiled(compiled, frame);
    return withCell(value === UNSURE ? run(frame) : value, where);
  };
}

function compileEmbeddedTable(table: ParsedTable, scope: readonly string[], where: string, types: TypeResolver): Evaluator | CellFailure {
  const compiled = compileTable(where, -1, table, new Map(scope.map((name, i) => [name, i])), types);
  if (!compiled.ok) return located(compiled.error, where);
  const compiledTable = compiled.value;
  return (frame) => {
    const outcome = evaluateTable(
      compiledTable,
      scope.map((name) => frame[name] ?? null),
    );
    return outcome.ok ? outcome.value : located(outcome.error, where);
  };
}

/**
 * Compiles any boxed expression of DMN 1.3 chapter 10 (and DMN 1.5's, `compile-newer-boxed.ts`) once, when the model loads: literal
 * expressions (FEEL syntax checked now), contexts, lists, relations, invocations, function
 * definitions and decision tables. `scope` lists the names it may read; `where` names it in
 * errors (`literal expression`, `context entry 'x'`).
 */
export function compileBoxed(expression: ParsedExpression, scope: readonly string[], where: string, types: TypeResolver): Evaluator | CellFailure {
  const check = types(expression.typeRef);
  if (check === undefined) return new CellFailure(unknownTypeRef(expression.typeRef), where);
  const body = compileBody(expression, scope, where, types);
  if (body instanceof CellFailure || expression.typeRef === null) return body;
  return (frame) => {
    const value = body(frame);
    return value instanceof CellFailure ? value : conformed(check, value, where);
  };
}

function compileBody(expression: ParsedExpression, scope: readonly string[], where: string, types: TypeResolver): Evaluator | CellFailure {
  switch (expression.kind) {
    case 'literal':
      return compileLiteral(expression.text, scope, where);
    case 'table':
      return compileEmbeddedTable(expression.table, scope, where, types);
    case 'context':
      return compileContext(expression.entries, scope, where, types);
    case 'list': {
      const items: Evaluator[] = [];
      for (const [i, item] of expression.items.entries()) {
        const compiled = compileBoxed(item, scope, `${where}, list item ${i + 1}`, types);
        if (compiled instanceof CellFailure) return compiled;
        items.push(compiled);
      }
      return (frame) => evaluateAll(items, frame);
    }
    case 'relation': {
      const rows: Evaluator[][] = [];
      for (const [r, row] of expression.rows.entries()) {
        if (row.length !== expression.columns.length)
          return new CellFailure(`row ${r + 1} has ${row.length} cells; the relation has ${expression.columns.length} columns`, where);
        const cells: Evaluator[] = [];
        for (const [c, cell] of row.entries()) {
          const compiled = compileBoxed(cell, scope, `${where}, row ${r + 1}, column '${expression.columns[c]}'`, types);
          if (compiled instanceof CellFailure) return compiled;
          cells.push(compiled);
        }
        rows.push(cells);
      }
      const columns = expression.columns;
      return (frame) => {
        const out: Frame[] = [];
        for (const cells of rows) {
          const values = evaluateAll(cells, frame);
          if (values instanceof CellFailure) return values;
          out.push(Object.fromEntries(columns.map((column, i) => [column, values[i]])));
        }
        return out;
      };
    }
    case 'invocation': {
      const callee = expression.callee;
      if (!scope.includes(callee))
        return new CellFailure(`invokes '${callee}', which is not a business knowledge model or decision service it requires`, where);
      const bindings: { name: string; value: Evaluator }[] = [];
      for (const binding of expression.bindings) {
        if (binding.value === null) continue; // DMN 1.3 section 10.3.2.5: an unbound parameter is null.
        const compiled = compileBoxed(binding.value, scope, `${where}, binding '${binding.name}'`, types);
        if (compiled instanceof CellFailure) return compiled;
        bindings.push({ name: binding.name, value: compiled });
      }
      return (frame) => {
        const args: Frame = {};
        for (const binding of bindings) {
          const value = binding.value(frame);
          if (value instanceof CellFailure) return value;
          args[binding.name] = value;
        }
        return invoke(frame[callee], args, callee, where);
      };
    }
    case 'function': {
      if (expression.functionKind !== 'FEEL')
        return new CellFailure(`function definitions of kind ${expression.functionKind} are not supported (FEEL only)`, where);
      const parameters: { name: string; check: Conform }[] = [];
      for (const parameter of expression.parameters) {
        const parameterCheck = types(parameter.typeRef);
        if (parameterCheck === undefined) return new CellFailure(`parameter '${parameter.name}': ${unknownTypeRef(parameter.typeRef)}`, where);
        parameters.push({ name: parameter.name, check: parameterCheck });
      }
      if (expression.body === null) return new CellFailure('the function definition has no body', where);
      const fnBody = compileBoxed(expression.body, [...scope, ...parameters.map((p) => p.name)], where, types);
      if (fnBody instanceof CellFailure) return fnBody;
      return (frame) => feelFunction(parameters, where, fnBody, () => frame);
    }
    case 'conditional':
    case 'iterator':
    case 'filter':
      return compileNewerBoxed(expression, scope, where, (inner, innerScope, innerWhere) => compileBoxed(inner, innerScope, innerWhere, types));
    case 'unsupported':
      return new CellFailure(`${expression.type.replace(/^dmn:/, '')} is not a DMN 1.3 boxed expression this engine evaluates`, where);
  }
}

function evaluateAll(items: readonly Evaluator[], frame: Frame): unknown[] | CellFailure {
  const out: unknown[] = [];
  for (const item of items) {
    const value = item(frame);
    if (value instanceof CellFailure) return value;
    out.push(value);
  }
  return out;
}

// DMN 1.3 section 10.3.2.3: each entry sees the entries before it; a final entry without a name
// is the result, else the context itself is.
function compileContext(
  entries: readonly { name: string | null; typeRef: string | null; value: ParsedExpression | null }[],
  scope: readonly string[],
  where: string,
  types: TypeResolver,
): Evaluator | CellFailure {
  const compiled: { name: string | null; cell: string; value: Evaluator; check: Conform }[] = [];
  let names = [...scope];
  for (const [i, entry] of entries.entries()) {
    const cell = `${where}, context entry '${entry.name ?? 'result'}'`;
    if (entry.name === null && i !== entries.length - 1) return new CellFailure('only the last context entry may be without a name (the result)', cell);
    if (entry.value === null) return new CellFailure('the context entry has no value expression', cell);
    const check = types(entry.typeRef);
    if (check === undefined) return new CellFailure(unknownTypeRef(entry.typeRef), cell);
    const value = compileBoxed(entry.value, names, cell, types);
    if (value instanceof CellFailure) return value;
    compiled.push({ name: entry.name, cell, value, check });
    if (entry.name !== null) names = [...names, entry.name];
  }
  return (frame) => {
    const local: Frame = { ...frame };
    const context: Frame = {};
    for (const entry of compiled) {
      const raw = entry.value(local);
      if (raw instanceof CellFailure) return raw;
      const value = conformed(entry.check, raw, entry.cell);
      if (value instanceof CellFailure) return value;
      if (entry.name === null) return value;
      local[entry.name] = value;
      context[entry.name] = value;
    }
    return context;
  };
}
