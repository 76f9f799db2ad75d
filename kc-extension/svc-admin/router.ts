import { acceptCorrelationId, CORRELATION_HEADER } from '../../contract/index.js';
import type { AdminHost, AdminReply } from '../host/admin-host.js';
import { assetManifest, assetReply } from './assets.js';
import { authorize, authorizeRetention } from './authorize.js';
import { deleteRoute, listRoute, putRoute } from './companies.js';
import { evaluateRoute, getModelRoute, listModelsRoute, putModelRoute } from './dmn-routes.js';
import type { AdminContext, RouteResult } from './context.js';
import { auditRoute, retentionErasureRoute } from './audit.js';
import { eventsRoute } from './event-log.js';
import { importRoute } from './import-route.js';
import { erasePersonRoute, findPersonsRoute, readPersonRoute } from './persons.js';
import { probeRoute } from './probe.js';
import { shellPage } from './shell-page.js';
import { currentTermsRoute, listTermsRoute, publishTermsRoute, withdrawTermsRoute } from './terms.js';
import { webhookRoute } from './webhook.js';
import { createBatchRoute, getBatchRoute, listBatchesRoute, revokeBatchRoute, revokeByCodeRoute, revokeVoucherRoute } from './vouchers.js';
import { AdminError, documentReply, errorReply, jsonReply } from './wire-error.js';

interface Route {
  method: string;
  pattern: RegExp;
  handle(context: AdminContext, ...params: string[]): RouteResult | Promise<RouteResult>;
}

const SEGMENT = '([^/]+)';
const ASSET = new RegExp(`^/assets/${SEGMENT}$`);
const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/companies$/, handle: listRoute },
  { method: 'PUT', pattern: new RegExp(`^/api/companies/${SEGMENT}$`), handle: putRoute },
  { method: 'DELETE', pattern: new RegExp(`^/api/companies/${SEGMENT}$`), handle: deleteRoute },
  { method: 'POST', pattern: new RegExp(`^/api/companies/${SEGMENT}/test$`), handle: probeRoute },
  { method: 'GET', pattern: /^\/api\/events$/, handle: eventsRoute },
  { method: 'POST', pattern: /^\/api\/import$/, handle: importRoute },
  { method: 'GET', pattern: /^\/api\/dmn\/models$/, handle: listModelsRoute },
  { method: 'GET', pattern: new RegExp(`^/api/dmn/models/${SEGMENT}$`), handle: getModelRoute },
  { method: 'PUT', pattern: new RegExp(`^/api/dmn/models/${SEGMENT}$`), handle: putModelRoute },
  { method: 'POST', pattern: new RegExp(`^/api/dmn/evaluate/${SEGMENT}$`), handle: evaluateRoute },
  { method: 'POST', pattern: /^\/api\/vouchers\/batches$/, handle: createBatchRoute },
  { method: 'GET', pattern: /^\/api\/vouchers\/batches$/, handle: listBatchesRoute },
  { method: 'GET', pattern: new RegExp(`^/api/vouchers/batches/${SEGMENT}$`), handle: getBatchRoute },
  { method: 'POST', pattern: new RegExp(`^/api/vouchers/batches/${SEGMENT}/revoke$`), handle: revokeBatchRoute },
  { method: 'POST', pattern: new RegExp(`^/api/vouchers/batches/${SEGMENT}/vouchers/${SEGMENT}/revoke$`), handle: revokeVoucherRoute },
  { method: 'POST', pattern: /^\/api\/vouchers\/revoke$/, handle: revokeByCodeRoute },
  { method: 'GET', pattern: /^\/api\/terms$/, handle: listTermsRoute },
  { method: 'POST', pattern: /^\/api\/terms$/, handle: publishTermsRoute },
  { method: 'DELETE', pattern: new RegExp(`^/api/terms/${SEGMENT}$`), handle: withdrawTermsRoute },
  { method: 'GET', pattern: /^\/api\/persons$/, handle: findPersonsRoute },
  { method: 'GET', pattern: new RegExp(`^/api/persons/${SEGMENT}$`), handle: readPersonRoute },
  { method: 'POST', pattern: new RegExp(`^/api/persons/${SEGMENT}/erase$`), handle: erasePersonRoute },
  { method: 'GET', pattern: /^\/api\/audit$/, handle: auditRoute },
  { method: 'POST', pattern: /^\/api\/audit\/retention$/, handle: retentionErasureRoute },
  { method: 'POST', pattern: new RegExp(`^/webhook/${SEGMENT}$`), handle: webhookRoute },
];

/** Every route the module answers besides the shell page and the GUI's files: method and path pattern (tests walk it). */
export const ROUTE_TABLE: readonly { method: string; pattern: RegExp }[] = ROUTES.map(({ method, pattern }) => ({ method, pattern }));

function route(context: AdminContext): RouteResult | Promise<RouteResult> {
  const { method, path } = context.host.request;
  // spec 5: all of /api/* (unknown paths too) needs the realm token; the webhook is signed instead (spec 6).
  // The portal's purge job records its erasures with a role of its own, which opens nothing else.
  if (method === 'POST' && path === '/api/audit/retention') authorizeRetention(context);
  else if (path.startsWith('/api/')) authorize(context);
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(path);
    if (match === null || candidate.method !== method) continue;
    return candidate.handle(context, ...match.slice(1).map(decodeURIComponent));
  }
  throw new AdminError('NOT_FOUND', 'No such svc-admin resource.');
}

/**
 * The module's single entry: shell page, API, webhook; every failure is the spec 2.2 object.
 * Only the DMN routes are asynchronous (the engine parses with promises); the host completes them.
 */
export function handleAdminRequest(host: AdminHost): AdminReply | Promise<AdminReply> {
  const { method, path } = host.request;
  if (method === 'GET' && (path === '/' || path === '')) {
    return shellPage(`/realms/${encodeURIComponent(host.realm.name)}/svc-admin/assets/`, assetManifest(host), host.newUuid().replace(/-/g, ''));
  }
  const context: AdminContext = { host, correlationId: acceptCorrelationId(host.request.header(CORRELATION_HEADER), () => host.newUuid()) };
  const finish = (result: RouteResult): AdminReply => {
    const reply =
      result.contentType === undefined ? jsonReply(result.status, result.body, context.correlationId) : documentReply(result, context.correlationId);
    return result.rollback === true ? { ...reply, rollback: true } : reply;
  };
  const fail = (error: unknown): AdminReply => {
    if (error instanceof AdminError) return { ...errorReply(error, context.correlationId, host.nowMs()), rollback: !error.keepWrites };
    host.log('error', `svc-admin request failed: ${error instanceof Error ? error.name : 'unknown'}`);
    return { ...errorReply(new AdminError('INTERNAL_ERROR'), context.correlationId, host.nowMs()), rollback: true };
  };
  try {
    // The GUI's files are public like the shell page: they carry no data (spec 4.7).
    const asset = ASSET.exec(path);
    if (method === 'GET' && asset !== null) return assetReply(host, asset[1] ?? '');
    // Public like the shell page: the portal reads the current terms for its sign-in forms (public text).
    if (method === 'GET' && path === '/terms/current') return finish(currentTermsRoute(context));
    const result = route(context);
    return result instanceof Promise ? result.then(finish, fail) : finish(result);
  } catch (error) {
    return fail(error);
  }
}
