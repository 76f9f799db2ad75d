import test from 'ava';
import type { LoadOutcome, Runtime } from '../../../dmn/model-directory.js';
import { createRuntimeHolder } from '../../../services/decision/runtime-holder.js';

const runtime = (tag: string): Runtime => ({ models: new Map(), loadedAt: tag });

/** A load whose end the test decides, to make reloads finish in a chosen order. */
function deferredLoads() {
  const pending: Array<(outcome: LoadOutcome) => void> = [];
  let running = 0;
  let overlapped = false;
  const load = () =>
    new Promise<LoadOutcome>((resolve) => {
      running += 1;
      if (running > 1) overlapped = true;
      pending.push((outcome) => {
        running -= 1;
        resolve(outcome);
      });
    });
  return { load, pending, overlapped: () => overlapped };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('reloads started together run one after another and the last one started is the one left serving', async (t) => {
  const loads = deferredLoads();
  const holder = createRuntimeHolder(loads.load);
  const first = holder.reload();
  const second = holder.reload();
  await tick();
  // Only the first load has started; the second waits for it.
  t.is(loads.pending.length, 1);
  loads.pending[0]!({ ok: true, runtime: runtime('first') });
  await first;
  t.is(holder.current()?.loadedAt, 'first');
  await tick();
  t.is(loads.pending.length, 2);
  loads.pending[1]!({ ok: true, runtime: runtime('second') });
  await second;
  t.is(holder.current()?.loadedAt, 'second');
  t.false(loads.overlapped());
});

test('a failed reload keeps the serving runtime and records why; the next success clears it', async (t) => {
  const outcomes: LoadOutcome[] = [
    { ok: true, runtime: runtime('good') },
    { ok: false, message: 'broken.dmn: bad' },
    { ok: true, runtime: runtime('better') },
  ];
  const holder = createRuntimeHolder(async () => outcomes.shift()!);
  await holder.reload();
  t.is((await holder.reload()).ok, false);
  t.is(holder.current()?.loadedAt, 'good');
  t.is(holder.lastFailure(), 'broken.dmn: bad');
  await holder.reload();
  t.is(holder.current()?.loadedAt, 'better');
  t.is(holder.lastFailure(), null);
});

test('a load that throws does not stop later reloads', async (t) => {
  let calls = 0;
  const holder = createRuntimeHolder(async () => {
    calls += 1;
    if (calls === 1) throw new Error('disk gone');
    return { ok: true, runtime: runtime('after') };
  });
  await t.throwsAsync(holder.reload());
  await holder.reload();
  t.is(holder.current()?.loadedAt, 'after');
});
