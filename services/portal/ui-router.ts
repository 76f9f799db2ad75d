import { resolve } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { ApiError } from '../kit/index.js';
import { loadBuiltUi, type BuiltUi, type Payload } from './ui/built-ui.js';
import { chooseLanguage, isUiLanguage } from './ui/language.js';

export interface UiRouterOptions {
  /** Directory of the built UI; default `dist/ui` (written by `npm run bundle:ui`). */
  rootDir?: string;
  /**
   * The login URL of the gateway that sent this browser (its context cookie), the one
   * other place the page may submit a form to; undefined without a gateway context.
   */
  gatewayLoginUrl?: (req: Request) => Promise<string | undefined>;
}

/**
 * Only the portal's own origin, no inline script or style, no eval; the page is never framed.
 * Forms go to the portal, and to exactly the login URL of the current gateway context when there
 * is one (a CSP source with a path matches that path only).
 */
function contentSecurityPolicy(gatewayLoginUrl?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    // A controller whose login the page posts from script (OPNsense) is the one other place it may call.
    gatewayLoginUrl === undefined ? "connect-src 'self'" : `connect-src 'self' ${gatewayLoginUrl}`,
    "object-src 'none'",
    "base-uri 'none'",
    gatewayLoginUrl === undefined ? "form-action 'self'" : `form-action 'self' ${gatewayLoginUrl}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A login URL as a CSP source: origin and path only, and nothing a policy could misread. */
function asSource(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    const source = `${parsed.origin}${parsed.pathname}`;
    return /^[A-Za-z0-9:/._~%@!$&()*+=-]+$/.test(source) ? source : parsed.origin;
  } catch {
    return undefined;
  }
}

const YEAR_SECONDS = 31_536_000;

function send(req: Request, res: Response, payload: Payload, contentType: string, cacheControl: string, gatewayLoginUrl?: string): void {
  res.set({
    'Content-Security-Policy': contentSecurityPolicy(gatewayLoginUrl),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Content-Type': contentType,
    'Cache-Control': cacheControl,
  });
  res.vary('Accept-Encoding');
  const gzip = /\bgzip\b(?!\s*;\s*q=0(\.0+)?\b)/i.test(req.get('Accept-Encoding') ?? '');
  if (gzip) res.set('Content-Encoding', 'gzip');
  res.end(gzip ? payload.gzip : payload.body);
}

/**
 * The portal's web UI (spec 1: the portal renders its own UI): `GET /` answers the page in the
 * visitor's language, `GET /ui/<name>.<hash>.<ext>` its assets. Anything else falls through to
 * the portal's own routes and 404.
 */
export function createUiRouter(options: UiRouterOptions = {}): Router {
  const rootDir = resolve(options.rootDir ?? 'dist/ui');
  let ui: BuiltUi | undefined;
  try {
    ui = loadBuiltUi(rootDir);
  } catch {
    ui = undefined;
  }
  const router = express.Router();

  router.get('/', async (req, res, next) => {
    if (ui === undefined) {
      next(new ApiError('SERVICE_UNAVAILABLE', { message: 'The web UI is not built; run npm run bundle:ui.' }));
      return;
    }
    // The switch's links work without script too: remember the choice, then drop it from the address.
    const asked = req.query.lang;
    if (isUiLanguage(asked)) {
      res.cookie('lang', asked, { path: '/', sameSite: 'strict', maxAge: YEAR_SECONDS * 1000 });
      res.set('Cache-Control', 'no-store');
      res.redirect(303, '/');
      return;
    }
    // Decided here, not in the browser, so the first paint is already in the right language.
    const language = chooseLanguage(req.get('Cookie'), req.get('Accept-Language'));
    res.vary('Accept-Language');
    res.vary('Cookie');
    const loginUrl = asSource(await options.gatewayLoginUrl?.(req));
    send(req, res, ui.pages[language], 'text/html; charset=utf-8', 'no-store', loginUrl);
  });

  router.get('/ui/:file', (req, res, next) => {
    const asset = ui?.assets.get(req.path);
    if (asset === undefined) {
      next();
      return;
    }
    // The URL carries the content hash, so a new build gets new URLs.
    send(req, res, asset, asset.contentType, `public, max-age=${YEAR_SECONDS}, immutable`);
  });

  return router;
}
