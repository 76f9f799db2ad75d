import { duration, evaluate, FeelDate, FeelDateTime, FeelDuration, FeelFunction, isRange } from 'feelin';
import { countItems, tick } from './deadline.js';
import { arithmetic, negate, type ArithOp } from './feel-arithmetic.js';
import { decimal, roundDecimal, type RoundingMode } from './feel-decimal.js';
import { INTERVAL_FUNCTIONS } from './feel-intervals.js';
import { matches, replace } from './feel-regex.js';
import { feelTypeOf } from './type-ref.js';

/**
 * Built-in functions where feelin differs from DMN (or lacks them), handed to feelin as context
 * entries (a context entry wins over feelin's built-in of the same name) and to the compiled
 * expressions as functions in scope. Arguments of the wrong type give null (DMN 1.3 section
 * 10.3.4: a function given arguments outside its domain is null).
 */
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown) => v === undefined || v === null;

// DMN 1.3 section 10.3.4.4 `decimal` (half even); DMN 1.4 `round up`, `round down`,
// `round half up`, `round half down`, `round half even`; `floor`/`ceiling` with a scale.
function rounding(mode: RoundingMode, scaleRequired: boolean): FeelFunction {
  return new FeelFunction(
    (n: unknown, scale: unknown) => {
      if (!isNumber(n)) return null;
      if (optional(scale) && !scaleRequired) return roundDecimal(n, 0, mode);
      return isNumber(scale) && Number.isInteger(scale) ? roundDecimal(n, scale, mode) : null;
    },
    ['n', 'scale'],
  );
}

// DMN 1.3 section 10.3.4.3 with the regular expressions of XPath (feel-regex.ts).
const matchesFunction = new FeelFunction(
  (input: unknown, pattern: unknown, flags: unknown) =>
    isString(input) && isString(pattern) && (optional(flags) || isString(flags)) ? matches(input, pattern, (flags as string | undefined) ?? null) : null,
  ['input', 'pattern', 'flags'],
);
const replaceFunction = new FeelFunction(
  (input: unknown, pattern: unknown, replacement: unknown, flags: unknown) =>
    isString(input) && isString(pattern) && isString(replacement) && (optional(flags) || isString(flags))
      ? replace(input, pattern, replacement, (flags as string | undefined) ?? null)
      : null,
  ['input', 'pattern', 'replacement', 'flags'],
);

// DMN 1.3 section 10.3.4.6: whole years and months between two dates (feelin keeps the days).
const yearsAndMonthsDuration = new FeelFunction(
  (from: unknown, to: unknown) => {
    const isDateLike = (v: unknown) => v instanceof FeelDate || v instanceof FeelDateTime;
    if (!isDateLike(from) || !isDateLike(to)) return null;
    const between = evaluate('years and months duration(a, b)', { a: from, b: to }).value;
    if (!(between instanceof FeelDuration)) return null;
    const value = between.unwrap();
    const months = value.years * 12 + value.months;
    return duration(`${months < 0 ? '-' : ''}P${Math.abs(months)}M`);
  },
  ['from', 'to'],
);

// DMN 1.5 `range(from)`: a range literal written as a string, its end points literals.
const END_POINT = String.raw`(?:-?\d+(?:\.\d+)?|"[^"\\]*"|@"[^"\\]*"|(?:date and time|date|time|duration)\("[^"\\]*"\))`;
const RANGE_TEXT = new RegExp(String.raw`^\s*(?:[\[(\]]\s*${END_POINT}\s*\.\.\s*${END_POINT}\s*[\])\[]|(?:<=?|>=?)\s*${END_POINT})\s*$`);
const rangeFunction = new FeelFunction(
  (from: unknown) => {
    if (!isString(from) || !RANGE_TEXT.test(from)) return null;
    return evaluate(`(${from})`, {}).value ?? null;
  },
  ['from'],
);

type Builtin = ((...args: unknown[]) => unknown) & { $args: string[] };
// feelin hands out a built-in as its plain implementation, parameter names in `$args`.
const feelinBuiltin = (name: string) => evaluate(name, {}).value as Builtin;

// DMN 1.3 section 10.3.4.4 list functions whose result is arithmetic on the items: feelin's,
// with the result read as a decimal (10.3.2.3.1), so sum([0.1, 0.2]) is 0.3.
function decimalResult(name: string): FeelFunction {
  const builtin = feelinBuiltin(name);
  return new FeelFunction((...args: unknown[]) => {
    const result = builtin(...args);
    return typeof result === 'number' ? decimal(result) : result;
  }, builtin.$args);
}
const listArithmetic = Object.fromEntries(['sum', 'mean', 'product', 'median'].map((name) => [name, decimalResult(name)]));

