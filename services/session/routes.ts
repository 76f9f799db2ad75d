import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError, idempotentReplays, readIdempotencyKey, requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
import type { Queryable } from '../kit/store/index.js';
import { awaitChanges, CURSOR_PATTERN, FEED_START, MAX_FEED_WAIT_SECONDS, readChanges } from './change-feed.js';
import type { FeedWake } from './feed-wake.js';
import { PATH_ID_PATTERN } from '../../contract/index.js';
import { type AllowanceLeft, ChangesPage, CreateSessionRequest, GrantRequest, RevokeSubjectRequest, Session, SubjectRevoked } from '../../contract/session.js';
import type { SessionScope } from './config.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import type { UsageCounters } from './usage-counters.js';

const answer = (status: number, session: SessionRecord & { remaining?: AllowanceLeft | null }, replayed = false) => {
  if (replayed) idempotentReplays.inc({ service: 'session' });
  // Only a read counts what is left; every other answer says it did not (null), so all answers have one shape.
  return { status, body: { remaining: null, ...session, replayed } };
};

// Spec 3.1 last row: a grant without an entitlement changes nothing and is a denial (422),
// whatever else the body holds.
const entitlementRequired: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['entitlementId'] : undefined;
  if (id === undefined || id === null || id === '') {
    throw new ApiError('ENTITLEMENT_DENIED', { status: 422, message: 'A grant needs the entitlementId that allows it.' });
  }
  next();
};

const notFound = () => new ApiError('NOT_FOUND', { message: 'No session has this id.' });
// Spec 2.1: the path pattern is enforced before any lookup (route() checks params before the body is read).
const sessionIdPath = { sessionId: z.string().regex(PATH_ID_PATTERN, 'must match ^[A-Za-z0-9-]{1,64}$') };
const forbidden = { 403: { description: "FORBIDDEN: the key is known but lacks this route's scope." } };
const common = { 400: { description: 'INVALID_REQUEST' }, 401: { description: 'UNAUTHORIZED' }, ...forbidden };

const changesQuery = {
  after: z
    .string()
    .regex(CURSOR_PATTERN, 'must be a cursor from an earlier answer')
    .default(FEED_START)
    .describe('Cursor of the last change handled; absent: from the start.'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Most changes in one answer.'),
  waitSeconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_FEED_WAIT_SECONDS)
    .default(0)
    .describe(`With nothing after the cursor, hold the answer up to this long until a change (or a session's expiry) comes; 0 answers at once.`),
};

