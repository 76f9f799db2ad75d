import test from 'ava';
import { compileXml, dmnXml, type ModelSpec, type TableSpec } from './dmn-xml.js';

const table = (overrides: Partial<TableSpec> = {}): TableSpec => ({
  hitPolicy: 'UNIQUE',
  inputs: [{ expression: 'Age', typeRef: 'number' }],
  outputs: [
    { name: 'band', typeRef: 'string', values: '"YOUNG","OLD"' },
    { name: 'weight', typeRef: 'number' },
  ],
  rules: [
    [['< 18'], ['"YOUNG"', '1']],
    [['>= 18'], ['"OLD"', '2']],
  ],
  ...overrides,
});

const model = (overrides: Partial<TableSpec> = {}): ModelSpec => ({ decisions: [table(overrides)] });

// [what is wrong, model, expected decision, rule, cell, message]
const cases: Array<[string, ModelSpec, string | null, number | null, string | null, RegExp]> = [
  ['an unknown hit policy', model({ hitPolicy: 'SOMETIMES' }), 'Decision', null, null, /unknown hit policy 'SOMETIMES'/],
  ['an aggregation without COLLECT', model({ hitPolicy: 'FIRST', aggregation: 'SUM' }), 'Decision', null, null, /needs hit policy COLLECT/],
  ['an aggregation over several outputs', model({ hitPolicy: 'COLLECT', aggregation: 'SUM' }), 'Decision', null, null, /needs exactly one output, not 2/],
  [
    'PRIORITY without output values',
    model({ hitPolicy: 'PRIORITY', outputs: [{ name: 'band' }, { name: 'weight' }] }),
    'Decision',
    null,
    null,
    /needs output values/,
  ],
  ['a rule with too few entries', model({ rules: [[['< 18'], ['"YOUNG"']]] }), 'Decision', 1, null, /has 1 input and 1 output entries; the table has 1 and 2/],
  [
    'a FEEL syntax error in an input entry',
    model({
      rules: [
        [['< 18'], ['"YOUNG"', '1']],
        [['[18..'], ['"OLD"', '2']],
      ],
    }),
    'Decision',
    2,
    "input 'Age'",
    /FEEL syntax error at character/,
  ],
  ['a FEEL syntax error in an output entry', model({ rules: [[['< 18'], ['"YOUNG"', '1 +']]] }), 'Decision', 1, "output 'weight'", /FEEL syntax error/],
  [
    'an unknown typeRef on an input',
    model({ inputs: [{ expression: 'Age', typeRef: 'integer' }] }),
    'Decision',
    null,
    "input 'Age'",
    /unknown typeRef 'integer'/,
  ],
  [
    'an unknown typeRef on an output',
    model({ outputs: [{ name: 'band', typeRef: 'text' }, { name: 'weight' }] }),
    'Decision',
    null,
    "output 'band'",
    /unknown typeRef 'text'/,
  ],
  [
    'a constant output of the wrong type',
    model({ rules: [[['< 18'], ['"YOUNG"', '"heavy"']]] }),
    'Decision',
    1,
    "output 'weight'",
    /a string does not conform to typeRef 'number'/,
  ],
  [
    'a constant output outside its output values',
    model({ rules: [[['< 18'], ['"MIDDLE"', '1']]] }),
    'Decision',
    1,
    "output 'band'",
    /not among the allowed values/,
  ],
  ['an unnamed output among several', model({ outputs: [{ name: 'band' }, {}] }), 'Decision', null, "output '2'", /needs a name/],
  ['an empty input expression', model({ inputs: [{ expression: ' ' }] }), 'Decision', null, "input '1'", /input expression is empty/],
  [
    'a requirement on a decision the model lacks',
    { decisions: [table({ name: 'A', requires: ['Missing'] })] },
    'A',
    null,
    null,
    /requires a decision '#decision_Missing'/,
  ],
  [
    'decisions that require each other',
    { decisions: [table({ name: 'A', requires: ['B'] }), table({ name: 'B', requires: ['A'] })] },
    null,
    null,
    null,
    /cycle: A -> B -> A/,
  ],
  [
    'a table reading a decision it does not require',
    { decisions: [table({ name: 'A' }), table({ name: 'B', inputs: [{ expression: 'A' }], rules: [[['-'], ['"OLD"', '1']]] })] },
    'B',
    null,
    null,
    /reads decision 'A' without an information requirement/,
  ],
  ['a decision named like an input', { inputData: [{ name: 'Decision' }], decisions: [table()] }, null, null, null, /the name 'Decision' is used twice/],
];

for (const [what, spec, decision, rule, cell, message] of cases) {
  test(`${what} fails to compile with the decision, rule and cell named`, async (t) => {
    const outcome = await compileXml(dmnXml(spec));
    if (outcome.ok) return t.fail('compiled');
    t.is(outcome.error.code, 'DMN_COMPILE_ERROR');
    t.is(outcome.error.decision, decision);
    t.is(outcome.error.rule, rule);
    t.is(outcome.error.cell, cell);
    t.regex(outcome.error.message, message);
  });
}

test('a decision whose literal expression has a FEEL syntax error is refused naming the decision and the expression', async (t) => {
  const xml = dmnXml({ decisions: [] }).replace(
    '</definitions>',
    '<decision id="d" name="Literal"><literalExpression><text>1 +* 2</text></literalExpression></decision></definitions>',
  );
  const outcome = await compileXml(xml);
  if (outcome.ok) return t.fail('compiled');
  t.is(outcome.error.decision, 'Literal');
  t.is(outcome.error.cell, 'literal expression');
  t.regex(outcome.error.message, /FEEL syntax error/);
});

test('a model without any decision does not compile', async (t) => {
  const outcome = await compileXml(dmnXml({ decisions: [] }));
  t.false(outcome.ok);
});
