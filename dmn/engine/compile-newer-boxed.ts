import { isRange } from 'feelin';
import type { ParsedExpression } from './parsed-model.js';
import { CellFailure } from './problem.js';

type Frame = Record<string, unknown>;
type Evaluator = (frame: Frame) => unknown;
type Compile = (expression: ParsedExpression, scope: readonly string[], where: string) => Evaluator | CellFailure;
type Newer = Extract<ParsedExpression, { kind: 'conditional' | 'iterator' | 'filter' }>;

function part(compile: Compile, expression: ParsedExpression | null, scope: readonly string[], where: string, name: string): Evaluator | CellFailure {
  return expression === null ? new CellFailure(`the '${name}' part has no expression`, where) : compile(expression, scope, `${where}, '${name}'`);
}

const isContext = (value: unknown): value is Frame => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

// What an iterator or filter runs over: a list, a range of integers (FEEL's `for i in 1..3`),
// or a single value as a list of one (DMN 1.3 section 10.3.2.9.4).
function itemsOf(source: Evaluator, frame: Frame, where: string): unknown[] | CellFailure | null {
  const value = source(frame);
  if (value === null || value instanceof CellFailure) return value;
  if (Array.isArray(value)) return value;
  if (isRange(value)) {
    try {
      return value.map((item: unknown) => item);
    } catch {
      return new CellFailure('iterates over a range that is not a closed range of integers', where);
    }
  }
  return [value];
}

/**
 * DMN 1.5 boxed conditional, iterator (`for`, `some`, `every`) and filter, with the semantics of
 * FEEL's `if`, `for`, quantified expressions and filters (DMN 1.3 section 10.3.2.14): `if` takes
 * `then` only when true; `for` collects `return` per item; `some`/`every` test `satisfies`;
 * a filter keeps the items whose `match` is true, with `item` (and a context item's entries) in scope.
 */
export function compileNewerBoxed(expression: Newer, scope: readonly string[], where: string, compile: Compile): Evaluator | CellFailure {
  switch (expression.kind) {
    case 'conditional': {
      const condition = part(compile, expression.if, scope, where, 'if');
      const whenTrue = part(compile, expression.then, scope, where, 'then');
      const whenFalse = part(compile, expression.else, scope, where, 'else');
      if (condition instanceof CellFailure) return condition;
      if (whenTrue instanceof CellFailure) return whenTrue;
      if (whenFalse instanceof CellFailure) return whenFalse;
      return (frame) => {
        const test = condition(frame);
        if (test instanceof CellFailure) return test;
        return test === true ? whenTrue(frame) : whenFalse(frame);
      };
    }
    case 'iterator': {
      const variable = expression.variable;
      if (variable === '') return new CellFailure(`the ${expression.iterator} iterator has no iteratorVariable`, where);
      const source = part(compile, expression.in, scope, where, 'in');
      const body = part(compile, expression.body, [...scope, variable], where, expression.iterator === 'for' ? 'return' : 'satisfies');
      if (source instanceof CellFailure) return source;
      if (body instanceof CellFailure) return body;
      const iterator = expression.iterator;
      return (frame) => {
        const items = itemsOf(source, frame, where);
        if (items === null || items instanceof CellFailure) return items;
        const results: unknown[] = [];
        for (const item of items) {
          const result = body({ ...frame, [variable]: item });
          if (result instanceof CellFailure) return result;
          if (iterator === 'some' && result === true) return true;
          if (iterator === 'every' && result !== true) return false;
          results.push(result);
        }
        return iterator === 'for' ? results : iterator === 'every';
      };
    }
    case 'filter': {
      const source = part(compile, expression.in, scope, where, 'in');
      const match = part(compile, expression.match, [...scope, 'item'], where, 'match');
      if (source instanceof CellFailure) return source;
      if (match instanceof CellFailure) return match;
      return (frame) => {
        const items = itemsOf(source, frame, where);
        if (items === null || items instanceof CellFailure) return items;
        const kept: unknown[] = [];
        for (const item of items) {
          const result = match({ ...frame, ...(isContext(item) ? item : {}), item });
          if (result instanceof CellFailure) return result;
          if (result === true) kept.push(item);
        }
        return kept;
      };
    }
  }
}
