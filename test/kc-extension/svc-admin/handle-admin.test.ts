import test from 'ava';
import { handleAdminRequest } from '../../../kc-extension/svc-admin/handle-admin.js';
import type { AdminRequest } from '../../../kc-extension/host/admin-host.js';

const request = (method: string, path: string): AdminRequest => ({ method, path, body: undefined, header: () => undefined });

test('GET / serves the public shell page', (t) => {
  const reply = handleAdminRequest(request('GET', '/'));
  t.is(reply.status, 200);
  t.true(reply.contentType.startsWith('text/html'));
  t.regex(reply.body, /Member-company module/);
});

test('anything else is a 404 error object', (t) => {
  const reply = handleAdminRequest(request('GET', '/api/companies'));
  t.is(reply.status, 404);
  t.is((JSON.parse(reply.body) as { code: string }).code, 'NOT_FOUND');
});