// DMN 1.3 section 10.3.4.4 min and max: of any comparable items (dates, times, durations too;
// feelin takes numbers only), a list or the arguments; null when two items do not compare.
function extreme(name: 'min' | 'max'): FeelFunction {
  const wins = name === 'min' ? 'a < b' : 'a > b';
  return new FeelFunction((...args: unknown[]) => {
    const items = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    let best: unknown = null;
    for (const [i, item] of items.entries()) {
      if (item === null || item === undefined) return null;
      if (i === 0) {
        best = item;
        continue;
      }
      if (feelTypeOf(item) !== feelTypeOf(best)) return null;
      const better =
        typeof item === 'number' || typeof item === 'string'
          ? name === 'min'
            ? item < (best as typeof item)
            : item > (best as typeof item)
          : evaluate(wins, { a: item, b: best }).value;
      if (typeof better !== 'boolean') return null;
      if (better) best = item;
    }
    return best;
  }, feelinBuiltin(name).$args);
}

const intervalFunctions = Object.fromEntries(Object.entries(INTERVAL_FUNCTIONS).map(([name, fn]) => [name, new FeelFunction(fn, ['a', 'b'])]));

/**
 * Operators as functions, for expressions rewritten by `feel-rewrite.ts`. The `ƒ` names are
 * valid FEEL names no modeller is expected to write; a model element of the same name would
 * shadow one (model names win over built-ins).
 */
export const OPERATOR_FUNCTIONS: Readonly<Record<ArithOp | 'negate', string>> = {
  '+': 'ƒadd',
  '-': 'ƒsubtract',
  '*': 'ƒmultiply',
  '/': 'ƒdivide',
  '**': 'ƒpower',
  negate: 'ƒnegate',
};

const operators: Record<string, FeelFunction> = Object.fromEntries(
  (['+', '-', '*', '/', '**'] as const).map((op) => [
    OPERATOR_FUNCTIONS[op],
    new FeelFunction(
      (a: unknown, b: unknown) => {
        tick();
        return arithmetic(op, a ?? null, b ?? null);
      },
      ['a', 'b'],
    ),
  ]),
);
operators[OPERATOR_FUNCTIONS.negate] = new FeelFunction((a: unknown) => negate(a ?? null), ['a']);

/** The loop guards `feel-rewrite.ts` writes into loops (deadline.ts); named like the operators. */
export const LOOP_FUNCTIONS = { step: 'ƒstep', each: 'ƒeach', upto: 'ƒupto' } as const;

/** How many items an iteration source holds: a list its length, a numeric range its span. */
function itemsOf(source: unknown): number {
  if (Array.isArray(source)) return source.length;
  if (isRange(source) && typeof source.start === 'number' && typeof source.end === 'number') return Math.abs(source.end - source.start) + 1;
  return 1;
}

const loopGuards: Record<string, FeelFunction> = {
  [LOOP_FUNCTIONS.step]: new FeelFunction(
    (value: unknown) => {
      tick();
      return value ?? null;
    },
    ['value'],
  ),
  [LOOP_FUNCTIONS.each]: new FeelFunction(
    (source: unknown) => {
      countItems(itemsOf(source));
      return source ?? null;
    },
    ['source'],
  ),
  [LOOP_FUNCTIONS.upto]: new FeelFunction(
    (from: unknown, to: unknown) => {
      countItems(typeof from === 'number' && typeof to === 'number' ? Math.abs(to - from) + 1 : 1);
      return to ?? null;
    },
    ['from', 'to'],
  ),
};

/** Every override and addition, by FEEL name. */
export const BUILTINS: Readonly<Record<string, FeelFunction>> = {
  decimal: rounding('half even', true),
  'round up': rounding('up', true),
  'round down': rounding('down', true),
  'round half up': rounding('half up', true),
  'round half down': rounding('half down', true),
  'round half even': rounding('half even', true),
  floor: rounding('floor', false),
  ceiling: rounding('ceiling', false),
  matches: matchesFunction,
  replace: replaceFunction,
  'years and months duration': yearsAndMonthsDuration,
  range: rangeFunction,
  ...listArithmetic,
  min: extreme('min'),
  max: extreme('max'),
  ...intervalFunctions,
  ...operators,
  ...loopGuards,
};

/**
 * The built-ins a FEEL text may call: those whose name it contains. Handing feelin only these
 * keeps each evaluation's context small and leaves every other name to the parser as before.
 */
export function builtinsUsedBy(text: string): Readonly<Record<string, FeelFunction>> {
  return Object.fromEntries(Object.entries(BUILTINS).filter(([name]) => text.includes(name)));
}
