import test from 'ava';
import { errorText, usedUpRenewal } from '../../../services/portal/ui/client/error-text.js';
import { checkPhone, checkPhoneCode } from '../../../services/portal/ui/client/form-validation.js';
import { resendWait } from '../../../services/portal/ui/client/resend-wait.js';

// The phone tab's rules that hold without a browser: which numbers and codes it sends, the texts
// its refusals get, and when "send again" may be pressed.

for (const typed of ['0912345678', '0912 345 678', '091-234-5678', '+84912345678', '+84 912 345 678', '0084912345678', '+44 20 7946 0958', '+840912345678']) {
  test(`the number step sends ${JSON.stringify(typed)}`, (t) => {
    t.is(checkPhone(typed), null);
  });
}

for (const typed of ['', '091234567', '09123456789', '0212345678', '0912a45678', '+84 212 345 678', '912345678', '(091) 234 5678', '+0912345678']) {
  test(`the number step names ${JSON.stringify(typed)} as not a mobile number before any call`, (t) => {
    t.is(checkPhone(typed), 'invalid.phone');
  });
}

for (const [typed, expected] of [
  ['482913', null],
  ['48291', 'invalid.phoneCode'],
  ['4829134', 'invalid.phoneCode'],
  ['48 913', 'invalid.phoneCode'],
  ['48291a', 'invalid.phoneCode'],
  ['', 'invalid.phoneCode'],
] as const) {
  test(`the code step ${expected === null ? 'sends' : 'names'} ${JSON.stringify(typed)}`, (t) => {
    t.is(checkPhoneCode(typed), expected);
  });
}

test('a 401 on the code step has its own one text, whatever the cause (wrong, expired, used, exhausted)', (t) => {
  t.is(errorText('phone', { status: 401, code: 'INVALID_CREDENTIALS' }), 'error.phoneCredentials');
  t.is(errorText('phone', { status: 401 }), 'error.phoneCredentials');
});

test('a 429 on either step says codes are limited per number and per network', (t) => {
  t.is(errorText('phoneCode', { status: 429, code: 'RATE_LIMITED' }), 'error.phoneRateLimited');
  t.is(errorText('phone', { status: 429, code: 'RATE_LIMITED' }), 'error.phoneRateLimited');
  t.is(errorText('voucher', { status: 429, code: 'RATE_LIMITED' }), 'error.RATE_LIMITED', 'other forms keep the general text');
});

test('a 503 on the code request says the text message was not sent; elsewhere a 503 is an unavailable service', (t) => {
  t.is(errorText('phoneCode', { status: 503, code: 'SERVICE_UNAVAILABLE' }), 'error.smsUnavailable');
  t.is(errorText('phone', { status: 503, code: 'SERVICE_UNAVAILABLE' }), 'error.unavailable');
  t.is(errorText('phoneCode', { status: 400, code: 'INVALID_REQUEST' }), 'error.INVALID_REQUEST');
});

test('send again waits the resendAfterSeconds the portal answered, counted from the answer', (t) => {
  const sentAt = 1_000_000;
  t.is(resendWait(sentAt, 60, sentAt), 60);
  t.is(resendWait(sentAt, 60, sentAt + 500), 60, 'a started second counts whole');
  t.is(resendWait(sentAt, 60, sentAt + 59_001), 1);
  t.is(resendWait(sentAt, 60, sentAt + 60_000), 0);
  t.is(resendWait(sentAt, 60, sentAt + 3_600_000), 0, 'never below zero');
  t.is(resendWait(sentAt, 0, sentAt), 0, 'no gap set: at once');
});

test('a sign-in refused with nothing left gets the used-up page with the renewal it names; other refusals stay on their form', (t) => {
  const renewsAt = '2026-11-28T00:00:00.000Z';
  t.is(usedUpRenewal({ status: 403, code: 'ALLOWANCE_USED_UP', body: { code: 'ALLOWANCE_USED_UP', renewsAt } }), renewsAt);
  t.is(usedUpRenewal({ status: 403, code: 'ENTITLEMENT_DENIED', body: { renewsAt } }), null);
  t.is(usedUpRenewal({ status: 403, code: 'ALLOWANCE_USED_UP', body: {} }), null, 'no renewal named: the form says it');
  t.is(usedUpRenewal({ status: 403, code: 'ALLOWANCE_USED_UP', body: { renewsAt: 'soon' } }), null);
});
