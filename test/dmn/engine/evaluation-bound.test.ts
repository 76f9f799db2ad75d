import test from 'ava';
import { evaluate, loadModel, type CompiledModel } from '../../../dmn/engine/index.js';
import { literalModel } from './feel-case.js';

const model = async (expression: string, inputs: Record<string, [string, unknown]> = {}): Promise<CompiledModel> => {
  const loaded = await loadModel(literalModel(expression, inputs));
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
};

const message = (outcome: ReturnType<typeof evaluate>): string => (outcome.ok ? 'evaluated' : outcome.error.message);

// Pathological FEEL, sized to take well over ten times the 200 ms limit unbounded even on a quiet,
// fast machine (a run at a quiet moment finished the earlier, smaller sizes inside the limit), and
// seconds rather than hours, so that a broken bound fails here instead of hanging the run. The inner lists are built and
// dropped per step, so they take little memory.
const LOOP_OF_LOOPS = 'sum(for i in 1..3000 return sum(for j in 1..1000 return i * j))';
const RECURSION = '{ f: function(n) if n = 0 then 0 else 1 + f(n - 1) + f(n - 1), r: f(21) }.r';
const FLAT_LOOP = 'count(for i in 1..3000000 return i)';
const items = 1e12;
const bound = { timeLimitMs: 200, iterationItems: items };

for (const [what, expression] of [
  ['a loop of loops', LOOP_OF_LOOPS],
  ['an exponential recursion', RECURSION],
  ['a quantifier over loops', 'some x in 1..2 satisfies sum(for i in 1..1500 return sum(for j in 1..1000 return i * j)) < 0'],
  ['a loop whose steps do no arithmetic', FLAT_LOOP],
] as const) {
  test(`${what} stops at the time limit as DMN_EVALUATION_ERROR`, async (t) => {
    const outcome = evaluate(await model(expression), {}, undefined, bound);
    t.like(outcome, { ok: false, error: { code: 'DMN_EVALUATION_ERROR' } });
    t.regex(message(outcome), /longer than its limit of 200 ms/);
  });
}

test('a range larger than the item budget is refused before it is built', async (t) => {
  const outcome = evaluate(await model('count(for i in 1..20000 return i)'), {}, undefined, { timeLimitMs: 10_000, iterationItems: 10_000 });
  t.like(outcome, { ok: false, error: { code: 'DMN_EVALUATION_ERROR' } });
  t.regex(message(outcome), /more than 10000 items/);
});

test('a cartesian product of input lists counts every item it builds', async (t) => {
  // 30 + 30^2 + 30^3 items are iterated over; 10 + 10^2 + 10^3 are within the budget.
  const small = { timeLimitMs: 10_000, iterationItems: 10_000 };
  const list = Array.from({ length: 30 }, (_, i) => i);
  const compiled = await model('count(for i in L, j in L, k in L return 0)', { L: ['Any', list] });
  const refused = evaluate(compiled, { L: list }, undefined, small);
  t.like(refused, { ok: false, error: { code: 'DMN_EVALUATION_ERROR' } });
  t.regex(message(refused), /more than 10000 items/);
  t.like(evaluate(compiled, { L: list.slice(0, 10) }, undefined, small), { ok: true, results: { D: 1000 } });
});

test('loops within the bound evaluate as before, and an evaluation past it leaves the next one its own time', async (t) => {
  const ok = await model('for i in 1..3, j in L return i * j', { L: ['Any', [1, 10]] });
  t.like(evaluate(ok, { L: [1, 10] }, undefined, bound), { ok: true, results: { D: [1, 10, 2, 20, 3, 30] } });
  t.like(evaluate(await model(LOOP_OF_LOOPS), {}, undefined, bound), { ok: false });
  t.like(evaluate(ok, { L: [1, 10] }), { ok: true, results: { D: [1, 10, 2, 20, 3, 30] } });
  t.like(evaluate(await model('every x in [3, 2, 1] satisfies x > 0'), {}), { ok: true, results: { D: true } });
  t.like(evaluate(await model('for i in 3..1 return i'), {}), { ok: true, results: { D: [3, 2, 1] } });
});
