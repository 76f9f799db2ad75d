import test from 'ava';
import { z } from 'zod';
import { callJson, createServiceApp, route } from '../../../services/kit/index.js';
import { boot, capturingLogger } from '../../helpers/service.js';

// The kit's metrics: requests by route template and status, outbound calls by peer and
// outcome, served as Prometheus text; the path as sent never becomes a label.

function sample(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (match?.[1] === name && Object.entries(labels).every(([key, value]) => (match[2] ?? '').includes(`${key}="${value}"`))) sum += Number(match[3]);
  }
  return sum;
}

async function metricsApp(t: Parameters<typeof boot>[0]) {
  const app = createServiceApp({
    service: 'metrics-test',
    logger: capturingLogger().logger,
    routes: [
      route({
        method: 'get',
        path: '/things/:thingId',
        summary: 'a thing',
        params: { thingId: z.string().regex(/^[a-z0-9-]{1,20}$/) },
        responses: { 200: { description: 'ok', schema: z.object({ thingId: z.string() }) }, 400: { description: 'bad id' } },
        handle: ({ params }) => ({ status: 200, body: { thingId: params.thingId } }),
      }),
    ],
  });
  return boot(t, app);
}

test('requests count under their route template and status, never under the path as sent', async (t) => {
  const service = await metricsApp(t);
  t.is((await service.request('GET', '/things/aa-bb-cc-dd-ee-ff')).status, 200);
  t.is((await service.request('GET', '/things/NOT_VALID')).status, 400);
  t.is((await service.request('GET', '/nowhere/79201001234')).status, 404);
  const scraped = await fetch(`${service.url}/metrics`);
  t.is(scraped.status, 200);
  t.regex(String(scraped.headers.get('content-type')), /^text\/plain/);
  const text = await scraped.text();
  t.true(sample(text, 'http_requests_total', { service: 'metrics-test', route: '/things/:thingId', status: '200' }) >= 1);
  t.true(sample(text, 'http_requests_total', { service: 'metrics-test', route: '/things/:thingId', status: '400' }) >= 1);
  t.true(sample(text, 'http_requests_total', { service: 'metrics-test', route: 'unmatched', status: '404' }) >= 1);
  t.true(sample(text, 'http_request_duration_seconds_count', { service: 'metrics-test', route: '/things/:thingId' }) >= 2);
  t.false(text.includes('aa-bb-cc-dd-ee-ff'));
  t.false(text.includes('79201001234'));
});

test('outbound calls count by peer origin and outcome', async (t) => {
  const service = await metricsApp(t);
  const peer = new URL(service.url).origin;
  const before = sample(await (await fetch(`${service.url}/metrics`)).text(), 'outbound_calls_total', { peer, outcome: 'status_2xx' });
  await callJson({ url: `${service.url}/things/abc`, correlationId: 'corr-00000000-0000-4000-8000-000000000000', timeoutMs: 2000 });
  await callJson({ url: `${service.url}/things/BAD`, correlationId: 'corr-00000000-0000-4000-8000-000000000000', timeoutMs: 2000 });
  const text = await (await fetch(`${service.url}/metrics`)).text();
  t.is(sample(text, 'outbound_calls_total', { peer, outcome: 'status_2xx' }) - before, 1);
  t.true(sample(text, 'outbound_calls_total', { peer, outcome: 'status_4xx' }) >= 1);
  t.true(sample(text, 'outbound_call_duration_seconds_count', { peer }) >= 2);
  t.false(text.includes('/things/abc'));
});

test('the metrics route is in the OpenAPI document', async (t) => {
  const service = await metricsApp(t);
  const document = await service.document();
  t.truthy((document?.paths as Record<string, unknown> | undefined)?.['/metrics']);
});
