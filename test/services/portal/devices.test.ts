import test from 'ava';
import type { DeviceGateway } from '../../../services/portal/devices.js';
import { assertError } from '../../helpers/error-shape.js';
import { answer, bootPortal, cookieOf, defaultFakes } from './portal-fakes.js';

// "Connect automatically next time": the portal asks the gateway service for a device credential
// of the signed-in person's own sign-in (never one the request names), passes the password on
// once, lists and removes devices; without a sign-in, nothing is asked.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const SIGNED_IN = 'sess-11111111-1111-4111-8111-111111111111';
const ISSUED = {
  deviceId: 'dev-0123456789abcdef01234567',
  label: 'phone',
  createdAt: '2026-11-27T12:00:00.000Z',
  username: '0123456789abcdef0123456789abcdef@wifi.example.net',
  password: 'device-password-canary',
  anonymousIdentity: 'anonymous@wifi.example.net',
  realm: 'wifi.example.net',
};

function fakeGateway(calls: string[], issue = answer(201, ISSUED)): DeviceGateway {
  return {
    issue: async (sessionId, label) => (calls.push(`issue ${sessionId} ${label}`), issue),
    list: async (sessionId) => (
      calls.push(`list ${sessionId}`), answer(200, { devices: [{ deviceId: ISSUED.deviceId, label: 'phone', createdAt: ISSUED.createdAt }] })
    ),
    remove: async (sessionId, deviceId) => (
      calls.push(`remove ${sessionId} ${deviceId}`), deviceId === ISSUED.deviceId ? answer(204, {}) : answer(404, { code: 'NOT_FOUND' })
    ),
  };
}

test('a signed-in person gets a device credential of their own sign-in once, lists and removes it; the password is never logged', async (t) => {
  const calls: string[] = [];
  const fakes = { ...defaultFakes(), devices: fakeGateway(calls) };
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  const issued = await portal.post('/api/v1/me/devices', { label: 'phone' }, { cookie });
  t.is(issued.status, 201, issued.text);
  t.like(issued.body, { username: ISSUED.username, password: ISSUED.password, anonymousIdentity: ISSUED.anonymousIdentity });
  t.is(issued.headers.get('cache-control'), 'no-store');
  const listed = await portal.get('/api/v1/me/devices', { cookie });
  t.is(listed.status, 200);
  t.false(listed.text.includes(ISSUED.password));
  t.is((await portal.request('DELETE', `/api/v1/me/devices/${ISSUED.deviceId}`, { headers: { cookie } })).status, 204);
  assertError(t, await portal.request('DELETE', '/api/v1/me/devices/dev-other', { headers: { cookie } }), 404, 'NOT_FOUND');
  t.deepEqual(calls, [`issue ${SIGNED_IN} phone`, `list ${SIGNED_IN}`, `remove ${SIGNED_IN} ${ISSUED.deviceId}`, `remove ${SIGNED_IN} dev-other`]);
  t.false(portal.lines.some((line) => line.includes(ISSUED.password)));
});

test('no sign-in, no device: 401 and the gateway service is not asked; its silence is a 502, an ended sign-in a 409', async (t) => {
  const calls: string[] = [];
  const fakes = { ...defaultFakes(), devices: fakeGateway(calls) };
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.post('/api/v1/me/devices', {}), 401, 'UNAUTHORIZED');
  assertError(t, await portal.get('/api/v1/me/devices'), 401, 'UNAUTHORIZED');
  t.deepEqual(calls, []);
  fakes.devices = fakeGateway(calls, { kind: 'unreachable' });
  const silent = await bootPortal(t, fakes);
  const silentCookie = cookieOf(await silent.post('/api/v1/auth/login', BOB));
  assertError(t, await silent.post('/api/v1/me/devices', {}, { cookie: silentCookie }), 502, 'UPSTREAM_UNAVAILABLE');
  fakes.devices = fakeGateway(calls, answer(409, { code: 'SESSION_EXPIRED', message: 'The session is revoked or expired.' }));
  const ended = await bootPortal(t, fakes);
  const endedCookie = cookieOf(await ended.post('/api/v1/auth/login', BOB));
  assertError(t, await ended.post('/api/v1/me/devices', {}, { cookie: endedCookie }), 409, 'SESSION_EXPIRED');
});
