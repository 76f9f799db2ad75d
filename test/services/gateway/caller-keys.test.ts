import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { bootGateway, deviceRef, gatewaysFile, grantedSession, NAS, openGatewayDb, sessionWorld } from './platform.js';
import { freeUdpPort } from './radclient.js';

// The portal API of the gateway service takes one key per caller, each with its scopes.
test('a key with only the connections scope reads connection state but gets 403 on credentials; the tools key issues; an unknown key 401', async (t) => {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, {
    SESSION_URL: world.session.url,
    GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()),
    GATEWAY_API_KEYS: 'reader:reader-key-1:connections tools:dev-gateway-tools-key:credentials,connections',
  });
  const sessionId = await grantedSession(world, deviceRef());
  const body = { sessionId, deviceRef: deviceRef(), nasId: NAS };
  const as = (key: string) => ({ 'X-API-Key': key });
  assertError(t, await gateway.request('POST', '/api/v1/credentials', { json: body, headers: as('reader-key-1') }), 403, 'FORBIDDEN');
  t.is((await gateway.request('GET', `/api/v1/connections/${sessionId}`, { headers: as('reader-key-1') })).status, 200);
  t.is((await gateway.request('POST', '/api/v1/credentials', { json: body, headers: as('dev-gateway-tools-key') })).status, 201);
  assertError(t, await gateway.request('POST', '/api/v1/credentials', { json: body, headers: as('dev-gateway-key') }), 401, 'UNAUTHORIZED');
});
