import { feelUnaryTest, syntaxError } from './feel-fallback.js';
import { NOT_LITERAL, parseLiteral, parseLiteralList, splitTopLevel } from './literal.js';
import type { CellFailure } from './problem.js';
import type { Slots, Visible } from './slots.js';

/** A compiled input entry: does the input value pass this cell? */
export type UnaryTest = (value: unknown, slots: Slots) => boolean | CellFailure;

/** The `-` cell; decision tables drop it rather than call it. */
export const MATCH_ANY: UnaryTest = () => true;

type Point = (value: unknown) => boolean;

const COMPARISON = /^(<=|>=|<|>)\s*(.+)$/s;
// `[a..b]`, `(a..b)`, `]a..b[` and mixes: `[`/`]` as the opening bracket include/exclude the start.
const INTERVAL = /^([[\](])\s*(.+?)\s*\.\.\s*(.+?)\s*([[\])])$/s;
const NEGATION = /^not\s*\((.*)\)$/s;

type Bound = number | string;

function asBound(text: string): Bound | null {
  const literal = parseLiteral(text);
  return typeof literal === 'number' || typeof literal === 'string' ? literal : null;
}

// FEEL orders numbers with numbers and strings with strings only; anything else is not comparable.
function order(value: unknown, bound: Bound): number | null {
  if (typeof value !== typeof bound) return null;
  const v = value as Bound;
  return v < bound ? -1 : v > bound ? 1 : 0;
}

const COMPARATORS: Record<string, (o: number) => boolean> = {
  '<': (o) => o < 0,
  '<=': (o) => o <= 0,
  '>': (o) => o > 0,
  '>=': (o) => o >= 0,
};

function comparison(text: string): Point | null {
  const match = COMPARISON.exec(text);
  const accepts = match && COMPARATORS[match[1] ?? ''];
  const bound = match && asBound(match[2] ?? '');
  if (!accepts || bound === null || bound === undefined) return null;
  return (value) => {
    const o = order(value, bound);
    return o !== null && accepts(o);
  };
}

function interval(text: string): Point | null {
  const match = INTERVAL.exec(text);
  if (!match) return null;
  const start = asBound(match[2] ?? '');
  const end = asBound(match[3] ?? '');
  if (start === null || end === null || typeof start !== typeof end) return null;
  const startIncluded = match[1] === '[';
  const endIncluded = match[4] === ']';
  return (value) => {
    const lo = order(value, start);
    const hi = order(value, end);
    return lo !== null && hi !== null && (startIncluded ? lo >= 0 : lo > 0) && (endIncluded ? hi <= 0 : hi < 0);
  };
}

/** A comma list of literals, comparisons and intervals, or `null` to leave the cell to feelin. */
function positiveTests(text: string): Point | null {
  const literals = parseLiteralList(text);
  if (literals !== null) {
    const [only] = literals;
    if (literals.length === 1) return (value) => value === only;
    const set: ReadonlySet<unknown> = new Set(literals);
    return (value) => set.has(value);
  }
  const points: Point[] = [];
  for (const part of splitTopLevel(text) ?? []) {
    const trimmed = part.trim();
    const literal = parseLiteral(trimmed);
    const p = literal !== NOT_LITERAL ? (value: unknown) => value === literal : (comparison(trimmed) ?? interval(trimmed));
    if (p === null) return null;
    points.push(p);
  }
  return points.length === 0 ? null : (value) => points.some((p) => p(value));
}

/**
 * Compiles an input entry once, when the model loads. Literals, lists of literals, comparisons,
 * intervals, `not(...)` of those and `-` become plain closures; any other FEEL goes to feelin,
 * after its syntax is checked now so a typo fails the load rather than a request.
 */
export function compileUnaryTest(text: string, visible: Visible): UnaryTest | CellFailure {
  const trimmed = text.trim();
  // An empty cell reads as `-`, as DMN editors write it.
  if (trimmed === '' || trimmed === '-') return MATCH_ANY;
  const negated = NEGATION.exec(trimmed);
  const fast = positiveTests(negated ? (negated[1] ?? '') : trimmed);
  // DMN 1.3 section 10.3.2.9.4: a singleton list is tested as its one item, as feelin does for
  // the cells it runs.
  const one = (value: unknown) => (Array.isArray(value) && value.length === 1 ? value[0] : value);
  if (fast !== null) return negated ? (value) => !fast(one(value)) : (value) => fast(one(value));
  return syntaxError('unary tests', trimmed, visible) ?? feelUnaryTest(trimmed, visible);
}
