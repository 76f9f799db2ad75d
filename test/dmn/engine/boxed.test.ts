import test from 'ava';
import { evaluate, loadModel } from '../../../dmn/engine/index.js';
import { BOXED_CASES } from './boxed-cases.js';

const wrap = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="defs" name="Boxed" namespace="urn:test">${body}</definitions>`;

for (const c of BOXED_CASES) {
  test(`DMN 1.3 section ${c.section}: ${c.title}`, async (t) => {
    const model = await loadModel(wrap(c.xml));
    if ('compile' in c.expect) {
      if (model.ok) return t.fail('compiled');
      return t.regex(model.error.message, c.expect.compile);
    }
    if (!model.ok) return t.fail(JSON.stringify(model.error));
    const outcome = evaluate(model.value, c.inputs, 'D');
    if ('error' in c.expect) {
      if (outcome.ok) return t.fail(`evaluated to ${JSON.stringify(outcome.results)}`);
      t.is(outcome.error.code, 'DMN_EVALUATION_ERROR');
      t.is(outcome.error.decision, 'D');
      t.regex(outcome.error.message, c.expect.error);
      if (c.expect.cell !== undefined) t.true(outcome.error.cell?.startsWith(c.expect.cell), String(outcome.error.cell));
      return;
    }
    if (!outcome.ok) return t.fail(JSON.stringify(outcome.error));
    t.deepEqual(outcome.results.D, c.expect.value);
    if ('problem' in c.expect) {
      t.is(outcome.problems?.length, 1);
      t.regex(outcome.problems?.[0]?.message ?? '', c.expect.problem);
    } else t.is(outcome.problems, undefined);
  });
}

test('DMN 1.3 section 10.4: a decision service asked for by name answers its output decisions', async (t) => {
  const xml = wrap(
    `<inputData id="i_x" name="x"><variable name="x" typeRef="number"/></inputData>` +
      `<decision id="d_A" name="A"><variable name="A"/><informationRequirement><requiredInput href="#i_x"/></informationRequirement><literalExpression><text>x + 1</text></literalExpression></decision>` +
      `<decision id="d_B" name="B"><variable name="B"/><informationRequirement><requiredDecision href="#d_A"/></informationRequirement><literalExpression><text>A * 2</text></literalExpression></decision>` +
      `<decisionService id="s" name="Svc"><variable name="Svc"/><outputDecision href="#d_B"/><encapsulatedDecision href="#d_A"/><inputData href="#i_x"/></decisionService>`,
  );
  const model = await loadModel(xml);
  if (!model.ok) return t.fail(JSON.stringify(model.error));
  t.deepEqual(evaluate(model.value, { x: 2 }, 'Svc'), { ok: true, results: { B: 6 } });
});

test('DMN 1.3 section 10.4: a decision service with an input decision takes that decision as a parameter', async (t) => {
  const xml = wrap(
    `<inputData id="i_x" name="x"><variable name="x" typeRef="number"/></inputData>` +
      `<decision id="d_A" name="A"><variable name="A"/><informationRequirement><requiredInput href="#i_x"/></informationRequirement><literalExpression><text>x + 1</text></literalExpression></decision>` +
      `<decision id="d_B" name="B"><variable name="B"/><informationRequirement><requiredDecision href="#d_A"/></informationRequirement><literalExpression><text>A * 2</text></literalExpression></decision>` +
      `<decisionService id="s" name="Svc"><variable name="Svc"/><outputDecision href="#d_B"/><inputDecision href="#d_A"/></decisionService>` +
      `<decision id="d_D" name="D"><variable name="D"/><knowledgeRequirement><requiredKnowledge href="#s"/></knowledgeRequirement><literalExpression><text>Svc(10)</text></literalExpression></decision>`,
  );
  const model = await loadModel(xml);
  if (!model.ok) return t.fail(JSON.stringify(model.error));
  t.like(evaluate(model.value, { x: 0 }, 'D'), { ok: true, results: { D: 20 } });
});

const v15 = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20230324/DMNDI/" xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/" id="defs" name="V15" namespace="urn:test">${body}</definitions>`;
const namespaceCases: Array<[title: string, xml: string, expect: RegExp | unknown]> = [
  [
    'a DMN 1.5 document of 1.3 constructs evaluates',
    v15(`<decision id="d" name="D"><variable name="D"/><literalExpression><text>1 + 1</text></literalExpression></decision>`),
    2,
  ],
  [
    'DMNDI 1.5 with elements DMN 1.3 does not know is ignored',
    v15(
      `<decision id="d" name="D"><variable name="D"/><literalExpression><text>"ok"</text></literalExpression></decision><dmndi:DMNDI><dmndi:DMNDiagram><dmndi:DMNNewThing/><dmndi:DMNShape dmnElementRef="d"><dc:Bounds x="1" y="1" width="1" height="1"/></dmndi:DMNShape></dmndi:DMNDiagram></dmndi:DMNDI>`,
    ),
    'ok',
  ],
  [
    'an element neither DMN 1.3 nor the DMN 1.5 boxed expressions know fails the load naming it',
    v15(`<decision id="d" name="D"><variable name="D"/><sieve/></decision>`),
    /element <sieve> is not a DMN 1\.3 construct \(the document is DMN 1\.5\)/,
  ],
];
for (const [title, xml, expect] of namespaceCases) {
  test(`namespaces: ${title}`, async (t) => {
    const model = await loadModel(xml);
    if (expect instanceof RegExp) {
      if (model.ok) return t.fail('loaded');
      t.is(model.error.code, 'DMN_PARSE_ERROR');
      return t.regex(model.error.message, expect);
    }
    if (!model.ok) return t.fail(JSON.stringify(model.error));
    t.deepEqual(evaluate(model.value, {}), { ok: true, results: { D: expect as never } });
  });
}
