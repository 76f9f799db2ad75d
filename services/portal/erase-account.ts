import { z } from 'zod';
import { eraseSubjectEverywhere, type ErasureSteps } from '../../contract/erasure.js';
import { SubjectSessions } from '../../contract/session.js';
import { ApiError, route, type Route } from '../kit/index.js';
import type { AccountAdmin, HoldOptions } from './account-admin.js';
import type { PortalConfig } from './config.js';
import { sidCookie } from './cookies.js';
import { crossSiteGuard } from './cross-site.js';
import type { PortalSessions } from './portal-session.js';
import type { PortalSessionStore } from './portal-session-store.js';
import { type PeerAnswer, replyOf, type Upstreams } from './upstreams.js';

export const EraseRequest = z.strictObject({
  confirm: z.literal(true).describe('The person confirmed the deletion (the page asks a second time).'),
});
export const EraseReply = z.object({ erased: z.literal(true), correlationId: z.string() });

const incomplete = () =>
  new ApiError('UPSTREAM_UNAVAILABLE', {
    message: 'Your account could not be deleted completely just now; it stays disabled. Try again to finish the deletion.',
  });
const employer = () => new ApiError('ACCOUNT_MANAGED_BY_EMPLOYER');
const venue = () => new ApiError('ACCOUNT_MANAGED_BY_VENUE');

const done = (answer: PeerAnswer): boolean => answer.kind === 'answer' && answer.status === 200;

/**
 * The portal's steps of a person's erasure (contract/erasure.ts): the hold and the account's
 * removal through its Keycloak admin client, every other service's part through its upstreams.
 * The person's own "Delete my account" and the retention job take the same steps.
 */
export function portalErasureSteps(accounts: AccountAdmin, upstreams: Upstreams, correlationId: string, holdOptions: HoldOptions = {}): ErasureSteps {
  return {
    hold: async (id) => (await accounts.holdForErasure(id, holdOptions)).kind,
    listSessionIds: async (id) => {
      const listed = replyOf(SubjectSessions, await upstreams.subjectSessions(id, correlationId), [200]);
      return listed === undefined || listed.subjectId !== id ? undefined : listed.sessions.map((session) => session.sessionId);
    },
    eraseConnections: async (ids) => done(await upstreams.eraseConnections(ids, correlationId)),
    eraseSessions: async (id) => done(await upstreams.eraseSessions(id, correlationId)),
    eraseEntitlements: async (id) => done(await upstreams.eraseEntitlements(id, correlationId)),
    removeAccount: (id) => accounts.removeAccount(id),
  };
}

export interface EraseDeps {
  config: PortalConfig;
  sessions: PortalSessions;
  store: PortalSessionStore;
  upstreams: Upstreams;
  accounts: AccountAdmin;
}

/**
 * A person deletes their account. The account is disabled first (it can no longer sign in, so
 * a deletion that stops part-way never leaves an account that looks whole), then each service
 * erases its part, then Keycloak's user goes, and last the portal sessions in every browser.
 * Every step is idempotent, and the portal session that asked stays until the end, so the same
 * person can repeat the request until it completes. The gateway goes before the session service:
 * once the session service anonymised the sessions, their ids can no longer be listed by subject.
 */
export function eraseAccountRoutes(deps: EraseDeps): Route[] {
  const { sessions, store, upstreams, accounts } = deps;
  const { sameOrigin } = crossSiteGuard(deps.config.PORTAL_PUBLIC_URL);
  const cookie = sidCookie(deps.config.PORTAL_PUBLIC_URL);
  return [
    route({
      method: 'post',
      path: '/api/v1/me/erase',
      summary:
        'The signed-in person deletes their account: network sessions revoked and disconnected, their records erased or anonymised in every service, the Keycloak user removed, every portal session ended.',
      steps: [sameOrigin],
      body: EraseRequest,
      responses: {
        200: { description: 'Deleted; the cookie is cleared.', schema: EraseReply },
        400: { description: 'INVALID_REQUEST: the deletion is not confirmed.' },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
        403: {
          description:
            "ACCOUNT_MANAGED_BY_EMPLOYER: an imported employee's account, left to its company's HR; ACCOUNT_MANAGED_BY_VENUE: a voucher's account (shared, the venue's), revoked in svc-admin; FORBIDDEN: a cross-site request.",
        },
        502: { description: 'UPSTREAM_UNAVAILABLE: a step could not be done; the account stays disabled and the same request finishes it.' },
      },
      handle: async ({ req, res, correlationId }) => {
        const found = await sessions.current(req, correlationId);
        if (found === undefined) throw new ApiError('UNAUTHORIZED', { message: 'Sign in to delete your account.' });
        const { subjectId } = found.stored;
        if (found.stored.claims['user_type'] === 'EMPLOYEE') throw employer();
        if (found.stored.claims['user_type'] === 'VOUCHER') throw venue();
        const outcome = await eraseSubjectEverywhere(subjectId, portalErasureSteps(accounts, upstreams, correlationId));
        if (outcome === 'employee') throw employer();
        if (outcome === 'voucher') throw venue();
        if (outcome === 'incomplete') throw incomplete();
        await store.dropSubject(subjectId);
        cookie.clear(req, res);
        return { status: 200, body: { erased: true, correlationId } };
      },
    }),
  ];
}
