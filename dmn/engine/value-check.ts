import type { Reader } from './compiled-model.js';
import type { CompiledExpression } from './expression.js';
import { CellFailure } from './problem.js';
import type { Slots } from './slots.js';
import { conformerFor, KNOWN_TYPE_REFS } from './type-ref.js';
import type { UnaryTest } from './unary-test.js';

/** Checks a value against its clause's typeRef and allowed values; returns it (as FEEL) or a `CellFailure` naming the clause. */
export type Check = (value: unknown, slots: Slots) => unknown;

/**
 * The check of an input or output clause: typeRef first (DMN 1.3 section 7.3.2), then the input
 * or output values. A description of the problem when the typeRef is unknown.
 */
export function checker(cell: string, typeRef: string | null, allowed: UnaryTest | null): Check | string {
  const conform = conformerFor(typeRef);
  if (conform === undefined) return `unknown typeRef '${typeRef}' (known: ${KNOWN_TYPE_REFS.join(', ')})`;
  return (value, slots) => {
    const conformed = conform(value);
    if (conformed instanceof CellFailure) return new CellFailure(conformed.message, cell);
    // Null stands for "no value" and is never outside the allowed values.
    if (allowed === null || conformed === null) return conformed;
    const passes = allowed(conformed, slots);
    if (passes === true) return conformed;
    return new CellFailure(passes === false ? 'the value is not among the allowed values' : passes.message, cell);
  };
}

/** An expression whose every value goes through the clause's check, failures named after the clause. */
export function checkedReader(expression: CompiledExpression, cell: string, check: Check): Reader {
  if (expression.kind === 'constant') return (slots) => check(expression.value, slots);
  return (slots) => {
    const raw = expression.evaluate(slots);
    return raw instanceof CellFailure ? new CellFailure(raw.message, cell) : check(raw, slots);
  };
}
