import test from 'ava';
import { bootPortal, defaultFakes, SUBJECT } from './portal-fakes.js';

// The day each account last signed in (migration 007), which the newest terms acceptance is kept
// counted from: recorded by a sign-in that succeeded only, and written at most once a day.
const BOB = { username: 'bob@example.com', password: 'correct horse battery staple' };
const DAY_MS = 86_400_000;

test.serial('a sign-in records its day once: the same day writes nothing, the next day moves it on, a refused sign-in records nothing', async (t) => {
  let clock = Date.parse('2026-11-23T08:00:00.000Z');
  const refusing = defaultFakes();
  refusing.terms = {
    kind: 'published',
    terms: { version: 'v-days', textVi: 'Điều khoản', textEn: 'Terms', publishedAt: '2026-11-01T00:00:00.000Z' },
  };
  const portal = await bootPortal(t, refusing, {}, () => new Date(clock));
  const row = async () =>
    (
      await portal.db.query<{ day: string; version: string }>(
        "SELECT to_char(last_day, 'YYYY-MM-DD') AS day, xmin::text AS version FROM sign_in_days WHERE subject_id = $1",
        [SUBJECT],
      )
    )[0];

  t.is((await portal.post('/api/v1/auth/login', BOB)).status, 400, 'the terms are not accepted: refused');
  t.is(await row(), undefined, 'a refused sign-in records no day');

  const accepted = { ...BOB, acceptedTerms: 'v-days' };
  t.is((await portal.post('/api/v1/auth/login', accepted)).status, 200);
  const first = await row();
  t.is(first?.day, '2026-11-23');

  clock += 10 * 3_600_000;
  t.is((await portal.post('/api/v1/auth/login', BOB)).status, 200);
  t.deepEqual(await row(), first, 'a second sign-in the same day writes no row version');

  clock += DAY_MS;
  t.is((await portal.post('/api/v1/auth/login', BOB)).status, 200);
  t.is((await row())?.day, '2026-11-24');

  clock -= 3 * DAY_MS;
  t.is((await portal.post('/api/v1/auth/login', BOB)).status, 200);
  t.is((await row())?.day, '2026-11-24', 'a clock behind never moves the day back');
});
