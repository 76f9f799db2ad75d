import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { EntitlementConfig } from '../../services/entitlement/config.js';
import { createLoyaltyClient } from '../../services/entitlement/loyalty-client.js';
import { createTokenVerifier } from '../../services/entitlement/token-verifier.js';
import { PortalConfig } from '../../services/portal/config.js';
import { createIdpClient } from '../../services/portal/idp-client.js';
import { createUpstreams } from '../../services/portal/upstreams.js';
import { capturingLogger } from '../helpers/service.js';

// Spec 8, "Timeouts and retries", as the clients behave: each call goes to a peer that takes the
// request and never answers, and must give up no earlier than its budget, and well before twice
// it. The lower bound is exact (a timer never fires early); the upper one leaves a busy machine room.
async function silentPeer(t: ExecutionContext): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer(() => {
    requests += 1; // takes the request, never answers
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

async function givesUpAfter<T>(t: ExecutionContext, budgetMs: number, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const outcome = await call();
  const took = performance.now() - started;
  t.true(took >= budgetMs - 5, `gave up after ${Math.round(took)} ms, before its ${budgetMs} ms`);
  t.true(took < budgetMs * 2, `still waiting after ${Math.round(took)} ms, budget ${budgetMs} ms`);
  return outcome;
}

const portalWith = (urls: Record<string, string>) => PortalConfig.parse(urls);

test('portal -> identity provider, customer grant: 5000 ms, one attempt', async (t) => {
  const idp = await silentPeer(t);
  const client = createIdpClient(portalWith({ IDP_URL: idp.url }));
  t.deepEqual(await givesUpAfter(t, 5000, () => client.passwordGrant('bob@example.com', 'x', 'corr-1')), { kind: 'unreachable', failure: 'timeout' });
  t.is(idp.requests(), 1);
});

test('portal -> identity provider, employee grant: 12000 ms (above HR 3000 ms x 2), one attempt', async (t) => {
  t.timeout(60_000);
  const idp = await silentPeer(t);
  const client = createIdpClient(portalWith({ IDP_URL: idp.url }));
  t.deepEqual(await givesUpAfter(t, 12_000, () => client.employeeGrant('A-1001', '079201001234', 'corr-2')), { kind: 'unreachable', failure: 'timeout' });
  t.is(idp.requests(), 1);
});

test('portal -> entitlement, session create and session grant: 5000 ms each, one attempt each', async (t) => {
  const peer = await silentPeer(t);
  const upstreams = createUpstreams(portalWith({ ENTITLEMENT_URL: peer.url, SESSION_URL: peer.url }));
  const calls = [
    () => upstreams.evaluate('token', 'subject', 'key-1', 'corr-3'),
    () => upstreams.createSession('subject', 'dev-x', 'key-1', 'corr-3'),
    () => upstreams.grantSession('sess-x', { entitlementId: 'ent-x', validUntil: new Date().toISOString() }, 'corr-3'),
  ];
  for (const call of calls) t.like(await givesUpAfter(t, 5000, call), { kind: 'unreachable', failure: 'timeout' });
  t.is(peer.requests(), 3);
});

test('entitlement -> loyalty: 2000 ms, no retry', async (t) => {
  const loyalty = await silentPeer(t);
  const client = createLoyaltyClient(EntitlementConfig.parse({ LOYALTY_URL: loyalty.url }), capturingLogger('entitlement').logger);
  const verdict = await givesUpAfter(t, 2000, () => client.lookup({ email: 'gold@demo.example' }, 'corr-4', capturingLogger('entitlement').logger));
  t.like(verdict, { source: 'timeout', memberTier: null });
  t.is(loyalty.requests(), 1);
});

test('entitlement -> public-key fetch: 4000 ms, then 401', async (t) => {
  const keys = await silentPeer(t);
  const verify = createTokenVerifier(EntitlementConfig.parse({ IDP_JWKS_URL: `${keys.url}/certs`, JWKS_COOLDOWN_MS: '0' }));
  // A well-formed RS256 token with a key id: the verifier must fetch the key set to judge it.
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' })).toString('base64url');
  const token = `${header}.${Buffer.from('{}').toString('base64url')}.c2ln`;
  const refused = await givesUpAfter(t, 4000, () =>
    verify(`Bearer ${token}`).then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
  t.like(refused, { code: 'UNAUTHORIZED' });
  t.true(keys.requests() >= 1);
});
