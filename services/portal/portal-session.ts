import type { Request, Response } from 'express';
import { asOf, Session } from '../../contract/session.js';
import type { PortalConfig } from './config.js';
import { connectionOf, type Connection } from './connection.js';
import { readPreviousKey, readSid, SID_LIFETIME_MS, sidCookie } from './cookies.js';
import type { IdpClient, PortalClient } from './idp-client.js';
import type { PortalSessionData, PortalSessionStore } from './portal-session-store.js';
import { newSid, sidHash } from './token-crypto.js';
import { replyOf, type Upstreams } from './upstreams.js';

/** A live sign-in behind the cookie, with its network session as read just now (or last known). */
export interface CurrentSignIn {
  sid: string;
  stored: PortalSessionData;
  session: Session;
  /** False when the session service did not answer and `session` is the one read last. */
  fresh: boolean;
}

/** The portal session's lifecycle (spec 2.4, 4.1): every route opens, reads and ends sign-ins here. */
export interface PortalSessions {
  /**
   * The live sign-in behind the cookie, its network session re-read (spec 3.1). A session the
   * session service does not know ended the sign-in (dropped); one it cannot answer for is the
   * last one read, a GRANTED one past its expiry read as EXPIRED (spec 4.4 rule 5).
   */
  current(req: Request, correlationId: string): Promise<CurrentSignIn | undefined>;
  /**
   * Keeps a signed-in outcome behind a fresh cookie (a new `sid` on every sign-in: no fixation).
   * A new sign-in in the same browser ends the one it replaces as a logout would, once the new
   * one has succeeded; a refresh (`replaces: 'itself'`) continues its own.
   */
  open(req: Request, res: Response, data: PortalSessionData, device: string, correlationId: string, replaces?: 'another' | 'itself'): Promise<void>;
  /**
   * Spec 4.1 rule 5, in its order: the network session revoked, then the identity provider's
   * session logged out (unless it already ended it: a refused refresh); the portal session
   * dropped and the cookie cleared. False when a step could not be done.
   */
  end(req: Request, res: Response, correlationId: string, options?: { identityProviderEnded?: boolean }): Promise<boolean>;
  /** The gateway connection of a sign-in through a gateway; undefined without one. */
  connection(stored: PortalSessionData, correlationId: string): Promise<Connection | undefined>;
  /** The PortalSession body (spec 2.4) of a sign-in. */
  view(data: PortalSessionData, session: Session, correlationId: string, extra?: Record<string, unknown>): Record<string, unknown>;
}

export interface PortalSessionDeps {
  config: PortalConfig;
  store: PortalSessionStore;
  upstreams: Upstreams;
  idp: IdpClient;
  now: () => Date;
}

export function createPortalSessions(deps: PortalSessionDeps): PortalSessions {
  const { config, store, upstreams, idp, now } = deps;
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);

  const endSignIn = async (stored: PortalSessionData, correlationId: string, identityProviderEnded = false): Promise<boolean> => {
    const revoked = await upstreams.revokeSession(stored.networkSessionId, correlationId);
    let ok = revoked.kind === 'answer' && revoked.status === 200;
    if (stored.refreshToken !== null && !identityProviderEnded)
      ok = (await idp.logout(stored.client as PortalClient, stored.refreshToken, correlationId)) && ok;
    return ok;
  };

  return {
    async current(req, correlationId) {
      const sid = readSid(req);
      const stored = sid === undefined ? undefined : await store.get(sid);
      if (sid === undefined || stored === undefined) return undefined;
      const read = await upstreams.readSession(stored.networkSessionId, correlationId);
      const session = replyOf(Session, read, [200]);
      if (session !== undefined) {
        if (JSON.stringify(session) !== JSON.stringify(stored.networkSession)) await store.noteNetworkSession(sid, session);
        return { sid, stored, session, fresh: true };
      }
      if (read.kind === 'answer' && read.status === 404) {
        await store.drop(sid);
        return undefined;
      }
      const last = stored.networkSession;
      return last === null ? undefined : { sid, stored, session: asOf(last, now()), fresh: false };
    },

    async open(req, res, data, device, correlationId, replaces = 'another') {
      // The sign-in this one replaces: by its live `sid`, or, once that cookie expired, by the
      // `psid` cookie naming its store key (why a cookie of its own: cookies.ts).
      const sid = readSid(req);
      const previous = new Set(
        [...(sid === undefined ? [] : [sidHash(sid)]), ...(replaces === 'another' ? [readPreviousKey(req)] : [])].filter((key) => key !== undefined),
      );
      for (const key of previous) {
        const stored = replaces === 'another' ? await store.getToEnd(key) : undefined;
        if (stored !== undefined && !(await endSignIn(stored, correlationId)))
          res.locals.log.warn({ sessionId: stored.networkSessionId }, 'the replaced sign-in could not be ended completely');
        await store.dropByKey(key);
      }
      const fresh = newSid();
      await store.put(fresh, data, new Date(now().getTime() + SID_LIFETIME_MS));
      cookie.set(req, res, fresh, device);
    },

    async end(req, res, correlationId, options = {}) {
      const sid = readSid(req);
      const stored = sid === undefined ? undefined : await store.get(sid);
      let ok = false;
      if (stored !== undefined && sid !== undefined) {
        ok = await endSignIn(stored, correlationId, options.identityProviderEnded);
        await store.drop(sid);
      }
      cookie.clear(req, res);
      return ok;
    },

    connection: (stored, correlationId) => connectionOf(upstreams, stored, correlationId),

    view: (data, session, correlationId, extra = {}) => ({
      authenticated: true,
      correlationId,
      client: data.client,
      claims: data.claims,
      entitlement: data.entitlement,
      session,
      ...(config.EXPOSE_TOKEN ? { rawAccessToken: data.accessToken } : {}),
      ...extra,
    }),
  };
}
