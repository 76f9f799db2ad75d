import test from 'ava';
import { memoryDriver } from './memory-driver.js';

const json = { 'Content-Type': 'application/json' };
const terms = (version: string) => JSON.stringify({ version, textVi: `Điều khoản ${version}`, textEn: `Terms ${version}` });

test('an operator publishes versions; the last published is the current one, read publicly without a token', async (t) => {
  const d = memoryDriver();
  const none = await d.send({ method: 'GET', path: '/terms/current' });
  t.like(none, { status: 200, body: { current: null } });
  const first = await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body: terms('2026-01') });
  t.like(first, { status: 201, body: { published: true, version: '2026-01' } });
  d.realm.clockMs += 1000;
  t.is((await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body: terms('2026-11') })).status, 201);
  const current = await d.send({ method: 'GET', path: '/terms/current' });
  t.like(current, { status: 200, body: { current: { version: '2026-11', textVi: 'Điều khoản 2026-11', textEn: 'Terms 2026-11' } } });
  const list = await d.send({ method: 'GET', path: '/api/terms', token: d.tokens.operator });
  t.deepEqual(
    (list.body as { versions: { version: string; publishedBy: string }[] }).versions.map(({ version, publishedBy }) => `${version} ${publishedBy}`),
    ['2026-11 svc-operator', '2026-01 svc-operator'],
  );
});

test('a published version is never changed, a bad label or text is 400, and only an operator publishes', async (t) => {
  const d = memoryDriver();
  t.is((await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body: terms('v1') })).status, 201);
  const again = await d.send({
    method: 'POST',
    path: '/api/terms',
    token: d.tokens.operator,
    headers: json,
    body: JSON.stringify({ version: 'v1', textVi: 'khác', textEn: 'other' }),
  });
  t.like(again, { status: 400, body: { code: 'INVALID_REQUEST' } });
  t.like(await d.send({ method: 'GET', path: '/terms/current' }), { body: { current: { textEn: 'Terms v1' } } });
  for (const body of [
    terms('bad label'),
    terms(''),
    JSON.stringify({ version: 'v2', textVi: ' ', textEn: 'x' }),
    JSON.stringify({ version: 'v2', textEn: 'x' }),
  ]) {
    t.like(await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body }), {
      status: 400,
      body: { code: 'INVALID_REQUEST' },
    });
  }
  t.like(await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.customer, headers: json, body: terms('v3') }), { status: 403 });
  t.like(await d.send({ method: 'POST', path: '/api/terms', headers: json, body: terms('v3') }), { status: 401 });
  t.like(await d.send({ method: 'GET', path: '/terms/current' }), { body: { current: { version: 'v1' } } });
});

test('an operator withdraws a version published by mistake: the one before is in force again', async (t) => {
  const d = memoryDriver();
  t.is((await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body: terms('v1') })).status, 201);
  d.realm.clockMs += 1000;
  t.is((await d.send({ method: 'POST', path: '/api/terms', token: d.tokens.operator, headers: json, body: terms('v2') })).status, 201);
  t.like(await d.send({ method: 'DELETE', path: '/api/terms/v2', token: d.tokens.operator }), { status: 200, body: { withdrawn: true, version: 'v2' } });
  t.like(await d.send({ method: 'GET', path: '/terms/current' }), { body: { current: { version: 'v1' } } });
  t.like(await d.send({ method: 'DELETE', path: '/api/terms/v2', token: d.tokens.operator }), { status: 200, body: { withdrawn: false } });
  t.like(await d.send({ method: 'DELETE', path: '/api/terms/v1', token: d.tokens.customer }), { status: 403 });
  t.like(await d.send({ method: 'GET', path: '/terms/current' }), { body: { current: { version: 'v1' } } });
});
