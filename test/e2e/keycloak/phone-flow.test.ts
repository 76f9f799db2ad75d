import { readFile } from 'node:fs/promises';
import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { KC_LOG } from './kc-files.js';
import { jwtClaims, lastSmsCode, phoneGrant, randomPhone, requireServices, smsFault } from './kc-client.js';

// The phone authenticator through the real Keycloak and the SMS catcher. These tests flip the
// catcher's fault mode, so they run serially in one file and restore `none` after each.
test.before(requireServices);
test.afterEach.always(() => smsFault('none'));

const INVALID = { error: 'invalid_grant', error_description: 'Invalid phone number or code' };

async function codeFor(phone: string): Promise<string> {
  return (
    (await waitFor(
      () => lastSmsCode(phone),
      (code) => code !== undefined,
      { timeoutMs: 5000 },
    )) ?? ''
  );
}

test.serial('a number gets a code by SMS; the code signs in once, creating a CUSTOMER account whose token carries the verified number', async (t) => {
  const phone = randomPhone();
  const asked = await phoneGrant({ phone: `0${phone.slice(3, 6)} ${phone.slice(6)}` });
  t.is(asked.status, 401, asked.text);
  t.deepEqual(asked.body, { error: 'code_sent', error_description: 'CODE_SENT', expires_in: 300, resend_after: 60 });
  const code = await codeFor(phone);
  const wrong = await phoneGrant({ phone, code: code === '000000' ? '000001' : '000000' });
  t.is(wrong.status, 401);
  t.deepEqual(wrong.body, INVALID);
  const signedIn = await phoneGrant({ phone, code });
  t.is(signedIn.status, 200, signedIn.text);
  t.like(jwtClaims(signedIn.body['access_token']), { user_type: 'CUSTOMER', phone_number: phone, phone_number_verified: true, azp: 'wifi-portal-phone-api' });
  t.regex(String(jwtClaims(signedIn.body['access_token'])['preferred_username']), /^phone-[0-9a-f-]{36}$/);
  const replayed = await phoneGrant({ phone, code });
  t.is(replayed.status, 401);
  t.deepEqual(replayed.body, INVALID, 'a used code looks like a wrong one');
  t.is((await phoneGrant({ phone })).status, 429, 'inside the resend gap');
});

test.serial('an SMS gateway that fails is 503 with nothing left behind; the next request goes out at once', async (t) => {
  const phone = randomPhone();
  await smsFault('unavailable');
  const failed = await phoneGrant({ phone });
  t.is(failed.status, 503, failed.text);
  t.is(failed.body['error'], 'sms_unavailable');
  t.is((await phoneGrant({ phone, code: '123456' })).status, 401);
  await smsFault('none');
  const again = await phoneGrant({ phone });
  t.is(again.status, 401, again.text);
  t.is(again.body['error'], 'code_sent', 'no resend gap was taken by the failed send');
  t.is((await phoneGrant({ phone, code: await codeFor(phone) })).status, 200);
});

test.serial('a phone number and its code never reach the Keycloak log', async (t) => {
  // The canary number is used by this test only.
  const phone = randomPhone();
  t.is((await phoneGrant({ phone })).body['error'], 'code_sent');
  const code = await codeFor(phone);
  t.is((await phoneGrant({ phone, code: '999999' === code ? '999998' : '999999' })).status, 401);
  t.is((await phoneGrant({ phone, code })).status, 200);
  const log = await waitFor(
    () => readFile(KC_LOG, 'utf8'),
    (text) => text.includes('phone sign-in user_id='),
    { timeoutMs: 10_000 },
  );
  for (const secret of [phone, phone.slice(1), `0${phone.slice(3)}`]) t.false(log.includes(secret), `${secret} in the Keycloak log`);
  // Six digits can occur by chance inside other text; the code alone as a word cannot.
  t.false(new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`).test(log), 'the code in the Keycloak log');
});
