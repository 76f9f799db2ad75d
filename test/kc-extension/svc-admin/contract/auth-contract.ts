import type { TestFn } from 'ava';
import { ROUTE_TABLE } from '../../../../kc-extension/svc-admin/router.js';
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

  // The internet-facing portal's secret is no key to svc-admin. The routes are
  // walked from the router's own table, so a route added later is covered without editing this.
  test("the portal's service-account token is 403 FORBIDDEN on every svc-admin API route but its purge job's audit entry, and the webhook does not take it for a signature", async (t) => {
    const d = await driver();
    const routes = ROUTE_TABLE.map(({ method, pattern }) => ({ method, pattern, path: pathOf(pattern) }));
    const api = routes.filter(({ path }) => path.startsWith('/api/'));
    t.true(api.length >= 10, `the router's table lists the API routes (${api.length})`);
    for (const { method, pattern, path } of routes) {
      t.true(pattern.test(path), `${path} is a path of ${pattern.source}`);
      const body = method === 'GET' || method === 'DELETE' ? {} : { headers: { 'Content-Type': 'application/json' }, body: '{}' };
      const reply = await d.send({ method, path, token: d.tokens.portal, ...body });
      if (path === '/api/audit/retention') {
        // The one route the portal's service account holds a role for (its purge job's audit entries): an empty body is refused as such.
        t.like(reply, { status: 400, body: { code: 'INVALID_REQUEST' } }, `${method} ${path}`);
      } else if (path.startsWith('/api/')) {
        t.like(reply, { status: 403, body: { code: 'FORBIDDEN' } }, `${method} ${path}`);
        t.true(ErrorBody.safeParse(reply.body).success, `${method} ${path}: the 2.2 shape`);
      } else {
        t.like(reply, { status: 401, body: { result: 'REJECTED' } }, `${method} ${path}: signed, not authorized by a token`);
      }
    }
    const operator = await d.send({ method: 'GET', path: '/api/companies', token: d.tokens.operator });
    t.is(operator.status, 200, 'an operator gets in');
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

/** A concrete path matching a route pattern of the router: each path parameter becomes a company-like code. */
function pathOf(pattern: RegExp): string {
  return pattern.source.replace(/^\^/, '').replace(/\$$/, '').replaceAll('\\/', '/').replaceAll('([^/]+)', 'MEMBER-Z');
}
