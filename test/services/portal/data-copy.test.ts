import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { answer, bootPortal, cookieOf, defaultFakes, entitlementBody, SUBJECT } from './portal-fakes.js';

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

const grantedTo = (subjectId: string, entitlementId: string) => {
  const { replayed: _replayed, ...body } = entitlementBody();
  return { ...body, subjectId, entitlementId };
};

function twoPeople() {
  const fakes = defaultFakes();
  const base = fakes.keycloakAccount(SUBJECT);
  const accounts: Record<string, typeof base> = {
    [SUBJECT]: base && {
      ...base,
      attributes: {
        phone_number: ['+84901234567'],
        employee_ref: ['E-1001'],
        company: ['Acme'],
        locale: ['vi'],
        // A keyed hash of the citizen number: a key, never the person's data.
        cccd_link: ['cccd-link-canary'],
        password_hash: ['hash-canary'],
      },
    },
    [OTHER]: base && { ...base, username: 'other@example.com', email: 'other@example.com' },
  };
  fakes.keycloakAccount = (subjectId) => accounts[subjectId];
  const granted: Record<string, string[]> = { [SUBJECT]: ['ent-bob-old', 'ent-bob-new'], [OTHER]: ['ent-other'] };
  fakes.subjectEntitlements = (subjectId) => answer(200, { subjectId, entitlements: (granted[subjectId] ?? []).map((id) => grantedTo(subjectId, id)) });
  const held: Record<string, string[]> = { [SUBJECT]: ['bob-one', 'bob-two'], [OTHER]: ['other-one'] };
  fakes.subjectSessions = (subjectId) => answer(200, { subjectId, sessions: (held[subjectId] ?? []).map(heldSession) });
  fakes.connectionHistory = (sessionId) => answer(200, { sessionId, connections: [connection(sessionId === 'other-one' ? 999 : 7)] });
  return fakes;
}

test("the signed-in person's copy holds their whole account, entitlements, sessions and connections, and nothing of another person's", async (t) => {
  const portal = await bootPortal(t, twoPeople());
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));

  const reply = await portal.get(`/api/v1/me/data?subjectId=${OTHER}`, { cookie });

  t.is(reply.status, 200, reply.text);
  t.regex(String(reply.headers.get('content-disposition')), /^attachment; filename="my-wifi-data\.json"$/);
  t.is(reply.headers.get('cache-control'), 'no-store');
  t.is(reply.body['subjectId'], SUBJECT);
  t.deepEqual(reply.body['account'], {
    username: 'bob@example.com',
    email: 'bob@example.com',
    emailVerified: true,
    firstName: 'Bob',
    lastName: null,
    createdAt: '2026-11-01T09:00:00.000Z',
    enabled: true,
    attributes: { phone_number: ['+84901234567'], employee_ref: ['E-1001'], company: ['Acme'], locale: ['vi'] },
  });
  t.deepEqual(
    (reply.body['entitlements'] as { entitlementId: string; subjectId: string }[]).map((each) => [each.entitlementId, each.subjectId]),
    [
      ['ent-bob-old', SUBJECT],
      ['ent-bob-new', SUBJECT],
    ],
  );
  t.false(reply.text.includes('other@example.com'));
  t.false(reply.text.includes('ent-other'));
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
    portal.fakes.calls.filter((call) => /^(accounts\.read|entitlement\.subject-entitlements|session\.subject-sessions|gateway\.connection-history)/.test(call)),
    [
      `accounts.read ${SUBJECT}`,
      `entitlement.subject-entitlements ${SUBJECT}`,
      `session.subject-sessions ${SUBJECT}`,
      'gateway.connection-history bob-one',
      'gateway.connection-history bob-two',
    ],
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

test('Keycloak or the entitlement service not answering is a 502 with nothing of the copy', async (t) => {
  const fakes = twoPeople();
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  const whole = await portal.get('/api/v1/me/data', { cookie });
  t.is(whole.status, 200, whole.text);

  const keycloak = fakes.keycloakAccount;
  fakes.keycloakAccount = () => undefined;
  const noKeycloak = await portal.get('/api/v1/me/data', { cookie });
  assertError(t, noKeycloak, 502, 'UPSTREAM_UNAVAILABLE');
  t.false(noKeycloak.text.includes('ent-bob'), 'nothing partial');
  fakes.keycloakAccount = keycloak;

  fakes.subjectEntitlements = () => ({ kind: 'unreachable' });
  const noEntitlements = await portal.get('/api/v1/me/data', { cookie });
  assertError(t, noEntitlements, 502, 'UPSTREAM_UNAVAILABLE');
  t.false(noEntitlements.text.includes('+84901234567'), 'nothing partial');
  fakes.subjectEntitlements = () => answer(200, { subjectId: OTHER, entitlements: [grantedTo(OTHER, 'ent-other')] });
  assertError(t, await portal.get('/api/v1/me/data', { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
});
