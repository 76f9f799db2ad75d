import type { TestFn } from 'ava';
import type { Driver } from './driver.js';
import { ErrorBody } from './response-schemas.js';

export function authContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('an /api call without a token is 401 UNAUTHORIZED in the 2.2 shape', async (t) => {
    const reply = await (await driver()).send({ method: 'GET', path: '/api/companies' });
    t.like(reply, { status: 401, body: { code: 'UNAUTHORIZED' } });
    t.true(ErrorBody.safeParse(reply.body).success);
  });

  test('a malformed bearer token is 401', async (t) => {
    const reply = await (await driver()).send({ method: 'GET', path: '/api/companies', token: 'not-a-jwt' });
    t.like(reply, { status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  test('a master-realm admin token is rejected with 401', async (t) => {
    const d = await driver();
    const reply = await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.master });
    t.like(reply, { status: 401, body: { code: 'UNAUTHORIZED' } });
    t.true(ErrorBody.safeParse(reply.body).success);
  });

  test('a customer token of the realm is 403 FORBIDDEN', async (t) => {
    const d = await driver();
    const reply = await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.customer });
    t.like(reply, { status: 403, body: { code: 'FORBIDDEN' } });
    t.true(ErrorBody.safeParse(reply.body).success);
  });

  test('an unknown path is 404 NOT_FOUND in the 2.2 shape and echoes a given correlation id', async (t) => {
    const d = await driver();
    const correlationId = 'corr-11111111-2222-4333-8444-555555555555';
    const api = await d.send({ method: 'GET', path: '/api/nothing-here', token: d.tokens.operator, headers: { 'X-Correlation-ID': correlationId } });
    t.like(api, { status: 404, body: { code: 'NOT_FOUND', correlationId } });
    t.true(ErrorBody.safeParse(api.body).success);
    const outside = await d.send({ method: 'GET', path: '/nothing-here' });
    t.like(outside, { status: 404, body: { code: 'NOT_FOUND' } });
    t.true(ErrorBody.safeParse(outside.body).success);
  });
}
