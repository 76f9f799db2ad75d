import { hash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ApiError } from './errors.js';

export const API_KEY_HEADER = 'X-API-Key';

/** One caller's key and what it may do. */
export interface CallerKey<S extends string = string> {
  /** Who sends it (`portal`, `gateway`, ...): for the operator's eyes, never a secret. */
  name: string;
  key: string;
  scopes: readonly S[];
}

// One-shot (crypto.hash): a Hash object per request cost more than the digest.
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

const ENTRY = /^([a-z][a-z0-9-]{0,31}):([^:\s;]{8,}):([a-z-]+(?:,[a-z-]+)*)$/;

/**
 * A setting listing the keys a service accepts, one entry per caller and key:
 * `name:key:scope,scope`, entries separated by `;` or whitespace. A caller may have several
 * entries (rotation: the old and the new key both work until the old one is removed). Problems
 * name the entry's position, never its key.
 */
export function apiKeyList<const S extends string>(scopes: readonly [S, ...S[]], defaultValue: string) {
  const known = new Set<string>(scopes);
  return z
    .string()
    .default(defaultValue)
    .transform((text, ctx): CallerKey<S>[] => {
      const entries = text.split(/[\s;]+/).filter((entry) => entry !== '');
      const keys: CallerKey<S>[] = [];
      for (const [index, entry] of entries.entries()) {
        const match = ENTRY.exec(entry);
        const problem = (message: string) => ctx.addIssue({ code: 'custom', message: `entry ${index + 1}: ${message}` });
        if (match === null) {
          problem('must be name:key:scope,scope (key at least 8 characters, no : ; or spaces)');
          continue;
        }
        const [, name, key, list] = match as unknown as [string, string, string, string];
        const asked = list.split(',');
        const unknown = asked.filter((scope) => !known.has(scope));
        if (unknown.length > 0) {
          problem(`unknown scope ${unknown.join(', ')} (known: ${scopes.join(', ')})`);
          continue;
        }
        if (keys.some((other) => other.key === key)) {
          problem('the same key twice');
          continue;
        }
        keys.push({ name, key, scopes: asked as S[] });
      }
      if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'at least one key' });
      return keys;
    });
}

/** One key's check as a plain function (a route outside Express, kit/fast-path.ts): constant-time, as requireApiKey. */
export function apiKeyCheck(key: string): (presented: string | undefined) => boolean {
  const expected = digest(key);
  return (presented) => timingSafeEqual(digest(presented ?? ''), expected) && presented !== undefined;
}

/**
 * Spec 5: key-authenticated legs. Digests make the comparison constant-time whatever the
 * lengths, and every configured key is compared (no early exit). With a key list, a key that
 * is not in it is 401 `UNAUTHORIZED`, a known key without the route's scope 403 `FORBIDDEN`.
 */
export function requireApiKey(key: string): RequestHandler;
export function requireApiKey<S extends string>(keys: readonly CallerKey<S>[], scope: NoInfer<S>): RequestHandler;
export function requireApiKey(keys: string | readonly CallerKey[], scope?: string): RequestHandler {
  const accepted = (typeof keys === 'string' ? [{ name: 'caller', key: keys, scopes: [] }] : keys).map((entry) => ({
    digest: digest(entry.key),
    scopes: entry.scopes,
  }));
  return (req, _res, next) => {
    const presented = req.get(API_KEY_HEADER);
    const presentedDigest = digest(presented ?? '');
    let caller: { scopes: readonly string[] } | undefined;
    for (const entry of accepted) {
      if (timingSafeEqual(presentedDigest, entry.digest) && presented !== undefined) caller = entry;
    }
    if (caller === undefined) throw new ApiError('UNAUTHORIZED', { message: 'A valid X-API-Key header is required.' });
    if (scope !== undefined && !caller.scopes.includes(scope)) throw new ApiError('FORBIDDEN', { message: 'This key may not use this route.' });
    next();
  };
}
