import { z } from 'zod';
import { actorOf } from './authorize.js';
import { isoNow, ok, type AdminContext, type RouteResult } from './context.js';
import { readBody } from './read-body.js';
import { AdminError } from './wire-error.js';

/**
 * The venue's terms and privacy notice, versioned: realm attributes `svc-admin.terms.<version>`,
 * kept and exported with the realm like the companies. A published version is never changed (an
 * acceptance names the text it accepted); the current version is the one published last.
 */
const KEY_PREFIX = 'terms.';
export const TERMS_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
// Long enough for a notice a person can read on a phone; a realm attribute holds it.
const TEXT = z.string().trim().min(1).max(20_000);

export const TermsInput = z.strictObject({
  version: z.string().regex(TERMS_VERSION, 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$'),
  textVi: TEXT,
  textEn: TEXT,
});

export const StoredTerms = TermsInput.extend({ publishedAt: z.iso.datetime({ offset: true }), publishedBy: z.string() });
export type StoredTerms = z.output<typeof StoredTerms>;

export function listTerms(context: AdminContext): StoredTerms[] {
  return Object.values(context.host.store.list(KEY_PREFIX))
    .map((raw) => StoredTerms.parse(JSON.parse(raw)))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.version.localeCompare(a.version));
}

/** The version sign-ins require: the one published last; undefined while none is published. */
export const currentTerms = (context: AdminContext): StoredTerms | undefined => listTerms(context)[0];

/** Operator: every published version, newest first. */
export const listTermsRoute = (context: AdminContext): RouteResult => ok({ versions: listTerms(context) });

/** Operator: publishes a new version, which becomes the current one at once; a label already used is 409. */
export function publishTermsRoute(context: AdminContext): RouteResult {
  const input = readBody(context, TermsInput);
  const key = KEY_PREFIX + input.version;
  if (context.host.store.get(key) !== undefined)
    throw new AdminError('INVALID_REQUEST', 'version: is published already; publish the change under a new version.');
  const stored: StoredTerms = { ...input, publishedAt: isoNow(context), publishedBy: actorOf(context) };
  context.host.store.put(key, JSON.stringify(stored));
  return { status: 201, body: { published: true, version: stored.version, publishedAt: stored.publishedAt } };
}

/**
 * Operator: withdraws a version published by mistake; the one published before it is in force
 * again. Acceptances of it stay on record in the portal (they name the label).
 */
export function withdrawTermsRoute(context: AdminContext, version: string): RouteResult {
  if (!TERMS_VERSION.test(version)) throw new AdminError('INVALID_REQUEST', 'version: must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$');
  const existed = context.host.store.get(KEY_PREFIX + version) !== undefined;
  if (existed) context.host.store.remove(KEY_PREFIX + version);
  return ok({ withdrawn: existed, version });
}

/**
 * Public (no token, as the shell page): the current version for the portal, which serves it to
 * the sign-in forms. Terms are public text; `current` is null while no version is published.
 */
export function currentTermsRoute(context: AdminContext): RouteResult {
  const current = currentTerms(context);
  return ok({
    current: current === undefined ? null : { version: current.version, textVi: current.textVi, textEn: current.textEn, publishedAt: current.publishedAt },
  });
}
