import type { TestFn } from 'ava';
import type { Driver } from './driver.js';
import { CompanyList, ErrorBody, ProbeReply, Removed, Saved } from './response-schemas.js';

export const uniqueCode = (prefix: string): string => `${prefix}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

async function companies(d: Driver): Promise<Record<string, unknown>[]> {
  const reply = await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.operator });
  if (reply.status !== 200) throw new Error(`list answered ${reply.status}`);
  return CompanyList.parse(reply.body).companies;
}

export const putCompany = (d: Driver, code: string, body: unknown): ReturnType<Driver['send']> =>
  d.send({
    method: 'PUT',
    path: `/api/companies/${code}`,
    token: d.tokens.operator,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });

export function companiesContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('PUT stores a company; the list shows hasSecret and never the secret; defaults apply', async (t) => {
    const d = await driver();
    const code = uniqueCode('CO');
    const secret = 'webhook-secret-value-123456';
    const saved = await putCompany(d, code, { name: 'Company One', hrEndpoint: 'http://hr.example:3001/api', secret });
    t.like(saved, { status: 200, body: { saved: true, code } });
    t.true(Saved.safeParse(saved.body).success);
    const list = await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.operator });
    t.true(CompanyList.safeParse(list.body).success);
    t.false(JSON.stringify(list.body).includes(secret));
    const company = (await companies(d)).find((c) => c['code'] === code);
    t.like(company, { code, name: 'Company One', enabled: false, timeoutMs: 3000, hasSecret: true, hrEndpoint: 'http://hr.example:3001/api' });
  });

  test('PUT is a full replace: omitted fields go, an omitted secret is kept', async (t) => {
    const d = await driver();
    const code = uniqueCode('CO');
    await putCompany(d, code, { name: 'Before', hrEndpoint: 'http://hr.example', secret: 'first-secret-0123456789' });
    const replaced = await putCompany(d, code, { name: 'After', enabled: true, timeoutMs: 500 });
    t.is(replaced.status, 200);
    const company = (await companies(d)).find((c) => c['code'] === code);
    t.like(company, { name: 'After', enabled: true, timeoutMs: 500, hasSecret: true });
    t.false(company !== undefined && 'hrEndpoint' in company);
  });

  const invalid: [string, string, unknown][] = [
    ['a lower-case code', 'bad-code', { name: 'x' }],
    ['a one-letter code', 'A', { name: 'x' }],
    ['no name', 'OK-CODE', {}],
    ['timeoutMs 499', 'OK-CODE', { name: 'x', timeoutMs: 499 }],
    ['timeoutMs 15001', 'OK-CODE', { name: 'x', timeoutMs: 15001 }],
    ['a non-URL endpoint', 'OK-CODE', { name: 'x', hrEndpoint: 'ftp://x' }],
    ['a short secret', 'OK-CODE', { name: 'x', secret: 'short' }],
  ];
  for (const [what, code, body] of invalid) {
    test(`PUT with ${what} is 400 INVALID_REQUEST`, async (t) => {
      const d = await driver();
      const reply = await putCompany(d, code, body);
      t.like(reply, { status: 400, body: { code: 'INVALID_REQUEST' } });
      t.true(ErrorBody.safeParse(reply.body).success);
    });
  }

  test('PUT with a body that is not JSON is 400', async (t) => {
    const d = await driver();
    const reply = await d.send({
      method: 'PUT',
      path: '/api/companies/OK-CODE',
      token: d.tokens.operator,
      body: '{not json',
      headers: { 'Content-Type': 'application/json' },
    });
    t.like(reply, { status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  test('DELETE removes configuration and secret; a second DELETE answers removed false', async (t) => {
    const d = await driver();
    const code = uniqueCode('CO');
    await putCompany(d, code, { name: 'Gone soon', secret: 'gone-secret-0123456789' });
    const removed = await d.send({ method: 'DELETE', path: `/api/companies/${code}`, token: d.tokens.operator });
    t.like(removed, { status: 200, body: { removed: true, code } });
    t.true(Removed.safeParse(removed.body).success);
    t.falsy((await companies(d)).find((c) => c['code'] === code));
    const again = await d.send({ method: 'DELETE', path: `/api/companies/${code}`, token: d.tokens.operator });
    t.like(again, { status: 200, body: { removed: false, code } });
  });

  test('the probe reports UP, UNREACHABLE and NOT_CONFIGURED: the state and URL only, no timing or exception', async (t) => {
    const d = await driver();
    const code = uniqueCode('CO');
    await putCompany(d, code, { name: 'Probed', hrEndpoint: `${d.healthyOrigin}/api/v1/x`, loyaltyEndpoint: `${d.deadOrigin}/api`, timeoutMs: 1000 });
    const reply = await d.send({ method: 'POST', path: `/api/companies/${code}/test`, token: d.tokens.operator });
    t.is(reply.status, 200);
    t.true(ProbeReply.safeParse(reply.body).success);
    const body = reply.body as { hr: Record<string, unknown>; loyalty: Record<string, unknown> };
    t.like(body.hr, { state: 'UP', url: `${d.healthyOrigin}/health` });
    t.deepEqual(body.loyalty, { state: 'UNREACHABLE', url: `${d.deadOrigin}/health` });
    t.deepEqual(Object.keys(body.hr).sort(), ['state', 'url']);
    await putCompany(d, code, { name: 'Probed' });
    const bare = await d.send({ method: 'POST', path: `/api/companies/${code}/test`, token: d.tokens.operator });
    t.like(bare.body, { hr: { state: 'NOT_CONFIGURED' }, loyalty: { state: 'NOT_CONFIGURED' } });
  });

  for (const target of [
    'http://10.0.0.1:3001',
    'http://169.254.169.254',
    'http://192.168.0.1',
    'http://[fe80::1]:8080',
    'http://[fd00::1]',
    'http://[::ffff:10.0.0.1]',
    'http://0.0.0.0:3001',
  ]) {
    test(`the probe refuses the internal target ${target}: NOT_ALLOWED`, async (t) => {
      const d = await driver();
      const code = uniqueCode('CO');
      await putCompany(d, code, { name: 'Internal', hrEndpoint: `${target}/api`, timeoutMs: 500 });
      const reply = await d.send({ method: 'POST', path: `/api/companies/${code}/test`, token: d.tokens.operator });
      t.is(reply.status, 200);
      t.true(ProbeReply.safeParse(reply.body).success);
      t.deepEqual((reply.body as { hr: unknown }).hr, { state: 'NOT_ALLOWED', url: `${target}/health` });
    });
  }

  test('the probe of an unknown company is 404', async (t) => {
    const d = await driver();
    const reply = await d.send({ method: 'POST', path: `/api/companies/${uniqueCode('NO')}/test`, token: d.tokens.operator });
    t.like(reply, { status: 404, body: { code: 'NOT_FOUND' } });
  });
}
