import { readFileSync } from 'node:fs';
import test from 'ava';
import { allowanceFacts } from '../../../services/portal/ui/client/allowance.js';

// The signed-in page shows the allowance the session read answers: time and data left of the
// period (a row hidden for no limit) and when it renews, in both languages.
const RENEWS = '2026-11-28T00:00:00.000Z';

test('time and data left are shown as the page shows time and data used; a null amount (no limit) has no row', (t) => {
  t.deepEqual(allowanceFacts({ bytesRemaining: 1_500_000_000, secondsRemaining: 5400, renewsAt: RENEWS }, 'en'), {
    time: '1:30:00',
    data: '1.5 GB',
    renews: new Date(RENEWS).toLocaleString('en-GB', { weekday: 'short', hour: '2-digit', minute: '2-digit' }),
  });
  t.like(allowanceFacts({ bytesRemaining: null, secondsRemaining: 60, renewsAt: RENEWS }, 'en'), { time: '0:01:00', data: null });
  t.is(allowanceFacts(null, 'en'), undefined, 'no allowance: nothing shown');
  t.is(allowanceFacts(undefined, 'en'), undefined);
});

test('the renewal is worded in the reader language', (t) => {
  const vi = allowanceFacts({ bytesRemaining: 0, secondsRemaining: 0, renewsAt: RENEWS }, 'vi');
  t.is(vi?.renews, new Date(RENEWS).toLocaleString('vi-VN', { weekday: 'short', hour: '2-digit', minute: '2-digit' }));
});

test("the page's allowance labels exist in both languages", (t) => {
  for (const lang of ['en', 'vi']) {
    const messages = JSON.parse(readFileSync(new URL(`../../../services/portal/ui/i18n/${lang}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    for (const key of ['signedIn.allowanceTime', 'signedIn.allowanceData', 'signedIn.allowanceRenews'])
      t.true((messages[key] ?? '').length > 0, `${lang} ${key}`);
  }
});
