import { compileFeel, runCompiled, UNSURE } from './feel-compile.js';
import { feelExpression, syntaxError } from './feel-fallback.js';
import { NOT_LITERAL, parseLiteral, type Literal } from './literal.js';
import type { CellFailure } from './problem.js';
import type { Slots, Visible } from './slots.js';

/**
 * A compiled input expression or output entry. Constants are kept as values so the table can
 * check them against typeRef and output values when the model loads, and copy them when it runs.
 */
export type CompiledExpression =
  | { readonly kind: 'constant'; readonly value: Literal }
  | { readonly kind: 'computed'; readonly evaluate: (slots: Slots) => unknown };

/**
 * Compiles a FEEL expression once, when the model loads: a literal becomes its value, the bare
 * name of a variable in scope becomes a slot read, the everyday FEEL subset becomes closures
 * (`feel-compile.ts`), anything else goes to feelin after a syntax check.
 */
export function compileExpression(text: string, visible: Visible): CompiledExpression | CellFailure {
  const trimmed = text.trim();
  // An empty output entry is null, as DMN editors leave it.
  if (trimmed === '') return { kind: 'constant', value: null };
  const literal = parseLiteral(trimmed);
  if (literal !== NOT_LITERAL) return { kind: 'constant', value: literal };
  const slot = visible.get(trimmed);
  if (slot !== undefined) return { kind: 'computed', evaluate: (slots) => slots[slot] };
  const error = syntaxError('expression', trimmed, visible);
  if (error !== null) return error;
  const viaFeelin = feelExpression(trimmed, visible);
  const compiled = compileFeel(trimmed, [...visible.keys()]);
  if (compiled === null) return { kind: 'computed', evaluate: viaFeelin };
  const names = [...visible];
  return {
    kind: 'computed',
    evaluate: (slots) => {
      const frame: Record<string, unknown> = {};
      for (const [name, slot] of names) frame[name] = slots[slot];
      const value = runCompiled(compiled, frame);
      return value === UNSURE ? viaFeelin(slots) : value;
    },
  };
}
