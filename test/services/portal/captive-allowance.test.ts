import test from 'ava';
import { answer, bootPortal, cookieOf, sessionBody } from './portal-fakes.js';

// RFC 8908: `seconds-remaining` and `bytes-remaining` come from the same allowance counters the
// session read answers (`remaining`); with nothing left the caller is captive again.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const RENEWS = '2026-11-28T00:00:00.000Z';

const withRemaining = (remaining: unknown) =>
  answer(200, sessionBody({ state: 'GRANTED', expiresAt: new Date(Date.now() + 600_000).toISOString(), updatedAt: new Date().toISOString(), remaining }));

test("the captive API answers the allowance's time and data left, the session's own time when that is less", async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.read = withRemaining({ bytesRemaining: 5000, secondsRemaining: 120, renewsAt: RENEWS });
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: false, 'seconds-remaining': 120, 'bytes-remaining': 5000 });
  portal.fakes.read = withRemaining({ bytesRemaining: null, secondsRemaining: 86_000, renewsAt: RENEWS });
  const longer = (await portal.get('/api/captive', { cookie })).body;
  t.true((longer['seconds-remaining'] as number) <= 600, 'the session ends first');
  t.is(longer['bytes-remaining'], undefined, 'no data limit: no bytes-remaining');
});

test('with nothing left of the allowance the caller is captive', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.read = withRemaining({ bytesRemaining: 0, secondsRemaining: 120, renewsAt: RENEWS });
  t.deepEqual((await portal.get('/api/captive', { cookie })).body, { captive: true, 'user-portal-url': 'http://localhost:3000' });
});
