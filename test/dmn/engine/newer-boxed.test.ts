import test from 'ava';
import { evaluate, loadModel } from '../../../dmn/engine/index.js';

// The boxed expressions DMN 1.4 added (DMN 1.5 sections 10.2.2.x: conditional,
// iterators, filter), with FEEL's semantics (DMN 1.3 section 10.3.2.14). One line per case:
// the section, the boxed expression as DMN 1.5 XML, the input `x`, the expected result (or the
// load error).
const lit = (text: string) => `<literalExpression><text>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></literalExpression>`;
const model = (namespace: string, logic: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="${namespace}" id="m" name="M" namespace="urn:test:newer">` +
  `<inputData id="x" name="x"><variable name="x"/></inputData>` +
  `<decision id="d" name="D"><variable name="D"/><informationRequirement><requiredInput href="#x"/></informationRequirement>${logic}</decision></definitions>`;
const V15 = 'https://www.omg.org/spec/DMN/20230324/MODEL/';
const V14 = 'https://www.omg.org/spec/DMN/20211108/MODEL/';

const cases: Array<[section: string, namespace: string, logic: string, x: unknown, expected: unknown]> = [
  ['10.2.2 conditional, true', V15, `<conditional><if>${lit('x > 1')}</if><then>${lit('"big"')}</then><else>${lit('"small"')}</else></conditional>`, 2, 'big'],
  [
    '10.2.2 conditional, null condition takes else',
    V15,
    `<conditional><if>${lit('x > 1')}</if><then>${lit('"big"')}</then><else>${lit('"small"')}</else></conditional>`,
    null,
    'small',
  ],
  ['10.2.2 conditional in DMN 1.4', V14, `<conditional><if>${lit('x')}</if><then>${lit('1')}</then><else>${lit('2')}</else></conditional>`, true, 1],
  [
    '10.2.2 conditional, branch a context',
    V15,
    `<conditional><if>${lit('true')}</if><then><context><contextEntry><variable name="a"/>${lit('x + 1')}</contextEntry></context></then><else>${lit('null')}</else></conditional>`,
    1,
    { a: 2 },
  ],
  ['10.2.2 for over a list', V15, `<for iteratorVariable="i"><in>${lit('x')}</in><return>${lit('i * 2')}</return></for>`, [1, 2, 3], [2, 4, 6]],
  ['10.2.2 for over a range (10.3.2.14)', V15, `<for iteratorVariable="i"><in>${lit('[1..x]')}</in><return>${lit('i * i')}</return></for>`, 3, [1, 4, 9]],
  [
    '10.2.2 for over dates',
    V15,
    `<for iteratorVariable="d"><in>${lit('x')}</in><return>${lit('date(d) + duration("P1D")')}</return></for>`,
    ['2024-02-28', '2024-12-31'],
    ['2024-02-29', '2025-01-01'],
  ],
  ['10.2.2 for over null', V15, `<for iteratorVariable="i"><in>${lit('x')}</in><return>${lit('i')}</return></for>`, null, null],
  ['10.2.2 some', V15, `<some iteratorVariable="i"><in>${lit('x')}</in><satisfies>${lit('i > 2')}</satisfies></some>`, [1, 3], true],
  ['10.2.2 some, none', V15, `<some iteratorVariable="i"><in>${lit('x')}</in><satisfies>${lit('i > 5')}</satisfies></some>`, [1, 3], false],
  ['10.2.2 every', V15, `<every iteratorVariable="i"><in>${lit('x')}</in><satisfies>${lit('i > 0')}</satisfies></every>`, [1, 3], true],
  ['10.2.2 every, one null', V15, `<every iteratorVariable="i"><in>${lit('x')}</in><satisfies>${lit('i > 0')}</satisfies></every>`, [1, null], false],
  ['10.2.2 filter on item', V15, `<filter><in>${lit('x')}</in><match>${lit('item >= 2')}</match></filter>`, [1, 2, 3], [2, 3]],
  [
    "10.2.2 filter on a context item's entries",
    V15,
    `<filter><in>${lit('x')}</in><match>${lit('age >= 18')}</match></filter>`,
    [{ age: 17 }, { age: 30 }],
    [{ age: 30 }],
  ],
  [
    '10.2.2 filter, then list replace (DMN 1.5 10.3.4.4)',
    V15,
    `<context><contextEntry><variable name="f"/><filter><in>${lit('x')}</in><match>${lit('item > 1')}</match></filter></contextEntry><contextEntry>${lit('list replace(f, 1, 0)')}</contextEntry></context>`,
    [1, 2, 3],
    [0, 3],
  ],
  [
    '10.2.2 filter without its in part',
    V15,
    `<filter><match>${lit('true')}</match></filter>`,
    [],
    { compile: 'filter', message: "the 'in' part has no expression" },
  ],
  [
    '10.2.2 for without iteratorVariable',
    V15,
    `<for><in>${lit('x')}</in><return>${lit('1')}</return></for>`,
    [],
    { compile: 'for iterator', message: 'the for iterator has no iteratorVariable' },
  ],
  [
    '10.2.2 a FEEL error inside a branch names decision and expression',
    V15,
    `<conditional><if>${lit('true')}</if><then>${lit('y + 1')}</then><else>${lit('1')}</else></conditional>`,
    1,
    { evaluation: "conditional, 'then'" },
  ],
];

for (const [section, namespace, logic, x, expected] of cases) {
  test(`DMN 1.5 section ${section}: x = ${JSON.stringify(x)} gives ${JSON.stringify(expected)}`, async (t) => {
    const loaded = await loadModel(model(namespace, logic));
    const failure =
      typeof expected === 'object' && expected !== null && !Array.isArray(expected)
        ? (expected as Partial<Record<'compile' | 'message' | 'evaluation', string>>)
        : {};
    if (failure.compile !== undefined) {
      if (loaded.ok) return t.fail('loaded');
      t.is(loaded.error.code, 'DMN_COMPILE_ERROR');
      t.is(loaded.error.cell, failure.compile);
      return t.is(loaded.error.message, failure.message ?? '');
    }
    if (!loaded.ok) return t.fail(JSON.stringify(loaded.error));
    const outcome = evaluate(loaded.value, { x });
    if (failure.evaluation !== undefined) {
      if (outcome.ok) return t.fail(JSON.stringify(outcome.results));
      t.is(outcome.error.decision, 'D');
      return t.is(outcome.error.cell, failure.evaluation);
    }
    if (!outcome.ok) return t.fail(JSON.stringify(outcome.error));
    t.deepEqual(outcome.results.D, expected);
  });
}
