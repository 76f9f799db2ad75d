import { readFile } from 'node:fs/promises';
import test from 'ava';
import { batchBody, createBatch } from '../../kc-extension/svc-admin/contract/vouchers-contract.js';
import { BatchDetail, CreatedBatch } from '../../kc-extension/svc-admin/contract/response-schemas.js';
import { networkSession, PortalBrowser, stableError } from '../portal/portal-client.js';
import { kcDriver } from '../svc-admin/kc-driver.js';
import { KC_LOG } from './kc-files.js';
import { jwtClaims, requireServices, testAddress, voucherGrant } from './kc-client.js';

// The voucher authenticator through the real Keycloak, with vouchers made by svc-admin.
test.before(requireServices);
let shared: ReturnType<typeof kcDriver> | undefined;
const driver = () => (shared ??= kcDriver());
test.after.always(async () => {
  if (shared !== undefined) await (await shared).close();
});

const INVALID = { error: 'invalid_grant', error_description: 'Invalid voucher code' };
const HOUR_MS = 3_600_000;

async function batch(overrides: Record<string, unknown> = {}) {
  const d = await driver();
  const created = await createBatch(d, batchBody(d, overrides));
  if (created.status !== 201) throw new Error(`batch: ${created.status} ${JSON.stringify(created.body)}`);
  return { d, ...CreatedBatch.parse(created.body) };
}

test('a code typed in lower case with spaces signs in once as a VOUCHER; used up, it is the same 401 as a wrong code', async (t) => {
  const { codes } = await batch({ count: 1 });
  const code = codes[0]!;
  const signedIn = await voucherGrant(code.toLowerCase().replace(/-/g, ' '));
  t.is(signedIn.status, 200, signedIn.text);
  const claims = jwtClaims(signedIn.body['access_token']);
  t.like(claims, { user_type: 'VOUCHER', azp: 'wifi-portal-voucher-api' });
  t.regex(String(claims['preferred_username']), /^voucher-[0-9a-f]{64}$/);
  const again = await voucherGrant(code);
  t.is(again.status, 401);
  t.deepEqual(again.body, INVALID, 'used up');
  const wrong = await voucherGrant('ZZZZ-ZZZZ-ZZZZ');
  t.is(wrong.text, again.text, 'byte-identical to a wrong code');
  t.deepEqual((await voucherGrant('0000-OOOO-1111')).body, INVALID, 'malformed');
});

test('a shared voucher signs in once per device slot; the batch lists it ACTIVE then USED_UP', async (t) => {
  const { d, batch: made, codes } = await batch({ count: 1, shared: true, deviceSlots: 2 });
  t.is((await voucherGrant(codes[0]!)).status, 200);
  const state = async () =>
    BatchDetail.parse((await d.send({ method: 'GET', path: `/api/vouchers/batches/${made.id}`, token: d.tokens.operator })).body).vouchers[0];
  t.like(await state(), { state: 'ACTIVE', signIns: 1, signInsAllowed: 2 });
  t.is((await voucherGrant(codes[0]!)).status, 200);
  t.deepEqual((await voucherGrant(codes[0]!)).body, INVALID);
  t.like(await state(), { state: 'USED_UP', signIns: 2 });
});

test('a voucher not yet valid, and a revoked one, are the same 401', async (t) => {
  const later = await batch({
    count: 1,
    validFrom: new Date(Date.now() + HOUR_MS).toISOString(),
    validUntil: new Date(Date.now() + 2 * HOUR_MS).toISOString(),
  });
  t.deepEqual((await voucherGrant(later.codes[0]!)).body, INVALID);
  const { d, codes } = await batch({ count: 1 });
  const revoked = await d.send({
    method: 'POST',
    path: '/api/vouchers/revoke',
    token: d.tokens.operator,
    body: JSON.stringify({ code: codes[0] }),
    headers: { 'Content-Type': 'application/json' },
  });
  t.is(revoked.status, 200);
  t.deepEqual((await voucherGrant(codes[0]!)).body, INVALID);
});

test('codes tried from one client address are limited: the 11th within a minute is 429, another address goes on', async (t) => {
  const { codes } = await batch({ count: 1 });
  const address = testAddress();
  for (let attempt = 0; attempt < 10; attempt++) t.is((await voucherGrant('ZZZZ-ZZZZ-ZZZZ', { 'X-Forwarded-For': address })).status, 401);
  const limited = await voucherGrant(codes[0]!, { 'X-Forwarded-For': address });
  t.is(limited.status, 429);
  t.is(limited.body['error'], 'rate_limited');
  t.is((await voucherGrant(codes[0]!)).status, 200);
});

test('through the portal: a voucher signs in with a granted network session; revoking its batch ends that session; the code is in no log', async (t) => {
  const { d, batch: made, codes } = await batch({ count: 1 });
  const browser = new PortalBrowser();
  const signedIn = await browser.voucher(codes[0]!.toLowerCase());
  t.is(signedIn.status, 200, signedIn.text);
  t.like(signedIn.body, { authenticated: true, client: 'wifi-portal-voucher-api' });
  const sessionId = String((signedIn.body['session'] as Record<string, unknown>)['sessionId']);
  t.like(await networkSession(sessionId), { state: 'GRANTED' });
  const revoked = await d.send({ method: 'POST', path: `/api/vouchers/batches/${made.id}/revoke`, token: d.tokens.operator, body: '{}' });
  t.like(revoked, { status: 200, body: { revoked: 1 } });
  t.false('review' in (revoked.body as object), 'the session service answered');
  t.like(await networkSession(sessionId), { state: 'REVOKED' }, 'the network session ended with the voucher');
  const refused = await new PortalBrowser().voucher(codes[0]!);
  const wrong = await new PortalBrowser().voucher('ZZZZ-ZZZZ-ZZZZ');
  t.is(refused.status, 401);
  t.is(stableError(refused), stableError(wrong));
  const log = await readFile(KC_LOG, 'utf8');
  for (const code of codes) {
    t.false(log.includes(code));
    t.false(log.includes(code.replace(/-/g, '')));
  }
});
