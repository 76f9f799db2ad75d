/**
 * MAC addresses, recognised once for every party: a gateway's parameters and RADIUS attributes
 * carry them, and spec 2.7 / 4.4 rule 2 forbid them anywhere a deviceRef goes.
 */

/**
 * A MAC address in any usual spelling (`AA-BB-CC-DD-EE-FF` from CoovaChilli, `aa:bb:...`,
 * Cisco's `aabb.ccdd.eeff`, pfSense's `aabbcc-ddeeff`, bare hex) as 12 lower-case hex digits; undefined when it is none.
 */
export function normalizeMac(value: string): string | undefined {
  const trimmed = value.trim().toLowerCase();
  if (!/^(?:[0-9a-f]{2}([-:]?)(?:[0-9a-f]{2}\1){4}[0-9a-f]{2}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}|[0-9a-f]{6}-[0-9a-f]{6})$/.test(trimmed)) return undefined;
  return trimmed.replace(/[-:.]/g, '');
}

const SEPARATED = /[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}/i;
const DOTTED = /[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}/i;
const HALVES = /(?:^|[^0-9a-f])[0-9a-f]{6}-[0-9a-f]{6}(?:$|[^0-9a-f])/i;
// Bare hex only as the whole value: the last group of a UUID handle is also 12 hex digits.
const BARE = /^[0-9a-f]{12}$/i;

/**
 * Spec 2.7 and 4.4 rule 2: whether a value holds a MAC address in any common notation, also
 * inside a longer string: colon or dash pairs, Cisco dot triplets, pfSense's dashed halves, and bare
 * hex (the whole value).
 */
export function looksLikeMacAddress(value: string): boolean {
  return SEPARATED.test(value) || DOTTED.test(value) || HALVES.test(value) || BARE.test(value);
}
