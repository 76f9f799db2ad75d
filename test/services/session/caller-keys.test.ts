import test from 'ava';
import { SessionConfig } from '../../../services/session/config.js';
import { createApp } from '../../../services/session/app.js';
import { assertError } from '../../helpers/error-shape.js';
import { boot, capturingLogger } from '../../helpers/service.js';
import { bootSession, FEED_KEY, grantBody, KEY, openSessionDb, subject, SUBJECT_KEY, TestClock } from './session-service.js';

// Each caller's key does only what that caller does.
test("the gateway's key reads, follows the feed and revokes one session (a logoff at the gateway) but cannot open or grant, nor revoke a subject; Keycloak's key only revokes by subject", async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const { body } = await service.create({ subjectId: subject(), deviceRef: null });
  const id = String((body as { sessionId: string }).sessionId);
  const json = { 'content-type': 'application/json' };

  assertError(t, await service.request('POST', '/api/v1/sessions', { json: { subjectId: subject(), deviceRef: null }, headers: FEED_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', `/api/v1/sessions/${id}/grant`, { json: grantBody(clock), headers: FEED_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', `/api/v1/subjects/${subject()}/revoke`, { json: {}, headers: { ...FEED_KEY, ...json } }), 403, 'FORBIDDEN');
  t.is((await service.request('GET', `/api/v1/sessions/${id}`, { headers: FEED_KEY })).status, 200);
  t.is((await service.request('GET', '/api/v1/sessions/changes', { headers: FEED_KEY })).status, 200);
  t.is((await service.request('POST', `/api/v1/sessions/${id}/revoke`, { headers: FEED_KEY })).status, 200);

  assertError(t, await service.request('GET', `/api/v1/sessions/${id}`, { headers: SUBJECT_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('GET', '/api/v1/sessions/changes', { headers: SUBJECT_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', `/api/v1/sessions/${id}/revoke`, { headers: SUBJECT_KEY }), 403, 'FORBIDDEN');

  assertError(t, await service.request('GET', '/api/v1/sessions/changes', { headers: KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', `/api/v1/subjects/${subject()}/revoke`, { json: {}, headers: KEY }), 403, 'FORBIDDEN');
  t.is((await service.request('POST', `/api/v1/sessions/${id}/revoke`, { headers: KEY })).status, 200);
});

test("an unknown key gets 401, and the portal's old and new keys both work during a rotation", async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const config = SessionConfig.parse({ SESSION_API_KEYS: 'portal:portal-key-old:create,read portal:portal-key-new:create,read' });
  const { app } = await createApp(config, capturingLogger('session').logger, { db, now: () => new Date() });
  const service = await boot(t, app);
  for (const key of ['portal-key-old', 'portal-key-new']) {
    t.is((await service.request('POST', '/api/v1/sessions', { json: { subjectId: subject(), deviceRef: null }, headers: { 'X-API-Key': key } })).status, 201);
  }
  assertError(t, await service.request('POST', '/api/v1/sessions', { json: { subjectId: subject(), deviceRef: null }, headers: KEY }), 401, 'UNAUTHORIZED');
});
