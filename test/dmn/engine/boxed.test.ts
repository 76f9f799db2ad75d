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
