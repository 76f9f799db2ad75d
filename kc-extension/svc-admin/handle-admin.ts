import type { AdminReply, AdminRequest } from '../host/admin-host.js';

// spec 4.7: the shell page is public and carries no data. The module's API arrives later.
const SHELL = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Member-company module</title></head>
<body><main id="svc-admin"><h1>Member-company module</h1></main></body>
</html>
`;

const notFound: AdminReply = {
  status: 404,
  contentType: 'application/json',
  body: JSON.stringify({ code: 'NOT_FOUND', message: 'No such svc-admin resource' }),
};

export function handleAdminRequest(request: AdminRequest): AdminReply {
  if (request.method === 'GET' && (request.path === '/' || request.path === '')) {
    return { status: 200, contentType: 'text/html; charset=utf-8', body: SHELL };
  }
  return notFound;
}
