import test from 'ava';
import { date, unaryTest } from 'feelin';
import { CellFailure } from '../../../dmn/engine/problem.js';
import { compileUnaryTest } from '../../../dmn/engine/unary-test.js';

const STRINGS = ['A', 'B', '', 'a', 'm', 'z', null];
const NUMBERS = [-3, 0, 0.5, 1, 1.5, 3, 4, 5, 6, 18, 60, null];
const BOOLEANS = [true, false, null];

// Cells the compiler turns into plain closures, each with the values of its type; the result
// must be exactly what feelin answers for the same cell and value.
const FAST_CELLS: Array<[string, readonly unknown[]]> = [
  ['-', [...STRINGS, ...NUMBERS]],
  ['"A"', STRINGS],
  ['""', STRINGS],
  ['"A","B"', STRINGS],
  ['"A", "", null', STRINGS],
  ['5', NUMBERS],
  ['1.50', NUMBERS],
  ['-3', NUMBERS],
  ['.5', NUMBERS],
  ['true', BOOLEANS],
  ['false', BOOLEANS],
  ['null', [...STRINGS, ...BOOLEANS]],
  ['< 5', NUMBERS],
  ['<= 5', NUMBERS],
  ['> 5', NUMBERS],
  ['>=5', NUMBERS],
  ['< "m"', STRINGS],
  ['>= "m"', STRINGS],
  ['[1..5]', NUMBERS],
  ['(1..5)', NUMBERS],
  [']1..5[', NUMBERS],
  ['[1..5)', NUMBERS],
  ['(1..5]', NUMBERS],
  ['[ 1 .. 5 ]', NUMBERS],
  ['["a".."m"]', STRINGS],
  ['< 18, >= 60', NUMBERS],
  ['1, [3..4], > 5', NUMBERS],
  ['not("A")', STRINGS],
  ['not("A", "B")', STRINGS],
  ['not(< 5)', NUMBERS],
  ['not(null)', STRINGS],
  ['not([1..5])', NUMBERS],
];

const NOTHING_VISIBLE = new Map<string, number>();
const NO_SLOTS: unknown[] = [];

for (const [cell, values] of FAST_CELLS) {
  test(`the compiled cell ${cell} agrees with feelin on every value of its type`, (t) => {
    const compiled = compileUnaryTest(cell, NOTHING_VISIBLE);
    if (compiled instanceof CellFailure) return t.fail(compiled.message);
    for (const value of values) {
      const expected = cell === '-' ? true : unaryTest(cell, { '?': value }).value === true;
      t.is(compiled(value, NO_SLOTS), expected, `value ${JSON.stringify(value)}`);
    }
  });
}

test('cells beyond the fast path are evaluated by feelin with the variables in scope', (t) => {
  const visible = new Map([['limit', 0]]);
  const slots = [10];
  const cases: Array<[string, unknown, boolean]> = [
    ['? > limit', 11, true],
    ['? > limit', 9, false],
    ['[date("2024-01-01")..date("2024-12-31")]', date('2024-06-30'), true],
    ['[date("2024-01-01")..date("2024-12-31")]', date('2025-01-01'), false],
    ['"a\\"b"', 'a"b', true],
    ['string length(?) > 3', 'abcd', true],
  ];
  for (const [cell, value, expected] of cases) {
    const compiled = compileUnaryTest(cell, visible);
    if (compiled instanceof CellFailure) return t.fail(compiled.message);
    t.is(compiled(value, slots), expected, cell);
  }
});

test('a cell naming a variable that is not in scope fails instead of not matching', (t) => {
  const compiled = compileUnaryTest('? > threshold', NOTHING_VISIBLE);
  if (compiled instanceof CellFailure) return t.fail(compiled.message);
  const result = compiled(5, NO_SLOTS);
  t.true(result instanceof CellFailure);
  t.regex((result as CellFailure).message, /Variable 'threshold' not found/);
});

test('malformed cells are refused when they compile, with the position', (t) => {
  for (const cell of ['"open', '[1..', 'not(-)', '< ', '"a".."b"']) {
    const compiled = compileUnaryTest(cell, NOTHING_VISIBLE);
    t.true(compiled instanceof CellFailure, cell);
    t.regex((compiled as CellFailure).message, /FEEL syntax error at character \d+/, cell);
  }
});
