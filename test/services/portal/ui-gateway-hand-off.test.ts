import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { postLogin, readLogonAnswer } from '../../../services/portal/ui/client/gateway-hand-off.js';

// The page posts an OPNsense login itself and tells the person what the zone's logon
// API answered (opnsense/core AccessController::logonAction; test/edge/controllers/captures/opnsense.json).
for (const [what, status, body, outcome] of [
  ['AUTHORIZED (let in)', 200, { clientState: 'AUTHORIZED', ipAddress: '10.20.0.7', sessionId: 'x' }, 'connected'],
  ['NOT_AUTHORIZED (RADIUS refused)', 200, { clientState: 'NOT_AUTHORIZED', ipAddress: '10.20.0.7' }, 'refused'],
  ['UNKNOWN (no zone, or not let in)', 200, { clientState: 'UNKNOWN', ipAddress: '10.20.0.7' }, 'refused'],
  ["an answer that is not OPNsense's", 200, { ok: true }, 'unreachable'],
  ['no JSON', 200, null, 'unreachable'],
  ['an error status', 502, { clientState: 'AUTHORIZED' }, 'unreachable'],
] as const) {
  test(`an OPNsense logon answer ${what} reads ${outcome}`, (t) => {
    t.is(readLogonAnswer(status, body), outcome);
  });
}

/** A stand-in for an OPNsense zone's logon API: records what was posted, answers as logonAction does. */
async function zoneStandIn(t: ExecutionContext, clientState: string) {
  const posted: { contentType?: string; body: string; cookie?: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posted.push({ contentType: req.headers['content-type'], body, cookie: req.headers.cookie });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.end(JSON.stringify({ clientState, ipAddress: '10.20.0.7' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/captiveportal/access/logon/`, posted };
}

test("the page posts user and password form-encoded (as OPNsense's template does, a simple CORS request) without cookies, and reads the answer", async (t) => {
  const zone = await zoneStandIn(t, 'AUTHORIZED');
  t.is(await postLogin(zone.url, { user: 'wifi-one-time-user', password: 'p&w=1' }), 'connected');
  t.is(zone.posted.length, 1);
  t.regex(zone.posted[0]!.contentType ?? '', /^application\/x-www-form-urlencoded/);
  t.deepEqual(Object.fromEntries(new URLSearchParams(zone.posted[0]!.body)), { user: 'wifi-one-time-user', password: 'p&w=1' });
  t.is(zone.posted[0]!.cookie, undefined);
  const refusing = await zoneStandIn(t, 'NOT_AUTHORIZED');
  t.is(await postLogin(refusing.url, { user: 'u', password: 'p' }), 'refused');
});

test('a zone the page cannot reach from script is blocked (the page then falls back to the form)', async (t) => {
  const zone = await zoneStandIn(t, 'AUTHORIZED');
  const closed = zone.url.replace(/:\d+\//, ':1/');
  t.is(await postLogin(closed, { user: 'u', password: 'p' }), 'blocked');
});
