import test from 'ava';
import { decide, type TableSpec } from './dmn-xml.js';

// Tables modelled on the examples of the DMN 1.3 specification, section 8.2.

// Single hit, UNIQUE: the discount table (customer type and order size).
const discount = (hitPolicy?: string): TableSpec => ({
  ...(hitPolicy === undefined ? {} : { hitPolicy }),
  inputs: [
    { expression: 'Customer', typeRef: 'string' },
    { expression: 'OrderSize', typeRef: 'number' },
  ],
  outputs: [{ typeRef: 'number' }],
  rules: [
    [['"Business"', '< 10'], ['0.10']],
    [['"Business"', '>= 10'], ['0.15']],
    [['"Private"', '-'], ['0.05']],
  ],
});

// The same table with a careless second rule that overlaps the first.
const overlappingDiscount: TableSpec = {
  ...discount('UNIQUE'),
  rules: [
    [['"Business"', '< 10'], ['0.10']],
    [['"Business"', '<= 10'], ['0.15']],
    [['"Private"', '-'], ['0.05']],
  ],
};

// Single hit, ANY: eligibility, where overlapping rules must agree.
const eligibility = (secondRuleOutput: string): TableSpec => ({
  hitPolicy: 'ANY',
  inputs: [
    { expression: 'Age', typeRef: 'number' },
    { expression: 'MedicalHistory', typeRef: 'string' },
  ],
  outputs: [{ typeRef: 'string' }],
  rules: [
    [['< 18', '-'], ['"INELIGIBLE"']],
    [['-', '"bad"'], [secondRuleOutput]],
    [['>= 18', '"good"'], ['"ELIGIBLE"']],
  ],
});

// Multiple outputs with output value lists: the routing rules (PRIORITY, OUTPUT ORDER, RULE ORDER, COLLECT).
const routing = (hitPolicy: string): TableSpec => ({
  hitPolicy,
  inputs: [
    { expression: 'Age', typeRef: 'number' },
    { expression: 'RiskCategory', typeRef: 'string' },
    { expression: 'DebtReview', typeRef: 'boolean' },
  ],
  outputs: [
    { name: 'Routing', typeRef: 'string', values: '"DECLINE","REFER","ACCEPT"' },
    { name: 'ReviewLevel', typeRef: 'string', values: '"LEVEL 2","LEVEL 1","NONE"' },
    { name: 'Reason', typeRef: 'string' },
  ],
  rules: [
    [
      ['-', '-', '-'],
      ['"ACCEPT"', '"NONE"', '"Acceptable"'],
    ],
    [
      ['< 18', '-', '-'],
      ['"DECLINE"', '"NONE"', '"Applicant too young"'],
    ],
    [
      ['-', '"HIGH"', '-'],
      ['"REFER"', '"LEVEL 1"', '"High risk application"'],
    ],
    [
      ['-', '-', 'true'],
      ['"REFER"', '"LEVEL 2"', '"Applicant under debt review"'],
    ],
  ],
});

const ACCEPT = { Routing: 'ACCEPT', ReviewLevel: 'NONE', Reason: 'Acceptable' };
const DECLINE = { Routing: 'DECLINE', ReviewLevel: 'NONE', Reason: 'Applicant too young' };
const HIGH_RISK = { Routing: 'REFER', ReviewLevel: 'LEVEL 1', Reason: 'High risk application' };
const DEBT_REVIEW = { Routing: 'REFER', ReviewLevel: 'LEVEL 2', Reason: 'Applicant under debt review' };

// COLLECT with aggregation: holidays, each matching rule adding days.
const holidays = (aggregation?: string): TableSpec => ({
  hitPolicy: 'COLLECT',
  ...(aggregation === undefined ? {} : { aggregation }),
  inputs: [
    { expression: 'Age', typeRef: 'number' },
    { expression: 'YearsOfService', typeRef: 'number' },
  ],
  outputs: [{ typeRef: 'number' }],
  rules: [
    [['-', '-'], ['22']],
    [['< 18, >= 60', '-'], ['5']],
    [['-', '>= 30'], ['5']],
    [['[45..60)', '[15..30)'], ['2']],
  ],
});

const YOUNG = { Age: 16, YearsOfService: 1 };
const SENIOR = { Age: 60, YearsOfService: 35 };
const MIDDLE = { Age: 50, YearsOfService: 20 };

