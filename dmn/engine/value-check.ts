import type { Reader } from './compiled-model.js';
import type { CompiledExpression } from './expression.js';
import { unknownTypeRef, type TypeResolver } from './item-definition.js';
import { CellFailure, Violation } from './problem.js';
import { nulled } from './problems.js';
import type { Slots } from './slots.js';
import { conformerFor } from './type-ref.js';
import type { UnaryTest } from './unary-test.js';

/** Checks a value against its clause's typeRef and allowed values; returns it (as FEEL) or a `CellFailure` naming the clause. */
export type Check = (value: unknown, slots: Slots) => unknown;

/**
 * The check of an input or output clause: typeRef first (DMN 1.3 section 7.3.2), then the input
 * or output values. A description of the problem when the typeRef is unknown. `types` resolves
 * the model's item definitions.
 */
export function checker(cell: string, typeRef: string | null, allowed: UnaryTest | null, types: TypeResolver = conformerFor): Check | string {
  const conform = types(typeRef);
  if (conform === undefined) return unknownTypeRef(typeRef);
  return (value, slots) => {
    const conformed = conform(value);
    if (conformed instanceof CellFailure) return new CellFailure(conformed.message, cell);
    // An item definition's check failing makes the value null, with a problem (DMN 1.3 section 7.3.2).
    if (conformed instanceof Violation) return nulled(conformed.message, cell);
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
