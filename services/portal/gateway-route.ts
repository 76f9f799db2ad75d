import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { OpenndsGatewayStatus } from '../../contract/gateway.js';
import { NAS_ID_PATTERN } from '../../contract/ids.js';
import { newCorrelationId, type Logger } from '../kit/index.js';
import type { GatewayRegistry } from '../../edge/index.js';
import type { ArrivalLimit } from './arrival-limit.js';
import { sendArrivalPage, type ArrivalPage } from './arrival-page.js';
import type { PortalConfig } from './config.js';
import { readGatewayCookie, readSid, sidCookie } from './cookies.js';
import { readGatewayArrival } from './gateway-arrival.js';
import { readOpenndsArrival } from './opennds-arrival.js';
import { replyOf, type Upstreams } from './upstreams.js';
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
  upstreams: Pick<Upstreams, 'relayAuthmon' | 'openndsGateway'>;
}

/** The caller as the trusted proxies report it (PORTAL_TRUSTED_PROXIES). */
const callerOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';
const AUTHMON_FORM = { auth_get: /^[a-z]{1,16}$/, gatewayhash: /^[0-9a-f]{64}$/, payload: /^[A-Za-z0-9+/=\s]{0,65536}$/ } as const;
/** What the signing post-request.php adds; passed on as sent, the gateway service judges them. */
const AUTHMON_SIGNATURE = { ts: /^[0-9]{1,12}$/, nonce: /^[0-9a-f]{32}$/, sig: /^[0-9a-f]{64}$/ } as const;

/**
 * `GET /gateway`, where a venue's controller sends a captive device and sends it back
 * after its login, in every state its profile documents. A device to sign in is kept behind
 * cookie `gw` and sent on to the page without the parameters (303 to `/`, the MAC leaves the
 * address bar); every other state and every refusal is a page in the person's language. Outside
 * the API document: it answers browsers with pages, never JSON.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one arrival read top to bottom: every page a controller's redirect can lead to, in the order they are decided
export function gatewayArrivalRouter(deps: GatewayRouteDeps): Router {
  const { config } = deps;
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);
  const publicOrigin = new URL(config.PORTAL_PUBLIC_URL).origin;
  const router = express.Router();
  /** Whether the openNDS gateway's authmon polls the platform; undefined when the gateway service did not say. */
  const openndsPolling = async (nasId: string): Promise<boolean | undefined> => {
    const status = replyOf(OpenndsGatewayStatus, await deps.upstreams.openndsGateway(nasId, newCorrelationId()), [200]);
    if (status === undefined) deps.logger.warn({ nasId }, 'gateway service did not say whether the openNDS gateway polls');
    return status?.polling;
  };
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
      const outcome = readGatewayArrival(
        { registry: deps.registry, deviceRefKey: config.DEVICE_REF_KEY },
        params,
        `${publicOrigin}${req.originalUrl}`,
        callerOf(req),
      );
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

  // openNDS's FAS, at the router's faspath `/opennds/<nasId>`. GET: a captive device
  // arriving with the encrypted query; POST: the router's authmon (and BinAuth, revocation-poll)
  // form, relayed to the gateway service, which keeps the authorisations in its store.
  router.get('/opennds/:nasId', async (req, res, next) => {
    try {
      const language = chooseLanguage(req.get('Cookie'), req.get('Accept-Language'));
      const show = (page: ArrivalPage) => sendArrivalPage(res, page, language);
      res.set('Cache-Control', 'no-store');
      if (!deps.limit.take(req.ip ?? 'unknown')) {
        res.set('Retry-After', String(deps.limit.retryAfterSeconds()));
        return show({ kind: 'rate-limited' });
      }
      const { nasId } = req.params;
      const lifeMs = config.OPENNDS_CONTEXT_TTL_SECONDS * 1000;
      const outcome = NAS_ID_PATTERN.test(nasId)
        ? await readOpenndsArrival(
            {
              registry: deps.registry,
              deviceRefKey: config.DEVICE_REF_KEY,
              holdHid: (context) => deps.contexts.holdHid(context, lifeMs, readGatewayCookie(req)),
              polling: (id) => openndsPolling(id),
            },
            nasId,
            req.query as Record<string, unknown>,
            callerOf(req),
          )
        : ({ kind: 'refused', why: 'unknown-gateway', problems: [] } as const);
      if (outcome.kind === 'refused') {
        const log = { why: outcome.why, parameters: outcome.problems, profile: 'opennds', nasId: NAS_ID_PATTERN.test(nasId) ? nasId : undefined };
        // A registered gateway that does not poll (FAS level 1/2, authmon stopped) is the operator's to fix: a warning.
        if (outcome.why === 'not-polling' || outcome.why === 'insecure-level')
          deps.logger.warn(log, 'openNDS arrival refused: the gateway is not at FAS level 3 with authmon polling');
        else deps.logger.info(log, 'gateway arrival refused');
        return show(outcome.why === 'malformed' ? { kind: 'malformed', names: outcome.problems } : { kind: outcome.why });
      }
      cookie.gateway(req, res, outcome.id, lifeMs);
      return res.redirect(303, '/');
    } catch (error) {
      next(error);
    }
  });
  router.post('/opennds/:nasId', express.urlencoded({ extended: false, limit: '96kb', parameterLimit: 8 }), async (req, res, next) => {
    try {
      const { nasId } = req.params;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const fields = Object.fromEntries(Object.keys(AUTHMON_FORM).map((name) => [name, body[name]])) as Record<keyof typeof AUTHMON_FORM, unknown>;
      const bad: string[] = (Object.keys(AUTHMON_FORM) as (keyof typeof AUTHMON_FORM)[]).filter(
        (name) => typeof fields[name] !== 'string' || !AUTHMON_FORM[name].test(fields[name] as string),
      );
      const signature: Partial<Record<keyof typeof AUTHMON_SIGNATURE, string>> = {};
      for (const name of Object.keys(AUTHMON_SIGNATURE) as (keyof typeof AUTHMON_SIGNATURE)[]) {
        const value = body[name];
        if (value === undefined) continue;
        if (typeof value === 'string' && AUTHMON_SIGNATURE[name].test(value)) signature[name] = value;
        else bad.push(name);
      }
      res.set('Cache-Control', 'no-store').type('text/plain');
      if (!NAS_ID_PATTERN.test(nasId) || bad.length > 0) {
        deps.logger.info({ nasId: NAS_ID_PATTERN.test(nasId) ? nasId : undefined, parameters: bad }, 'authmon request refused: malformed');
        return res.status(400).send('malformed');
      }
      const relayed = await deps.upstreams.relayAuthmon(
        nasId,
        {
          auth_get: String(fields.auth_get),
          gatewayhash: String(fields.gatewayhash),
          payload: String(fields.payload).replace(/ /g, '+').replace(/\s/g, ''),
          callerAddress: callerOf(req),
          ...signature,
        },
        newCorrelationId(),
      );
      if (relayed.kind !== 'answer') return res.status(503).send('unavailable');
      const text = relayed.body['text'];
      if (relayed.status !== 200 || typeof text !== 'string')
        return res.status(relayed.status >= 400 && relayed.status < 500 ? relayed.status : 502).send('refused');
      return res.status(200).send(text);
    } catch (error) {
      next(error);
    }
  });
  router.post('/gateway', form, (req, res, next) => arrive(req, res, next, (req.body ?? {}) as Record<string, unknown>));
  return router;
}
