import test from 'ava';
import { batchBody, createBatch } from './contract/vouchers-contract.js';
import { BatchDetail, CreatedBatch, VouchersRevoked } from './contract/response-schemas.js';
import { memoryDriver } from './memory-driver.js';

// What only the in-memory host can show: the calls to the session service and Keycloak's sessions.

async function usedVoucherBatch() {
  const d = memoryDriver();
  const { batch, codes } = CreatedBatch.parse((await createBatch(d, batchBody(d, { count: 2 }))).body);
  const ids = BatchDetail.parse((await d.send({ method: 'GET', path: `/api/vouchers/batches/${batch.id}`, token: d.tokens.operator })).body).vouchers.map(
    (v) => v.id,
  );
  // The first voucher signed in once and holds a Keycloak session (as the authenticator leaves it).
  const used = d.realm.users.get(ids[0]!)!;
  used.attributes['voucher_uses'] = '1';
  used.attributes['voucher_first_use'] = new Date(d.nowMs()).toISOString();
  d.realm.sessions.set(used.id, 1);
  return { d, batch, codes, used: used.id, unused: ids[1]! };
}

test('revoking a used voucher ends its Keycloak sessions and its network sessions (the subject revoke, reason VOUCHER_REVOKED) and disables it', async (t) => {
  const { d, batch, used, unused } = await usedVoucherBatch();
  const reply = await d.send({ method: 'POST', path: `/api/vouchers/batches/${batch.id}/revoke`, token: d.tokens.operator, body: '{}' });
  const answer = VouchersRevoked.parse(reply.body);
  t.is(answer.revoked, 2);
  t.deepEqual(new Set(answer.voucherIds), new Set([used, unused]));
  t.deepEqual(
    d.realm.sessionCalls,
    [{ path: `/api/v1/subjects/${used}/revoke`, body: JSON.stringify({ reason: 'VOUCHER_REVOKED' }) }],
    'only the used voucher can hold a session',
  );
  t.is(d.realm.sessions.get(used), 0);
  for (const id of [used, unused]) {
    t.false(d.realm.users.get(id)!.enabled);
    t.is(d.realm.users.get(id)!.attributes['voucher_revoked'], 'true');
  }
});

test('when the session service cannot be reached the voucher is revoked all the same and the answer says the sessions end at expiry', async (t) => {
  const { d, batch, used } = await usedVoucherBatch();
  d.realm.http.postToSessions = () => ({ failure: 'unreachable' });
  const reply = await d.send({ method: 'POST', path: `/api/vouchers/batches/${batch.id}/vouchers/${used}/revoke`, token: d.tokens.operator, body: '{}' });
  t.is(reply.status, 200);
  t.regex(VouchersRevoked.parse(reply.body).review ?? '', /could not be ended.*expiry/);
  t.is(d.realm.users.get(used)!.attributes['voucher_revoked'], 'true');
});

test('no code of a batch reaches a log line, and the usernames are the codes keyed hashes', async (t) => {
  const { d, codes } = await usedVoucherBatch();
  const logs = JSON.stringify(d.realm.logs);
  for (const code of codes) {
    t.false(logs.includes(code));
    t.false(logs.includes(code.replace(/-/g, '')));
  }
  const stored = JSON.stringify([...d.realm.users.values(), [...d.realm.store.entries()]]);
  for (const code of codes) t.false(stored.includes(code.replace(/-/g, '')), 'no code in a user or the realm store');
  t.true([...d.realm.users.values()].filter((u) => u.attributes['user_type'] === 'VOUCHER').every((u) => /^voucher-[0-9a-f]{64}$/.test(u.username)));
});
