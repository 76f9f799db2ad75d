import test from 'ava';
import { putCompany } from './contract/companies-contract.js';
import { memoryDriver } from './memory-driver.js';

async function probeOf(hrEndpoint: string, probeAllow = '') {
  const d = memoryDriver();
  d.realm.probeAllow = probeAllow;
  const reached: string[] = [];
  const getAt = d.realm.http.getAt;
  d.realm.http.getAt = (url, address, timeoutMs) => {
    reached.push(address);
    return getAt(url, address, timeoutMs);
  };
  await putCompany(d, 'PROBE-CO', { name: 'Probe', hrEndpoint });
  const reply = await d.send({ method: 'POST', path: '/api/companies/PROBE-CO/test', token: d.tokens.operator });
  return { hr: (reply.body as { hr: unknown }).hr, reached };
}

test('a name with any internal address is refused after resolution, and nothing is sent', async (t) => {
  t.deepEqual(await probeOf('http://internal.test/api'), { hr: { state: 'NOT_ALLOWED', url: 'http://internal.test/health' }, reached: [] });
});

test('the request goes to the address the check judged, not to a second lookup', async (t) => {
  t.deepEqual(await probeOf('http://healthy.test/api'), { hr: { state: 'UP', url: 'http://healthy.test/health' }, reached: ['198.51.100.7'] });
});

test('loopback is refused unless SVC_ADMIN_PROBE_ALLOW names its range', async (t) => {
  t.deepEqual((await probeOf('http://127.0.0.1:3001/api')).reached, []);
  t.like(await probeOf('http://127.0.0.1:3001/api'), { hr: { state: 'NOT_ALLOWED' } });
  t.deepEqual(await probeOf('http://127.0.0.1:3001/api', '10.0.0.0/8, 127.0.0.0/8'), {
    hr: { state: 'HTTP_503', url: 'http://127.0.0.1:3001/health' },
    reached: ['127.0.0.1'],
  });
  // A range that does not hold the address allows nothing; a malformed entry allows nothing.
  t.like(await probeOf('http://127.0.0.1:3001/api', '127.0.0.2/32 not-a-range'), { hr: { state: 'NOT_ALLOWED' } });
});

test('a name that does not resolve is UNREACHABLE', async (t) => {
  t.deepEqual(await probeOf('https://nowhere.test/api'), { hr: { state: 'UNREACHABLE', url: 'https://nowhere.test/health' }, reached: [] });
});
