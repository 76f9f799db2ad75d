import { evaluate, isRange } from 'feelin';

/**
 * The range functions of DMN 1.3 section 10.3.4.9 (table 78), on points and ranges. Each is
 * written as the spec's own FEEL formula for its signature and run by feelin, so comparison of
 * numbers, strings, dates, times and durations (across time zones) is FEEL's. A signature the
 * table does not give (a point where a range is required) or a null argument is null.
 */
type Signature = 'point, point' | 'point, range' | 'range, point' | 'range, range';

// `a` and `b` are the first and second argument, whether point or range.
const FORMULAS: Readonly<Record<string, Partial<Record<Signature, string>>>> = {
  before: {
    'point, point': 'a < b',
    'point, range': 'a < b.start or (a = b.start and not(b.start included))',
    'range, point': 'a.end < b or (a.end = b and not(a.end included))',
    'range, range': 'a.end < b.start or ((not(a.end included) or not(b.start included)) and a.end = b.start)',
  },
  after: {
    'point, point': 'a > b',
    'point, range': 'a > b.end or (a = b.end and not(b.end included))',
    'range, point': 'a.start > b or (a.start = b and not(a.start included))',
    'range, range': 'a.start > b.end or ((not(a.start included) or not(b.end included)) and a.start = b.end)',
  },
  meets: { 'range, range': 'a.end included and b.start included and a.end = b.start' },
  'met by': { 'range, range': 'a.start included and b.end included and a.start = b.end' },
  overlaps: {
    'range, range':
      '(a.end > b.start or (a.end = b.start and a.end included and b.start included)) and (a.start < b.end or (a.start = b.end and a.start included and b.end included))',
  },
  'overlaps before': {
    'range, range':
      '(a.start < b.start or (a.start = b.start and a.start included and not(b.start included))) and (a.end > b.start or (a.end = b.start and a.end included and b.start included)) and (a.end < b.end or (a.end = b.end and (not(a.end included) or b.end included)))',
  },
  'overlaps after': {
    'range, range':
      '(b.start < a.start or (b.start = a.start and b.start included and not(a.start included))) and (b.end > a.start or (b.end = a.start and b.end included and a.start included)) and (b.end < a.end or (b.end = a.end and (not(b.end included) or a.end included)))',
  },
  finishes: {
    'point, range': 'b.end included and b.end = a',
    'range, range':
      'a.end included = b.end included and a.end = b.end and (a.start > b.start or (a.start = b.start and (not(a.start included) or b.start included)))',
  },
  'finished by': {
    'range, point': 'a.end included and a.end = b',
    'range, range':
      'a.end included = b.end included and a.end = b.end and (a.start < b.start or (a.start = b.start and (a.start included or not(b.start included))))',
  },
  includes: {
    'range, point': '(a.start < b and a.end > b) or (a.start = b and a.start included) or (a.end = b and a.end included)',
    'range, range':
      '(a.start < b.start or (a.start = b.start and (a.start included or not(b.start included)))) and (a.end > b.end or (a.end = b.end and (a.end included or not(b.end included))))',
  },
  during: {
    'point, range': '(b.start < a and b.end > a) or (b.start = a and b.start included) or (b.end = a and b.end included)',
    'range, range':
      '(b.start < a.start or (b.start = a.start and (b.start included or not(a.start included)))) and (b.end > a.end or (b.end = a.end and (b.end included or not(a.end included))))',
  },
  starts: {
    'point, range': 'b.start = a and b.start included',
    'range, range':
      'a.start = b.start and a.start included = b.start included and (a.end < b.end or (a.end = b.end and (not(a.end included) or b.end included)))',
  },
  'started by': {
    'range, point': 'a.start = b and a.start included',
    'range, range':
      'a.start = b.start and a.start included = b.start included and (b.end < a.end or (b.end = a.end and (not(b.end included) or a.end included)))',
  },
  coincides: {
    'point, point': 'a = b',
    'range, range': 'a.start = b.start and a.start included = b.start included and a.end = b.end and a.end included = b.end included',
  },
};

const kind = (v: unknown) => (isRange(v) ? 'range' : 'point');

/** The range functions by name, each a function of its two arguments. */
export const INTERVAL_FUNCTIONS: Readonly<Record<string, (a: unknown, b: unknown) => boolean | null>> = Object.fromEntries(
  Object.entries(FORMULAS).map(([name, formulas]) => [
    name,
    (a: unknown, b: unknown) => {
      if (a === null || b === null || a === undefined || b === undefined) return null;
      const formula = formulas[`${kind(a)}, ${kind(b)}`];
      if (formula === undefined) return null;
      const value = evaluate(formula, { a, b }).value;
      return typeof value === 'boolean' ? value : null;
    },
  ]),
);