const cases: Array<[string, TableSpec, Record<string, unknown>, unknown]> = [
  ['UNIQUE returns the only matching rule', discount('UNIQUE'), { Customer: 'Business', OrderSize: 12 }, 0.15],
  ['UNIQUE is the default hit policy', discount(), { Customer: 'Private', OrderSize: 3 }, 0.05],
  ['UNIQUE with no matching rule returns null', discount('UNIQUE'), { Customer: 'Government', OrderSize: 3 }, null],
  ['FIRST returns the first matching rule in table order', { ...overlappingDiscount, hitPolicy: 'FIRST' }, { Customer: 'Business', OrderSize: 9 }, 0.1],
  ['ANY returns the shared output when overlapping rules agree', eligibility('"INELIGIBLE"'), { Age: 16, MedicalHistory: 'bad' }, 'INELIGIBLE'],
  ['ANY with a single match returns it', eligibility('"INELIGIBLE"'), { Age: 30, MedicalHistory: 'good' }, 'ELIGIBLE'],
  [
    'PRIORITY returns the match whose first output ranks highest in its output values',
    routing('PRIORITY'),
    { Age: 16, RiskCategory: 'HIGH', DebtReview: true },
    DECLINE,
  ],
  ['PRIORITY breaks a tie on the first output by the next output', routing('PRIORITY'), { Age: 30, RiskCategory: 'HIGH', DebtReview: true }, DEBT_REVIEW],
  [
    'PRIORITY falls back to the lowest-priority match when nothing else matches',
    routing('PRIORITY'),
    { Age: 30, RiskCategory: 'LOW', DebtReview: false },
    ACCEPT,
  ],
  [
    'OUTPUT ORDER lists all matches by decreasing priority',
    routing('OUTPUT ORDER'),
    { Age: 16, RiskCategory: 'HIGH', DebtReview: true },
    [DECLINE, DEBT_REVIEW, HIGH_RISK, ACCEPT],
  ],
  [
    'RULE ORDER lists all matches in rule order',
    routing('RULE ORDER'),
    { Age: 16, RiskCategory: 'HIGH', DebtReview: true },
    [ACCEPT, DECLINE, HIGH_RISK, DEBT_REVIEW],
  ],
  [
    'COLLECT without aggregation lists the outputs of all matches',
    routing('COLLECT'),
    { Age: 30, RiskCategory: 'HIGH', DebtReview: false },
    [ACCEPT, HIGH_RISK],
  ],
  ['COLLECT lists single outputs as bare values', holidays(), YOUNG, [22, 5]],
  ['COLLECT SUM adds the outputs of all matches, equal outputs included', holidays('SUM'), SENIOR, 32],
  ['COLLECT MIN returns the smallest output', holidays('MIN'), MIDDLE, 2],
  ['COLLECT MAX returns the largest output', holidays('MAX'), SENIOR, 22],
  ['COLLECT COUNT returns the number of matches', holidays('COUNT'), SENIOR, 3],
];

for (const [title, table, inputs, expected] of cases) {
  test(title, async (t) => {
    t.deepEqual(await decide(table, inputs), expected);
  });
}

const empty: TableSpec = {
  hitPolicy: 'COLLECT',
  inputs: [{ expression: 'Age', typeRef: 'number' }],
  outputs: [{ typeRef: 'number' }],
  rules: [[['> 100'], ['1']]],
};

const emptyCases: Array<[string, TableSpec, unknown]> = [
  ['COLLECT with no match returns an empty list', empty, []],
  ['COLLECT SUM with no match returns null', { ...empty, aggregation: 'SUM' }, null],
  ['COLLECT MIN with no match returns null', { ...empty, aggregation: 'MIN' }, null],
  ['COLLECT COUNT with no match returns zero', { ...empty, aggregation: 'COUNT' }, 0],
];

for (const [title, table, expected] of emptyCases) {
  test(title, async (t) => {
    t.deepEqual(await decide(table, { Age: 30 }), expected);
  });
}

const errorCases: Array<[string, TableSpec, Record<string, unknown>, RegExp]> = [
  [
    'UNIQUE with two matching rules is an evaluation error naming both',
    overlappingDiscount,
    { Customer: 'Business', OrderSize: 9 },
    /UNIQUE, but rules 1, 2 all match/,
  ],
  ['ANY with matching rules that disagree is an evaluation error', eligibility('"REVIEW"'), { Age: 16, MedicalHistory: 'bad' }, /ANY.*rules 1, 2.*disagree/],
  [
    'COLLECT SUM over a string output is an evaluation error',
    { ...holidays('SUM'), outputs: [{}], rules: [[['-', '-'], ['"many"']]] },
    SENIOR,
    /SUM cannot aggregate a string/,
  ],
];

for (const [title, table, inputs, message] of errorCases) {
  test(title, async (t) => {
    const outcome = (await decide(table, inputs)) as { error: { code: string; decision: string; message: string } };
    t.is(outcome.error.code, 'DMN_EVALUATION_ERROR');
    t.is(outcome.error.decision, 'Decision');
    t.regex(outcome.error.message, message);
  });
}

test('default output entries stand in when no rule matches', async (t) => {
  const table: TableSpec = {
    hitPolicy: 'FIRST',
    inputs: [{ expression: 'Customer', typeRef: 'string' }],
    outputs: [
      { name: 'discount', typeRef: 'number', default: '0' },
      { name: 'note', typeRef: 'string' },
    ],
    rules: [[['"Business"'], ['0.1', '"business rate"']]],
  };
  t.deepEqual(await decide(table, { Customer: 'Private' }), { discount: 0, note: null });
  t.deepEqual(await decide(table, { Customer: 'Business' }), { discount: 0.1, note: 'business rate' });
});
