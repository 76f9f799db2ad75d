import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayRegistry, Logger } from '../kit/index.js';
import type { ArrivalLimit } from './arrival-limit.js';
import { sendArrivalPage, type ArrivalPage } from './arrival-page.js';
import type { PortalConfig } from './config.js';
import { readSid, sidCookie } from './cookies.js';
import { readGatewayArrival } from './gateway-arrival.js';
import type { GatewayContextStore } from './gateway-context-store.js';
import type { PortalSessionStore } from './portal-session-store.js';
import { chooseLanguage } from './ui/language.js';

export interface GatewayRouteDeps {
  config: PortalConfig;
  registry: GatewayRegistry;
  contexts: GatewayContextStore;
  sessions: PortalSessionStore;
  limit: ArrivalLimit;
  logger: Logger;
}

/**
 * Issue 27: `GET /gateway`, where a venue's controller sends a captive device and sends it back
 * after its login, in every state its profile documents. A device to sign in is kept behind
 * cookie `gw` and sent on to the page without the parameters (303 to `/`, the MAC leaves the
 * address bar); every other state and every refusal is a page in the person's language. Outside
 * the API document: it answers browsers with pages, never JSON.
 */
export function gatewayArrivalRouter(deps: GatewayRouteDeps): Router {
  const { config } = deps;
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);
  const publicOrigin = new URL(config.PORTAL_PUBLIC_URL).origin;
  const router = express.Router();
  // MikroTik's login.html may forward by an auto-posting form: the same parameters, as a form body.
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 32 });
  const arrive = async (req: Request, res: Response, next: NextFunction, params: Record<string, unknown>) => {
    try {
      const language = chooseLanguage(req.get('Cookie'), req.get('Accept-Language'));
      const show = (page: ArrivalPage) => sendArrivalPage(res, page, language);
      res.set('Cache-Control', 'no-store');
      if (!deps.limit.take(req.ip ?? 'unknown')) {
        res.set('Retry-After', String(deps.limit.retryAfterSeconds()));
        return show({ kind: 'rate-limited' });
      }
      // CoovaChilli signs the URL it built: its uamserver setting, i.e. this portal's public address.
      const outcome = readGatewayArrival({ registry: deps.registry, deviceRefKey: config.DEVICE_REF_KEY }, params, `${publicOrigin}${req.originalUrl}`);
      if (outcome.kind === 'none') return res.redirect(303, '/');
      if (outcome.kind === 'refused') {
        deps.logger.info({ why: outcome.why, parameters: outcome.problems }, 'gateway arrival refused');
        return show(outcome.why === 'malformed' ? { kind: 'malformed', names: outcome.problems } : { kind: outcome.why });
      }
      const { arrival } = outcome;
      if (outcome.kind === 'context') {
        cookie.gateway(req, res, await deps.contexts.put(outcome.context), config.GATEWAY_CONTEXT_TTL_SECONDS * 1000);
        if (arrival.state === 'login') return res.redirect(303, '/');
        return show({ kind: 'failed', reason: arrival.reason, canRetry: true });
      }
      if (arrival.state === 'success') {
        // The way back is shown only to a browser that signed in here, as a plain link.
        const sid = readSid(req);
        const signedIn = sid === undefined ? undefined : await deps.sessions.get(sid);
        const returnUrl = signedIn === undefined ? null : (signedIn.gateway?.returnUrl ?? arrival.returnUrl);
        return show({ kind: 'connected', timeLeftSeconds: arrival.timeLeft, returnUrl });
      }
      if (arrival.state === 'failed') return show({ kind: 'failed', reason: arrival.reason, canRetry: false });
      return show({ kind: arrival.state === 'login' ? 'already' : arrival.state });
    } catch (error) {
      next(error);
    }
  };
  router.get('/gateway', (req, res, next) => arrive(req, res, next, req.query as Record<string, unknown>));
  router.post('/gateway', form, (req, res, next) => arrive(req, res, next, (req.body ?? {}) as Record<string, unknown>));
  return router;
}
