import { z } from 'zod';
import { ApiError, callJson, OutboundError, route, SUBJECT_KEY_REFUSALS, subjectKeyRoute, type CallerKey, type Logger, type Route } from '../kit/index.js';
import type { Database } from '../kit/store/index.js';
import type { PortalConfig, PortalScope } from './config.js';
import type { PortalSessions } from './portal-session.js';

/** The ways of signing in an acceptance is recorded through. */
export const TERMS_CHANNELS = ['password', 'register', 'employee', 'phone', 'voucher'] as const;
export type TermsChannel = (typeof TERMS_CHANNELS)[number];

/** A published version of the venue's terms and privacy notice, as svc-admin serves it. */
export const TermsVersion = z.object({
  version: z.string().min(1).max(32),
  textVi: z.string(),
  textEn: z.string(),
  publishedAt: z.iso.datetime({ offset: true }),
});
export type TermsVersion = z.output<typeof TermsVersion>;

export const CurrentTermsReply = z.object({ current: TermsVersion.nullable(), correlationId: z.string() });

export const TermsAcceptance = z.object({
  version: z.string(),
  acceptedAt: z.iso.datetime({ offset: true }),
  channel: z.enum(TERMS_CHANNELS),
});
export const TermsAcceptancesReply = z.object({ acceptances: z.array(TermsAcceptance), correlationId: z.string() });

/** The version in force: none while the operator has published none, or no answer from Keycloak. */
export type CurrentTerms = { kind: 'none' } | { kind: 'published'; terms: TermsVersion } | { kind: 'unreachable' };

export interface TermsSource {
  current(correlationId: string): Promise<CurrentTerms>;
}

/**
 * The current version from svc-admin's public read (realm attributes, edited by an operator),
 * kept TERMS_CACHE_SECONDS so a sign-in does not ask Keycloak each time; a failed read is not kept.
 */
export function createTermsSource(config: PortalConfig, now: () => Date): TermsSource {
  const url = `${config.IDP_URL}/realms/${encodeURIComponent(config.IDP_REALM)}/svc-admin/terms/current`;
  let kept: { answer: CurrentTerms; until: number } | undefined;
  const Reply = z.object({ current: TermsVersion.nullable() });
  return {
    async current(correlationId) {
      const at = now().getTime();
      if (kept !== undefined && at < kept.until) return kept.answer;
      let answer: CurrentTerms;
      try {
        const reply = await callJson({ url, correlationId, timeoutMs: 3000, attempts: 2 });
        const parsed = reply.status === 200 ? Reply.safeParse(reply.body) : undefined;
        if (parsed?.success !== true) return { kind: 'unreachable' };
        answer = parsed.data.current === null ? { kind: 'none' } : { kind: 'published', terms: parsed.data.current };
      } catch (error) {
        if (error instanceof OutboundError) return { kind: 'unreachable' };
        throw error;
      }
      kept = { answer, until: at + config.TERMS_CACHE_SECONDS * 1000 };
      return answer;
    },
  };
}

export interface TermsAcceptances {
  accepted(subjectId: string, version: string): Promise<boolean>;
  /** Keeps the first acceptance of a version (a later one of the same version changes nothing). */
  record(subjectId: string, version: string, channel: TermsChannel): Promise<void>;
  /** The person's acceptances, newest first. */
  list(subjectId: string): Promise<z.output<typeof TermsAcceptance>[]>;
}

interface AcceptanceRow {
  version: string;
  accepted_at: Date | string;
  channel: string;
  [column: string]: unknown;
}

export function createTermsAcceptances(db: Database, now: () => Date): TermsAcceptances {
  return {
    async accepted(subjectId, version) {
      return (await db.query('SELECT 1 FROM terms_acceptances WHERE subject_id = $1 AND version = $2', [subjectId, version])).length === 1;
    },
    async record(subjectId, version, channel) {
      await db.query(
        'INSERT INTO terms_acceptances (subject_id, version, accepted_at, channel) VALUES ($1, $2, $3, $4) ON CONFLICT (subject_id, version) DO NOTHING',
        [subjectId, version, now(), channel],
      );
    },
    async list(subjectId) {
      const rows = await db.query<AcceptanceRow>(
        'SELECT version, accepted_at, channel FROM terms_acceptances WHERE subject_id = $1 ORDER BY accepted_at DESC, version DESC',
        [subjectId],
      );
      return rows.map((row) => TermsAcceptance.parse({ version: row.version, acceptedAt: new Date(row.accepted_at).toISOString(), channel: row.channel }));
    },
  };
}

