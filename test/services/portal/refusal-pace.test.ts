import test from 'ava';
import { createRefusalPace } from '../../../services/portal/refusal-pace.js';

// The clock is passed in: these check the mechanism, not how long anything took.
const options = { floorMs: 250, windowMs: 600_000, capMs: 3000, margin: 1.25 };

test('fast refusals are held to the floor', (t) => {
  const pace = createRefusalPace(options);
  t.is(pace.releaseAt(1000, 1005), 1250);
  t.is(pace.releaseAt(2000, 2100), 2250);
});

test('after a refusal slower than the floor (a known account hashing), every refusal is held to its pace: unknown, locked and known alike', (t) => {
  const pace = createRefusalPace(options);
  t.is(pace.releaseAt(0, 400), 500, 'known account, wrong password: 400 ms of hashing');
  t.is(pace.releaseAt(1000, 1003), 1500, 'locked account: refused before any hash');
  t.is(pace.releaseAt(2000, 2080), 2500, 'unknown account');
  t.is(pace.releaseAt(3000, 3390), 3500, 'known account again');
});

test('a slow refusal sets the pace for the window, then the floor is back', (t) => {
  const pace = createRefusalPace(options);
  pace.releaseAt(0, 800);
  t.is(pace.releaseAt(599_000, 599_010), 599_000 + 1000);
  t.is(pace.releaseAt(601_000, 601_010), 601_000 + 250);
});

test('no refusal is held past the cap, however slow one was', (t) => {
  const pace = createRefusalPace(options);
  t.is(pace.releaseAt(0, 10_000), 3000);
  t.is(pace.releaseAt(20_000, 20_005), 23_000);
});