/** Spec 4.4, the four session endpoints, and the change feed; every one needs a key with its scope. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table: each route one declaration (schema, statuses, handler) read beside the OpenAPI it generates
export function sessionRoutes(
  store: SessionStore,
  db: Queryable,
  wake: FeedWake,
  keys: readonly CallerKey<SessionScope>[],
  now: () => Date,
  usage?: UsageCounters,
): Route[] {
  const key = (scope: SessionScope) => requireApiKey(keys, scope);
  return [
    route({
      method: 'get',
      path: '/api/v1/sessions/changes',
      summary: 'State changes of every session after a cursor, oldest first (expiries included); followers store the cursor.',
      security: 'apiKey',
      query: changesQuery,
      steps: [key('changes')],
      responses: {
        200: { description: 'The next changes, possibly none.', schema: ChangesPage },
        400: { description: 'INVALID_REQUEST: a malformed cursor or limit.' },
        401: { description: 'UNAUTHORIZED' },
        ...forbidden,
      },
      handle: async ({ query: { after, limit, waitSeconds }, res, correlationId }) => {
        if (waitSeconds === 0) return { status: 200, body: await readChanges(db, after, limit, now(), correlationId) };
        const gone = new AbortController();
        res.once('close', () => gone.abort());
        return { status: 200, body: await awaitChanges(db, wake, { after, limit, waitMs: waitSeconds * 1000, now, correlationId, signal: gone.signal }) };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/subjects/:subjectId/revoke',
      summary: 'Ends every open session of a subject (an employee terminated or suspended); the gateways hear of each through the change feed.',
      security: 'apiKey',
      params: { subjectId: z.uuid('must be a UUID') },
      body: RevokeSubjectRequest,
      steps: [key('revoke-subject')],
      responses: {
        200: { description: 'The sessions this call revoked (none when nothing was open: revoking again changes nothing).', schema: SubjectRevoked },
        ...common,
      },
      handle: async ({ params: { subjectId }, body, correlationId }) => {
        return { status: 200, body: { subjectId, revoked: await store.revokeSubject(subjectId, body.reason, correlationId) } };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/sessions',
      summary: 'Opens a network session in state CREATED; it grants nothing.',
      security: 'apiKey',
      body: CreateSessionRequest,
      steps: [key('create')],
      responses: {
        201: { description: 'Created.', schema: Session },
        200: { description: 'Replay of the same Idempotency-Key: the original session.', schema: Session },
        ...common,
        422: { description: 'IDEMPOTENCY_KEY_REUSED: the key was used with another subject or device.' },
      },
      handle: async ({ body, req, correlationId }) => {
        const idempotencyKey = readIdempotencyKey(req);
        const outcome = await store.create({ ...body, idempotencyKey }, correlationId);
        if (outcome.kind === 'key-reused') throw new ApiError('IDEMPOTENCY_KEY_REUSED');
        return outcome.kind === 'created' ? answer(201, outcome.session) : answer(200, outcome.session, true);
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/sessions/:sessionId',
      summary: 'Reads a session; a GRANTED session past expiresAt reads (and is stored) as EXPIRED.',
      security: 'apiKey',
      params: sessionIdPath,
      steps: [key('read')],
      responses: { 200: { description: 'The session.', schema: Session }, ...common, 404: { description: 'NOT_FOUND' } },
      handle: async ({ params: { sessionId }, correlationId }) => {
        const session = await store.read(sessionId, correlationId);
        if (session === undefined) throw notFound();
        const left = usage === undefined || session.allowance === null ? null : await usage.remaining(session.subjectId, session.allowance, now());
        return answer(200, { ...session, remaining: left === null ? null : { ...left, renewsAt: left.renewsAt.toISOString() } });
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/sessions/:sessionId/grant',
      summary: 'Grants the session under an entitlement; the same entitlement again is a no-op replay.',
      security: 'apiKey',
      params: sessionIdPath,
      body: GrantRequest,
      steps: [key('grant')],
      bodySteps: [entitlementRequired],
      responses: {
        200: { description: 'Granted, or `replayed: true` for the same entitlement.', schema: Session },
        ...common,
        404: { description: 'NOT_FOUND' },
        409: { description: 'SESSION_EXPIRED: the session is REVOKED or EXPIRED.' },
        422: { description: 'ENTITLEMENT_DENIED: no entitlementId.' },
      },
      handle: async ({ body, params: { sessionId }, correlationId }) => {
        const validUntil = new Date(body.validUntil);
        if (validUntil.getTime() <= now().getTime()) {
          throw new ApiError('INVALID_REQUEST', { message: 'validUntil: must be in the future.' });
        }
        const outcome = await store.grant(sessionId, { ...body, validUntil }, correlationId);
        switch (outcome.kind) {
          case 'not-found':
            throw notFound();
          case 'ended':
            throw new ApiError('SESSION_EXPIRED');
          case 'replayed':
            return answer(200, outcome.session, true);
          case 'granted':
            return answer(200, outcome.session);
        }
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/sessions/:sessionId/revoke',
      summary: 'Revokes the session; revoking again is a no-op.',
      security: 'apiKey',
      params: sessionIdPath,
      steps: [key('revoke')],
      responses: { 200: { description: 'The session after the revoke.', schema: Session }, ...common, 404: { description: 'NOT_FOUND' } },
      handle: async ({ params: { sessionId }, correlationId }) => {
        const outcome = await store.revoke(sessionId, correlationId);
        if (outcome.kind === 'not-found') throw notFound();
        return answer(200, outcome.session);
      },
    }),
  ];
}
