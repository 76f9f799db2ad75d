import { z } from 'zod';
import { Entitlement, SubjectEntitlements } from '../../contract/entitlement.js';
import { ConnectionHistory } from '../../contract/gateway.js';
import { SubjectSessions } from '../../contract/session.js';
import { ApiError, route, type Route } from '../kit/index.js';
import type { AccountAdmin, AccountRecord } from './account-admin.js';
import type { PortalSessions } from './portal-session.js';
import { TermsAcceptance, type TermsAcceptances } from './terms.js';
import { replyOf, type Upstreams } from './upstreams.js';

/**
 * Attributes that are keys, not the person's data: `cccd_link` is a keyed hash of the citizen
 * number (sealed: the number itself is never stored), and any attribute named like a hash, secret,
 * token or seal would be one too. No attribute the platform writes names another person.
 */
const SEALED_ATTRIBUTES = new Set(['cccd_link']);
const SEALED_NAME = /hash|secret|token|seal|password|citizen|cccd/i;

const isSealedAttribute = (name: string): boolean => SEALED_ATTRIBUTES.has(name) || SEALED_NAME.test(name);

export const DataCopyAccount = z
  .object({
    username: z.string(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    createdAt: z.iso.datetime({ offset: true }).nullable(),
    enabled: z.boolean(),
    attributes: z
      .record(z.string(), z.array(z.string()))
      .describe(
        "Every attribute the realm stores on the account (phone number, employee reference, company, user type, voucher validity...), except the sealed ones: cccd_link (a keyed hash of the citizen number) and any attribute named like a hash, secret, token or seal, which are keys rather than the person's data.",
      ),
  })
  .describe("The person's Keycloak account as the platform holds it when the copy is asked for; credentials are never part of it.");

const accountOf = (record: AccountRecord): z.output<typeof DataCopyAccount> => ({
  username: record.username,
  email: record.email,
  emailVerified: record.emailVerified,
  firstName: record.firstName,
  lastName: record.lastName,
  createdAt: record.createdMs === null || record.createdMs === 0 ? null : new Date(record.createdMs).toISOString(),
  enabled: record.enabled,
  attributes: Object.fromEntries(Object.entries(record.attributes).filter(([name]) => !isSealedAttribute(name))),
});

/**
 * What a person downloads about themselves: their Keycloak account, every entitlement the
 * entitlement service holds of them (and, as before, the entitlement of this sign-in), and every
 * network session with its state changes and gateway connections (times, counters). Each part is parsed by its contract schema, so nothing a service might add
 * later (a device pseudonym, a sealed identity) passes through unseen.
 */
export const DataCopy = z.object({
  generatedAt: z.iso.datetime({ offset: true }),
  subjectId: z.string(),
  account: DataCopyAccount,
  entitlement: Entitlement.describe('What this sign-in was granted (also among `entitlements`, unless the retention window removed it).'),
  entitlements: SubjectEntitlements.shape.entitlements.describe('Every entitlement the entitlement service holds of the person, oldest first.'),
  networkSessions: z.array(SubjectSessions.shape.sessions.element.extend({ connections: ConnectionHistory.shape.connections })),
  termsAcceptances: z.array(TermsAcceptance).describe('Every version of the terms and privacy notice the person accepted, newest first.'),
  correlationId: z.string(),
});

const unavailable = () => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'Your data could not be gathered just now; try again later.' });

/** The signed-in person's copy of their data, as a JSON download; the subject is the sign-in's own, never one the request names. */
export function dataCopyRoutes(
  sessions: PortalSessions,
  upstreams: Upstreams,
  accounts: AccountAdmin,
  acceptances: TermsAcceptances,
  now: () => Date,
): Route[] {
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
        // Read at the time of the request, not the sign-in's claims: the copy is what the platform holds now.
        const account = await accounts.readAccount(subjectId);
        if (account === undefined) throw unavailable();
        const granted = replyOf(SubjectEntitlements, await upstreams.subjectEntitlements(subjectId, correlationId), [200]);
        if (granted === undefined || granted.subjectId !== subjectId) throw unavailable();
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
            account: accountOf(account),
            entitlement: found.stored.entitlement,
            entitlements: granted.entitlements,
            networkSessions,
            termsAcceptances: await acceptances.list(subjectId),
            correlationId,
          },
        };
      },
    }),
  ];
}
