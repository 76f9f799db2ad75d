import test from 'ava';
import { parseModel } from '../../../dmn/engine/index.js';
import { dmnXml } from './dmn-xml.js';

const DMN13 = 'https://www.omg.org/spec/DMN/20191111/MODEL/';

const broken: Array<[string, string, RegExp]> = [
  ['XML that is not well formed', `<definitions xmlns="${DMN13}" id="d" name="D"><decision`, /unparsable content/],
  ['text that is not XML at all', 'not xml', /unparsable content/],
  [
    'a DMN 1.2 document',
    '<definitions xmlns="http://www.omg.org/spec/DMN/20180521/MODEL/" id="d" name="D" namespace="x"/>',
    /failed to parse document as <dmn:Definitions>/,
  ],
  [
    'an element DMN 1.3 does not have',
    `<definitions xmlns="${DMN13}" id="d" name="D" namespace="x"><decision id="a" name="A"><rules/></decision></definitions>`,
    /unknown type <dmn:Rules>/,
  ],
];

for (const [what, xml, message] of broken) {
  test(`${what} is a parse error on one line`, async (t) => {
    const outcome = await parseModel(xml);
    if (outcome.ok) return t.fail('parsed');
    t.is(outcome.error.code, 'DMN_PARSE_ERROR');
    t.regex(outcome.error.message, message);
    t.false(outcome.error.message.includes('\n'));
  });
}

test('a model reads as plain data: inputs, decisions, requirements and table text', async (t) => {
  const xml = dmnXml({
    name: 'Shop',
    inputData: [{ name: 'age', typeRef: 'number' }],
    decisions: [
      {
        name: 'Base',
        reads: ['age'],
        inputs: [{ expression: 'age', typeRef: 'number', values: '[0..150]' }],
        outputs: [{ typeRef: 'string', default: '"none"' }],
        rules: [[['< 18'], ['"minor"']]],
      },
      {
        name: 'Final',
        requires: ['Base'],
        hitPolicy: 'COLLECT',
        aggregation: 'COUNT',
        inputs: [{ expression: 'Base' }],
        outputs: [{ name: 'n' }],
        rules: [[['-'], ['1']]],
      },
    ],
  });
  const outcome = await parseModel(xml);
  if (!outcome.ok) return t.fail(outcome.error.message);
  t.like(outcome.value, {
    name: 'Shop',
    inputs: [{ id: 'input_age', name: 'age', typeRef: 'number' }],
    decisions: [
      {
        name: 'Base',
        requiredInputs: ['input_age'],
        requiredDecisions: [],
        table: {
          hitPolicy: 'UNIQUE',
          aggregation: null,
          inputs: [{ expression: 'age', typeRef: 'number', allowedValues: '[0..150]' }],
          outputs: [{ name: null, typeRef: 'string', defaultValue: '"none"' }],
          rules: [{ inputEntries: ['< 18'], outputEntries: ['"minor"'] }],
        },
      },
      { name: 'Final', requiredDecisions: ['decision_Base'], table: { hitPolicy: 'COLLECT', aggregation: 'COUNT' } },
    ],
  });
});
