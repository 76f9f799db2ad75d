import test from 'ava';
import { evaluate } from '../../../dmn/engine/index.js';
import { compiled } from './dmn-xml.js';
import { feelCases, type FeelCase } from './feel-case.js';

// FEEL semantics where DMN 1.3 is clear, checked through a literal expression decision
// (our compiled subset, feelin for the rest). One line per case: section, expression, inputs
// (name -> [typeRef, value]), expected JSON result.
const CASES: FeelCase[] = [
  ['10.3.2.12 table 46 (null propagation)', 'a + 1', { a: ['number', null] }, null],
  ['10.3.2.12 table 46 (null propagation)', 'a * b', { a: ['number', 2], b: ['number', null] }, null],
  ['10.3.2.12 table 46 (no value for mixed types)', 's + 1', { s: ['string', 'x'] }, null],
  ['10.3.2.12 table 46 (division by zero)', 'a / 0', { a: ['number', 1] }, null],
  ['10.3.2.3.1 (decimal numbers)', 'a + 0.2', { a: ['number', 0.1] }, 0.3],
  ['10.3.2.3.1 (decimal numbers)', 'a * 3', { a: ['number', 1.1] }, 3.3],
  ['10.3.2.9.3 (ternary logic)', 'a and b', { a: ['boolean', true], b: ['boolean', null] }, null],
  ['10.3.2.9.3 (ternary logic)', 'a and b', { a: ['boolean', false], b: ['boolean', null] }, false],
  ['10.3.2.9.3 (ternary logic)', 'a or b', { a: ['boolean', null], b: ['boolean', true] }, true],
  ['10.3.2.12 table 49 (comparison with null)', 'a < 1', { a: ['number', null] }, null],
  ['10.3.2.12 table 49 (equality with null)', 'a = null', { a: ['number', null] }, true],
  ['10.3.2.12 table 49 (if on null takes else)', 'if a > 1 then "y" else "n"', { a: ['number', null] }, 'n'],
  ['10.3.2.12 table 57 (date + years and months duration)', 'd + duration("P1M")', { d: ['date', '2024-01-31'] }, '2024-02-29'],
  [
    '10.3.2.12 table 57 (date and time - date and time)',
    'b - a',
    { a: ['date and time', '2024-01-01T08:00:00'], b: ['date and time', '2024-01-01T10:00:00'] },
    'PT2H',
  ],
  ['10.3.2.12 table 57 (duration * number)', 'p * 2', { p: ['days and time duration', 'PT1H30M'] }, 'PT3H'],
  ['10.3.2.12 table 57 (number * duration)', '3 * p', { p: ['years and months duration', 'P1Y2M'] }, 'P3Y6M'],
  ['10.3.2.12 table 57 (duration / number)', 'p / 2', { p: ['days and time duration', 'P1D'] }, 'PT12H'],
  ['10.3.2.12 table 57 (duration / duration)', 'p / duration("PT12H")', { p: ['days and time duration', 'P1D'] }, 2],
  ['10.3.2.12 table 57 (duration / duration of another kind)', 'p / duration("P1M")', { p: ['days and time duration', 'P1D'] }, null],
];

feelCases('DMN 1.3', CASES);

// DMN 1.3 section 10.3.2.9.4 in decision tables (section 8.3.3): a singleton list input is
// tested as its item, by the compiled cells as by feelin.
const singleton: Array<[cell: string, input: unknown, matches: boolean]> = [
  ['"A"', ['A'], true],
  ['"A","B"', ['B'], true],
  ['[1..5]', [3], true],
  ['< 5', [7], false],
  ['not("A")', ['A'], false],
  ['"A"', ['A', 'B'], false],
];
for (const [cell, input, matches] of singleton) {
  test(`DMN 1.3 section 10.3.2.9.4: the input entry ${cell} ${matches ? 'matches' : 'does not match'} ${JSON.stringify(input)}`, async (t) => {
    const model = await compiled({
      decisions: [
        {
          name: 'D',
          hitPolicy: 'FIRST',
          inputs: [{ expression: 'x' }],
          outputs: [{ name: 'm' }],
          rules: [
            [[cell], ['true']],
            [['-'], ['false']],
          ],
        },
      ],
    });
    const outcome = evaluate(model, { x: input });
    t.true(outcome.ok);
    if (outcome.ok) t.is(outcome.results.D, matches);
  });
}
