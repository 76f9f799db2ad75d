import test from 'ava';
import { createApp } from '../../../services/gateway/app.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { boot, capturingLogger } from '../../helpers/service.js';
import { gatewaysFile, NAS, openGatewayDb } from './platform.js';
import { freeUdpPort } from './radclient.js';

// FreeRADIUS's accounting calls are answered before the Express stack (kit/fast-path.ts).
// Whatever comes, the answer is the one the documented route gives: the same status and error
// object (checked against the OpenAPI document by boot()), the same request metrics.
const KEY = GatewayConfig.parse({}).RADIUS_API_KEY;
const attribute = (value: string) => ({ type: 'string', value: [value] });
const interim = { 'Acct-Status-Type': attribute('Interim-Update'), 'Acct-Session-Id': attribute('acct-x') };

test('the accounting fast path answers every request as the Express route does', async (t) => {
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const { logger } = capturingLogger('gateway');
  const instance = await createApp(GatewayConfig.parse({ GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()) }), logger, { db });
  t.teardown(() => instance.close());
  t.truthy(instance.fastPath);
  const fast = await boot(t, instance.app, instance.fastPath);
  const express = await boot(t, instance.app);
  const json = { 'content-type': 'application/json' };
  const cases: [string, { path?: string; headers?: Record<string, string>; raw?: string; json?: unknown }][] = [
    ['no key', { json: interim }],
    ['a wrong key', { headers: { 'X-API-Key': 'not-the-key-0' }, json: interim }],
    ['not JSON', { headers: { 'X-API-Key': KEY, ...json }, raw: '{"Acct-Status-Type":' }],
    ['no JSON content type', { headers: { 'X-API-Key': KEY, 'content-type': 'text/plain' }, raw: JSON.stringify(interim) }],
    ['a body not of attributes', { headers: { 'X-API-Key': KEY }, json: [1, 2] }],
    ['an attribute value too long', { headers: { 'X-API-Key': KEY }, json: { 'User-Name': attribute('x'.repeat(5000)) } }],
    [
      'a body over 16 KiB',
      { headers: { 'X-API-Key': KEY }, json: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`A-${i}`, attribute('y'.repeat(500))])) },
    ],
    ['a malformed NAS name', { path: '/radius/accounting?nas=no%20such', headers: { 'X-API-Key': KEY }, json: interim }],
    ['an accounting packet of no session of ours', { headers: { 'X-API-Key': KEY }, json: interim }],
  ];
  for (const [what, { path = `/radius/accounting?nas=${NAS}`, ...options }] of cases) {
    const [viaFast, viaExpress] = [await fast.request('POST', path, options), await express.request('POST', path, options)];
    t.is(viaFast.status, viaExpress.status, what);
    const { correlationId: a, timestamp: _t1, ...fastBody } = viaFast.body;
    const { correlationId: b, timestamp: _t2, ...expressBody } = viaExpress.body;
    t.deepEqual(fastBody, expressBody, what);
    t.is(typeof a, typeof b, what);
    t.truthy(viaFast.headers.get('x-correlation-id'), what);
  }
  const metrics = (await fast.request('GET', '/metrics')).text;
  t.regex(metrics, /http_requests_total\{service="gateway",route="\/radius\/accounting",method="POST",status="204"\} 2/, 'one series for both ways');
  t.regex(metrics, /http_requests_total\{service="gateway",route="\/radius\/accounting",method="POST",status="401"\} 4/);
});
