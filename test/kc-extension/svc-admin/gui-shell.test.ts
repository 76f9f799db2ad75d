import test from 'ava';
import { handleAdminRequest } from '../../../kc-extension/svc-admin/router.js';
import { memoryHost, memoryRealm } from './memory-admin-host.js';
import { TEST_GUI_MANIFEST } from './memory-driver.js';

const get = async (path: string, guiManifest: string | undefined) => {
  const realm = memoryRealm();
  realm.guiManifest = guiManifest;
  return handleAdminRequest(memoryHost(realm, { method: 'GET', path }));
};

test('the shell page names the hashed files of the manifest and allows exactly its dmn-js style attributes', async (t) => {
  const reply = await get('/', JSON.stringify(TEST_GUI_MANIFEST));
  t.is(reply.status, 200);
  const nonce = /<script src="\/realms\/wifi\/svc-admin\/assets\/gui-TESTJS01\.js" nonce="([0-9a-f]{32})" defer><\/script>/.exec(reply.body)?.[1];
  t.truthy(nonce);
  t.true(reply.body.includes('<link rel="stylesheet" href="/realms/wifi/svc-admin/assets/gui-TESTCSS1.css">'));
  t.true(reply.ownSecurityHeaders);
  t.true(
    (reply.headers?.['Content-Security-Policy'] ?? '').includes(
      `style-src 'self' 'nonce-${nonce}' 'unsafe-hashes' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='`,
    ),
  );
});

test('every shell page gets a fresh nonce', async (t) => {
  const manifest = JSON.stringify(TEST_GUI_MANIFEST);
  const [one, two] = await Promise.all([get('/', manifest), get('/', manifest)]);
  t.not(one.headers?.['Content-Security-Policy'], two.headers?.['Content-Security-Policy']);
});

test('an asset reply names the file for the host to stream and carries no body of its own', async (t) => {
  const reply = await get('/assets/dmn-TESTFONT.woff2', JSON.stringify(TEST_GUI_MANIFEST));
  t.like(reply, { status: 200, contentType: 'font/woff2', body: '', asset: 'dmn-TESTFONT.woff2' });
});

test('a jar built without the GUI answers the shell with 503 and a way out, and serves no asset', async (t) => {
  const shell = await get('/', undefined);
  t.is(shell.status, 503);
  t.regex(shell.body, /scripts\/kc\.sh build/);
  t.false(shell.body.includes('<script'));
  t.like(await get('/assets/gui-TESTJS01.js', undefined), { status: 404 });
});

test('an unreadable manifest serves nothing rather than guessing', async (t) => {
  t.is((await get('/', '{"script":1}')).status, 503);
  t.is((await get('/assets/gui-TESTJS01.js', '{"script":1}')).status, 404);
});
