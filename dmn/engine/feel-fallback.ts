import { evaluate, parseExpression, parseUnaryTests, unaryTest, type Warning } from 'feelin';
import { builtinsUsedBy } from './feel-builtins.js';
import { rewriteOperators, type Grammar } from './feel-rewrite.js';
import { CellFailure, InvocationAbort } from './problem.js';
import type { Slots, Visible } from './slots.js';

// A cell that names something that does not exist is a modelling error (spec 4.5: 422, never a
// denial). Type trouble (comparing a string with a number) is FEEL null, as the standard says.
const REFERENCE_WARNINGS = new Set<Warning['type']>(['NO_VARIABLE_FOUND', 'NO_CONTEXT_ENTRY_FOUND', 'NO_PROPERTY_FOUND', 'NO_FUNCTION_FOUND', 'UNSUPPORTED']);

// feelin's message interpolates values (`Property 'y' not found in '<value>'`); its template
// keeps only names, which is all a log line or error body may carry.
function referenceFailure(warnings: readonly Warning[]): CellFailure | null {
  const warning = warnings.find((w) => REFERENCE_WARNINGS.has(w.type));
  return warning === undefined ? null : new CellFailure(warning.details.template.replace(/\{\w+\}/g, 'a value'));
}

// Syntax is checked when the model loads, so a throw here is feelin failing on a value; its
// message may quote that value, so only the error's kind is kept.
function thrown(error: unknown): CellFailure {
  return new CellFailure(`FEEL evaluation failed (${error instanceof Error ? error.name : typeof error})`);
}

// Only what the decision requires is in scope (DMN 1.3 section 6.3.2), so feelin reports
// anything else as unknown.
// The built-ins of `feel-builtins.ts` the text calls come first, so a name the model defines wins.
function feelContext(builtins: Readonly<Record<string, unknown>>, visible: Visible, slots: Slots): Record<string, unknown> {
  const context: Record<string, unknown> = { ...builtins };
  for (const [name, slot] of visible) context[name] = slots[slot];
  return context;
}

/**
 * Finds a FEEL syntax error when the model loads rather than on the first request that reaches
 * the cell. FEEL names may contain spaces, so the parser needs the names in scope to tokenise.
 */
export function syntaxError(grammar: Grammar, text: string, visible: Visible): CellFailure | null {
  const scope = Object.fromEntries([...Object.keys(builtinsUsedBy(text)), ...visible.keys()].map((name) => [name, null]));
  const tree = grammar === 'unary tests' ? parseUnaryTests(text, scope, undefined) : parseExpression(text, scope, undefined);
  let at: number | null = null;
  tree.iterate({
    enter(node) {
      if (at !== null) return false;
      if (node.type.isError) at = node.from;
      return undefined;
    },
  });
  return at === null ? null : new CellFailure(`FEEL syntax error at character ${at + 1} of ${JSON.stringify(text)}`);
}

/** A unary test feelin runs on every call: for the cells the fast path does not recognise. */
export function feelUnaryTest(text: string, visible: Visible): (value: unknown, slots: Slots) => boolean | CellFailure {
  const rewritten = rewriteOperators(text, 'unary tests', [...Object.keys(builtinsUsedBy(text)), ...visible.keys()]);
  const builtins = builtinsUsedBy(rewritten);
  return (value, slots) => {
    try {
      const result = unaryTest(rewritten, { ...feelContext(builtins, visible, slots), '?': value });
      return referenceFailure(result.warnings) ?? result.value === true;
    } catch (error) {
      return error instanceof InvocationAbort ? error.failure : thrown(error);
    }
  };
}

/** An expression feelin runs on every call: for input expressions and output entries beyond literals. */
export function feelExpression(text: string, visible: Visible): (slots: Slots) => unknown {
  const rewritten = rewriteOperators(text, 'expression', [...Object.keys(builtinsUsedBy(text)), ...visible.keys()]);
  const builtins = builtinsUsedBy(rewritten);
  return (slots) => {
    try {
      const result = evaluate(rewritten, feelContext(builtins, visible, slots));
      return referenceFailure(result.warnings) ?? result.value ?? null;
    } catch (error) {
      return error instanceof InvocationAbort ? error.failure : thrown(error);
    }
  };
}

/** An expression feelin runs on every call against a frame of named values (boxed expressions). */
export function feelOnFrame(text: string, scope: readonly string[]): (frame: Record<string, unknown>) => unknown {
  const rewritten = rewriteOperators(text, 'expression', [...Object.keys(builtinsUsedBy(text)), ...scope]);
  const builtins = builtinsUsedBy(rewritten);
  return (frame) => {
    try {
      const result = evaluate(rewritten, { ...builtins, ...frame });
      return referenceFailure(result.warnings) ?? result.value ?? null;
    } catch (error) {
      return error instanceof InvocationAbort ? error.failure : thrown(error);
    }
  };
}
