import { z } from 'zod';
import type { AdminHost, AdminReply } from '../host/admin-host.js';
import { AdminError } from './wire-error.js';

/**
 * What `gui/bundle.ts` writes next to the GUI's content-hashed files (`manifest.json`), read
 * through the host from the extension jar: the only names the module serves under /assets/.
 */
export const AssetManifest = z.object({
  script: z.string(),
  style: z.string(),
  files: z.array(z.string().regex(/^[A-Za-z0-9_.-]+$/)),
  /** CSP hashes of the style attributes dmn-js writes as markup (gui/inline-styles.ts). */
  styleHashes: z.array(z.string().regex(/^sha256-[A-Za-z0-9+/]+=*$/)),
});
export type AssetManifest = z.infer<typeof AssetManifest>;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  eot: 'application/vnd.ms-fontobject',
  svg: 'image/svg+xml',
};

/** Hashed names never change content, so browsers may keep them for a year without asking. */
const IMMUTABLE = { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' };

let cached: { json: string; manifest: AssetManifest | undefined } | undefined;

/** The manifest of the GUI packed with this extension; undefined when it was built without the GUI. */
export function assetManifest(host: AdminHost): AssetManifest | undefined {
  const json = host.assets.manifestJson();
  if (json === undefined) return undefined;
  if (cached?.json !== json) {
    const parsed = AssetManifest.safeParse(JSON.parse(json));
    cached = { json, manifest: parsed.success ? parsed.data : undefined };
  }
  return cached.manifest;
}

/** GET /assets/{name}: the host streams the named file of the jar; which names exist is decided here. */
export function assetReply(host: AdminHost, name: string): AdminReply {
  const manifest = assetManifest(host);
  const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
  if (manifest === undefined || !manifest.files.includes(name) || type === undefined) throw new AdminError('NOT_FOUND', 'No such svc-admin asset.');
  return { status: 200, contentType: type, body: '', asset: name, headers: IMMUTABLE };
}
