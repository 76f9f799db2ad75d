import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { answer, bootPortal, cookieOf, defaultFakes, SUBJECT } from './portal-fakes.js';

// A person's copy of their data: the portal asks the owning services about the signed-in subject
// only, whatever the request says, and passes on only what the contract's schemas name.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const heldSession = (sessionId: string) => ({
  sessionId,
  state: 'REVOKED',
  entitlementId: `ent-${sessionId}`,
  entitlementType: 'WIFI_CUSTOMER_BASIC',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  grantedAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-11-20T11:00:00.000Z',
  revokedAt: '2026-11-20T10:30:00.000Z',
  revokeReason: 'REVOKED',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:30:00.000Z',
  // A field the contract does not name (a device pseudonym) must not reach the copy.
  deviceRef: 'device-ref-canary',
  events: [{ at: '2026-11-20T10:00:00.000Z', fromState: null, state: 'CREATED', reason: null }],
});
const connection = (octets: number) => ({
  nasId: 'venue-1',
  startedAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:20:00.000Z',
  stoppedAt: '2026-11-20T10:30:00.000Z',
  inputOctets: octets,
  outputOctets: octets,
  sessionTime: 1800,
  identity: 'sealed-identity-canary',
});

function twoPeople() {
  const fakes = defaultFakes();
  const held: Record<string, string[]> = { [SUBJECT]: ['bob-one', 'bob-two'], [OTHER]: ['other-one'] };
  fakes.subjectSessions = (subjectId) => answer(200, { subjectId, sessions: (held[subjectId] ?? []).map(heldSession) });
  fakes.connectionHistory = (sessionId) => answer(200, { sessionId, connections: [connection(sessionId === 'other-one' ? 999 : 7)] });
  return fakes;
}

test("the signed-in person's copy holds their account, sessions and connections, and nothing of another person's", async (t) => {
  const portal = await bootPortal(t, twoPeople());
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));

  const reply = await portal.get(`/api/v1/me/data?subjectId=${OTHER}`, { cookie });

  t.is(reply.status, 200, reply.text);
  t.regex(String(reply.headers.get('content-disposition')), /^attachment; filename="my-wifi-data\.json"$/);
  t.is(reply.headers.get('cache-control'), 'no-store');
  t.is(reply.body['subjectId'], SUBJECT);
  t.like(reply.body['account'], { sub: SUBJECT, preferred_username: 'bob@example.com' });
  const sessions = reply.body['networkSessions'] as { sessionId: string; connections: { inputOctets: number }[] }[];
  t.deepEqual(
    sessions.map((session) => [session.sessionId, session.connections.map((each) => each.inputOctets)]),
    [
      ['bob-one', [7]],
      ['bob-two', [7]],
    ],
  );
  t.false(reply.text.includes(OTHER), 'nothing names another person');
  t.false(reply.text.includes('other-one'));
  t.false(/canary/.test(reply.text), 'no device pseudonym, sealed identity or token');
  t.deepEqual(
    portal.fakes.calls.filter((call) => call.startsWith('session.subject-sessions') || call.startsWith('gateway.connection-history')),
    [`session.subject-sessions ${SUBJECT}`, 'gateway.connection-history bob-one', 'gateway.connection-history bob-two'],
  );
});

test('the copy needs a sign-in, and a service that does not answer is a 502, never a partial copy', async (t) => {
  const fakes = twoPeople();
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.get('/api/v1/me/data'), 401, 'UNAUTHORIZED');

  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  fakes.connectionHistory = () => ({ kind: 'unreachable' });
  assertError(t, await portal.get('/api/v1/me/data', { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
  fakes.connectionHistory = (sessionId) => answer(200, { sessionId, connections: [] });
  fakes.subjectSessions = () => answer(200, { subjectId: OTHER, sessions: [heldSession('other-one')] });
  assertError(t, await portal.get('/api/v1/me/data', { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
});
