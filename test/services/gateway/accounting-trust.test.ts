import test from 'ava';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, MAC, NAS, openGatewayDb, sessionWorld } from './platform.js';
import { freeUdpPort } from './radclient.js';

// Accounting believes `Class` (the network session the Access-Accept named) only from
// the NAS the session's credential was used at: another NAS that copies a session id into its
// accounting cannot make that session read CONNECTED, nor ride on its entitlement. The rest
// module's calls are made here directly, as FreeRADIUS makes them.
const RADIUS_KEY = { 'X-API-Key': GatewayConfig.parse({}).RADIUS_API_KEY };
const attribute = (value: string) => ({ type: 'string', value: [value] });
const hex = (text: string) => ({ type: 'octets', value: [`0x${Buffer.from(text).toString('hex')}`] });

test('Class is believed from the NAS the credential was used at, and from no other', async (t) => {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()) });
  const sessionId = await grantedSession(world);
  const accounting = (nas: string, acctSessionId: string) =>
    gateway.request('POST', `/radius/accounting?nas=${nas}`, {
      headers: RADIUS_KEY,
      json: { 'Acct-Status-Type': attribute('Start'), 'Acct-Session-Id': attribute(acctSessionId), Class: hex(sessionId), 'User-Name': attribute('someone') },
    });
  const state = async () => (await gateway.connection(sessionId)).body['state'];

  t.is((await accounting(NAS, 'before-use')).status, 204);
  t.is(await state(), 'NONE', 'no credential used yet: a Class alone proves nothing');

  const issued = await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS });
  const { username, password } = issued.body as { username: string; password: string };
  const accepted = await gateway.request('POST', `/radius/authorize?nas=${NAS}`, {
    headers: RADIUS_KEY,
    json: { 'User-Name': attribute(username), 'User-Password': attribute(password), 'Calling-Station-Id': attribute(MAC) },
  });
  t.is(accepted.status, 200, accepted.text);

  t.is((await accounting('other-nas', 'forged-1')).status, 204);
  t.is(await state(), 'NONE', 'another NAS naming the session is ignored');
  t.is((await accounting(NAS, 'real-1')).status, 204);
  t.is(await state(), 'CONNECTED');
  t.deepEqual(
    (await db.query('SELECT nas_id FROM connections WHERE session_id = $1', [sessionId])).map((r) => r['nas_id']),
    [NAS],
  );

  // An Interim-Update of a running connection is one statement; it still counts only for
  // the NAS that sent the Start, whatever another NAS names.
  const interim = (nas: string, octetCount: number) =>
    gateway.request('POST', `/radius/accounting?nas=${nas}`, {
      headers: RADIUS_KEY,
      json: {
        'Acct-Status-Type': attribute('Interim-Update'),
        'Acct-Session-Id': attribute('real-1'),
        Class: hex(sessionId),
        'User-Name': attribute('someone'),
        'Acct-Input-Octets': { type: 'integer', value: [octetCount] },
      },
    });
  t.is((await interim(NAS, 1000)).status, 204);
  t.is((await gateway.connection(sessionId)).body['inputOctets'], 1000);
  t.is((await interim('other-nas', 5000)).status, 204);
  t.is((await gateway.connection(sessionId)).body['inputOctets'], 1000, "another NAS's Interim-Update changes nothing");
  // One request line per Interim-Update and connection would flood the log: debug, not info.
  const accountingLines = gateway.lines
    .map((line) => JSON.parse(line) as { path?: string; level: number })
    .filter((line) => line.path === '/radius/accounting');
  t.true(accountingLines.length > 0);
  t.true(
    accountingLines.every((line) => line.level < 30),
    'accounting request lines are below info',
  );
});
