import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { splitDisplayName } from '../../../services/portal/account-admin.js';
import { createClaimsReader } from '../../../services/portal/claims.js';
import { PortalConfig } from '../../../services/portal/config.js';

// Spec 2.3: displayName is split on whitespace; the first word is the first name, the rest the last.
const NAMES: [string | undefined, ReturnType<typeof splitDisplayName>][] = [
  ['Tran Thi Mai', { firstName: 'Tran', lastName: 'Thi Mai' }],
  ['  Bob   Smith  ', { firstName: 'Bob', lastName: 'Smith' }],
  ['Cher', { firstName: 'Cher' }],
  ['Nguyen\tVan\nAn', { firstName: 'Nguyen', lastName: 'Van An' }],
  ['   ', {}],
  [undefined, {}],
];
for (const [displayName, expected] of NAMES) {
  test(`displayName ${JSON.stringify(displayName)} splits into ${JSON.stringify(expected)}`, (t) => {
    t.deepEqual(splitDisplayName(displayName), expected);
  });
}

// Spec 2.4: claims seen, `aud` always an array of strings, and nothing beyond the displayed set.
test('the claims reader verifies the token and answers aud as an array, without undisplayed claims', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const keys = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(keys);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const idp = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const read = createClaimsReader(PortalConfig.parse({ IDP_URL: idp }));
  const sub = randomUUID();
  const sign = (issuer: string) =>
    new SignJWT({ azp: 'wifi-portal-api', user_type: 'CUSTOMER', session_state: 'internal', preferred_username: 'bob@example.com' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject(sub)
      .setIssuer(issuer)
      .setAudience('account')
      .setExpirationTime('5m')
      .sign(privateKey);
  t.deepEqual(await read(await sign(`${idp}/realms/wifi`)), {
    sub,
    aud: ['account'],
    azp: 'wifi-portal-api',
    preferred_username: 'bob@example.com',
    user_type: 'CUSTOMER',
  });
  await t.throwsAsync(read(await sign('http://elsewhere/realms/wifi')), undefined, 'another issuer is refused');
});
