import { z } from 'zod';
import { Entitlement } from '../../contract/entitlement.js';
import { ConnectionHistory } from '../../contract/gateway.js';
import { SubjectSessions } from '../../contract/session.js';
import { ApiError, route, type Route } from '../kit/index.js';
import type { PortalSessions } from './portal-session.js';
import { TermsAcceptance, type TermsAcceptances } from './terms.js';
import { replyOf, type Upstreams } from './upstreams.js';

/**
 * What a person downloads about themselves: their account as the sign-in saw it, the entitlement
 * of this sign-in, and every network session with its state changes and gateway connections
 * (times, counters). Each part is parsed by its contract schema, so nothing a service might add
 * later (a device pseudonym, a sealed identity) passes through unseen.
 */
export const DataCopy = z.object({
  generatedAt: z.iso.datetime({ offset: true }),
  subjectId: z.string(),
  account: z.record(z.string(), z.unknown()).describe("The account's claims as this sign-in received them (no citizen number is ever among them)."),
  entitlement: Entitlement.describe('What this sign-in was granted.'),
  networkSessions: z.array(SubjectSessions.shape.sessions.element.extend({ connections: ConnectionHistory.shape.connections })),
  termsAcceptances: z.array(TermsAcceptance).describe('Every version of the terms and privacy notice the person accepted, newest first.'),
  correlationId: z.string(),
});

const unavailable = () => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'Your data could not be gathered just now; try again later.' });

/** The signed-in person's copy of their data, as a JSON download; the subject is the sign-in's own, never one the request names. */
export function dataCopyRoutes(sessions: PortalSessions, upstreams: Upstreams, acceptances: TermsAcceptances, now: () => Date): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/v1/me/data',
      summary: 'The signed-in person downloads what the platform holds about them (JSON).',
      responses: {
        200: { description: 'The copy, as an attachment.', schema: DataCopy },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
        502: { description: 'UPSTREAM_UNAVAILABLE: a service holding part of the data did not answer.' },
      },
      handle: async ({ req, res, correlationId }) => {
        const found = await sessions.current(req, correlationId);
        if (found === undefined) throw new ApiError('UNAUTHORIZED', { message: 'Sign in to download your data.' });
        const { subjectId } = found.stored;
        const held = replyOf(SubjectSessions, await upstreams.subjectSessions(subjectId, correlationId), [200]);
        if (held === undefined || held.subjectId !== subjectId) throw unavailable();
        const networkSessions = [];
        for (const session of held.sessions) {
          const history = replyOf(ConnectionHistory, await upstreams.connectionHistory(session.sessionId, correlationId), [200]);
          if (history === undefined || history.sessionId !== session.sessionId) throw unavailable();
          networkSessions.push({ ...session, connections: history.connections });
        }
        res.setHeader('Content-Disposition', 'attachment; filename="my-wifi-data.json"');
        res.setHeader('Cache-Control', 'no-store');
        return {
          status: 200,
          body: {
            generatedAt: now().toISOString(),
            subjectId,
            account: found.stored.claims,
            entitlement: found.stored.entitlement,
            networkSessions,
            termsAcceptances: await acceptances.list(subjectId),
            correlationId,
          },
        };
      },
    }),
  ];
}
