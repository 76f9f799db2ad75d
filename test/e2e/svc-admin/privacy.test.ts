import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { CANARY, postImport } from '../../kc-extension/svc-admin/contract/import-contract.js';
import { signedHeaders } from '../../kc-extension/svc-admin/contract/webhook-signing.js';
import { KC_LOG, filesContaining, keycloakDataFiles } from '../keycloak/kc-files.js';
import { kcDriver } from './kc-driver.js';

// Privacy (spec 2.10, 8): the canary citizen number, imported and sent through the webhook,
// reaches no response, event log entry, Keycloak database file or log.
test('the canary citizen number never reaches a response, the event log, the database or the log', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const code = uniqueCode('PV');
  const secret = 'privacy-secret-0123456789';
  await putCompany(d, code, { name: 'Privacy', secret });
  const employeeId = `PV-${randomUUID().slice(0, 8)}`;
  const replies = [
    await postImport(d, 'preview', { company: code, rows: [{ employeeId, citizenId: CANARY }] }),
    await postImport(d, 'commit', { company: code, rows: [{ employeeId, citizenId: CANARY }] }),
  ];
  const body = Buffer.from(JSON.stringify({ type: 'EMPLOYEE_SUSPENDED', employeeRef: employeeId, citizenId: CANARY, note: `cccd ${CANARY}` }));
  replies.push(await d.send({ method: 'POST', path: `/webhook/${code}`, body, headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)) }));
  replies.push(await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } }));
  // APPLIED on a fresh realm; NO_MATCH on a re-run, where the committed row was a CONFLICT on the earlier link.
  t.is(replies[2]!.status, 200);
  for (const reply of replies) t.false(JSON.stringify(reply).includes(CANARY));
  t.deepEqual(await filesContaining(await keycloakDataFiles(), CANARY), []);
  t.deepEqual(await filesContaining([KC_LOG], CANARY), []);
});
