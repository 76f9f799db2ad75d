import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { employeeGrant, jwtClaims } from '../keycloak/kc-client.js';
import { filesContaining, filesUnder, KC_LOG, keycloakDataFiles } from '../keycloak/kc-files.js';
import { freshEmail, PortalBrowser } from './portal-client.js';

// Spec 1 privacy: a citizen number or password never reaches a log, a store, a token or a
// response. Every flow runs with a canary citizen number (CANARY-01's) and a canary password;
// then every log, store file, token and response is searched.
const CANARY_CITIZEN = '987650001234';
const CANARY_PASSWORD = `canary-pw-${Date.now().toString(36)}`;
// A voucher code's shape (contract/voucher.ts), tried as typed in three spellings: no voucher has it.
const CANARY_VOUCHER = 'CANA-RY23-VCHR';

test('a canary citizen number, password and voucher code appear in no response, token, log or store file', async (t) => {
  const texts: string[] = [];
  const keep = <R extends { text: string }>(reply: R): R => {
    texts.push(reply.text);
    return reply;
  };
  const employee = new PortalBrowser();
  t.is(keep(await employee.employee('CANARY-01', CANARY_CITIZEN)).status, 200);
  keep(await employee.session());
  keep(await employee.refresh());
  keep(await employee.logout());
  keep(await new PortalBrowser().employee('CANARY-01', `${CANARY_CITIZEN}9`));
  keep(await new PortalBrowser().employee('A-1001', CANARY_CITIZEN));
  keep(await new PortalBrowser().employee('CANARY-01', CANARY_CITIZEN, { 'X-Correlation-ID': `corr-${CANARY_CITIZEN}` }));

  const email = freshEmail('canary');
  const customer = new PortalBrowser();
  t.is(keep(await customer.register(email, CANARY_PASSWORD, 'Canary Guest')).status, 200);
  keep(await new PortalBrowser().login(email, CANARY_PASSWORD));
  keep(await new PortalBrowser().login(email, `${CANARY_PASSWORD}-wrong`));
  keep(await customer.logout());
  for (const typed of [CANARY_VOUCHER, CANARY_VOUCHER.toLowerCase(), CANARY_VOUCHER.replace(/-/g, ' ')])
    t.is(keep(await new PortalBrowser().voucher(typed)).status, 401);

  const token = await employeeGrant('CANARY-01', CANARY_CITIZEN);
  t.is(token.status, 200);
  texts.push(JSON.stringify(jwtClaims(token.body['access_token'])), JSON.stringify(jwtClaims(token.body['id_token'])));

  for (const text of texts) {
    t.false(text.includes(CANARY_CITIZEN), 'citizen number in a response or token');
    t.false(text.includes(CANARY_PASSWORD), 'password in a response or token');
    t.false(text.toUpperCase().includes(CANARY_VOUCHER.replace(/-/g, '')) || text.toUpperCase().includes(CANARY_VOUCHER), 'voucher code in a response');
  }
  const logs = [KC_LOG, ...(await readdir('.run/logs')).map((name) => join('.run/logs', name))];
  t.true(logs.length >= 7, "every service's log and Keycloak's are searched");
  // The started platform's service data (make test: a temporary folder, never make up's .data).
  const stores = [...(await filesUnder(process.env['PLATFORM_DATA_DIR'] ?? '.data')), ...(await keycloakDataFiles())];
  t.not((await filesContaining(stores, email)).length, 0, "positive control: the stores hold this run's writes");
  t.deepEqual(await filesContaining([...logs, ...stores], CANARY_CITIZEN), []);
  t.deepEqual(await filesContaining([...logs, ...stores], CANARY_PASSWORD), []);
  for (const shape of [CANARY_VOUCHER, CANARY_VOUCHER.toLowerCase(), CANARY_VOUCHER.replace(/-/g, ''), CANARY_VOUCHER.replace(/-/g, ' ')])
    t.deepEqual(await filesContaining([...logs, ...stores], shape), [], shape);
  t.true((await readFile(logs[0] ?? '', 'utf8')).length > 0);
});