/** What a sign-in brings about the terms: its way in, and the version the person ticked (if any). */
export interface TermsClaim {
  channel: TermsChannel;
  acceptedTerms: string | undefined;
}

/** What the terms step decided: nothing to record, or this version to record once the sign-in has succeeded. */
export type TermsDue = { version: string } | null;

/**
 * Step "terms": a person who has not accepted the version in force must send its acceptance, or
 * the sign-in is 400 naming the version (the caller's undo ends what Keycloak opened). While no
 * version is published nothing is required. Without an answer from Keycloak nothing is granted.
 */
export async function termsStep(
  source: TermsSource,
  store: TermsAcceptances,
  subjectId: string,
  claim: TermsClaim,
  correlationId: string,
  log: Logger,
): Promise<TermsDue> {
  const current = await source.current(correlationId);
  if (current.kind === 'unreachable') {
    log.warn({ upstream: 'identity provider', failure: 'terms-unavailable' }, 'sign-in failed at an upstream; no access was granted');
    throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The identity provider is unavailable; no access was granted.' });
  }
  if (current.kind === 'none') return null;
  const { version } = current.terms;
  if (await store.accepted(subjectId, version)) return null;
  if (claim.acceptedTerms !== version) {
    log.info({ termsVersion: version, channel: claim.channel }, 'sign-in refused: the current terms are not accepted');
    throw new ApiError('INVALID_REQUEST', { message: `Accept the terms and privacy notice, version ${version}, to sign in (acceptedTerms: "${version}").` });
  }
  return { version };
}

export const SubjectTermsAcceptances = z.object({ subjectId: z.string(), acceptances: z.array(TermsAcceptance) });

/** The terms for the forms (public), the signed-in person's acceptances, and a person's acceptances an operator reads (svc-admin, by key). */
export function termsRoutes(source: TermsSource, store: TermsAcceptances, sessions: PortalSessions, keys: readonly CallerKey<PortalScope>[]): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/v1/subjects/:subjectId/terms',
      summary: "A person's acceptances of the terms and privacy notice, newest first, for an operator's read of their records (svc-admin).",
      ...subjectKeyRoute(keys, 'terms'),
      responses: {
        200: { description: 'Newest first (none when the person accepted none).', schema: SubjectTermsAcceptances },
        ...SUBJECT_KEY_REFUSALS,
      },
      handle: async ({ params: { subjectId } }) => ({ status: 200, body: { subjectId, acceptances: await store.list(subjectId) } }),
    }),
    route({
      method: 'get',
      path: '/api/v1/terms',
      summary: "The venue's terms and privacy notice in force (both languages), or null while none is published.",
      responses: {
        200: { description: 'The current version, or current: null.', schema: CurrentTermsReply },
        502: { description: 'UPSTREAM_UNAVAILABLE: the identity provider (which keeps the terms) did not answer' },
      },
      handle: async ({ correlationId }) => {
        const current = await source.current(correlationId);
        if (current.kind === 'unreachable') throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The terms could not be read just now; try again later.' });
        return { status: 200, body: { current: current.kind === 'none' ? null : current.terms, correlationId } };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/me/terms',
      summary: 'The signed-in person’s acceptances of the terms and privacy notice: version, time and way of signing in.',
      responses: {
        200: { description: 'Newest first.', schema: TermsAcceptancesReply },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
      },
      handle: async ({ req, res, correlationId }) => {
        const found = await sessions.current(req, correlationId);
        if (found === undefined) throw new ApiError('UNAUTHORIZED', { message: 'Sign in to read your acceptances.' });
        res.setHeader('Cache-Control', 'no-store');
        return { status: 200, body: { acceptances: await store.list(found.stored.subjectId), correlationId } };
      },
    }),
  ];
}
