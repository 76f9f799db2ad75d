/**
 * Spec 2.7 and 4.4 rule 2: `deviceRef` is an opaque portal-issued handle, never a MAC address.
 * A MAC address in any common notation is refused, also inside a longer string: colon or dash
 * pairs (`aa:bb:cc:dd:ee:ff`, `AA-BB-...`), Cisco dot triplets (`aabb.ccdd.eeff`) and bare hex
 * (`aabbccddeeff`, the whole value), any case.
 */
const SEPARATED = /[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}/i;
const DOTTED = /[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}/i;
// Bare hex only as the whole value: the last group of a UUID handle is also 12 hex digits.
const BARE = /^[0-9a-f]{12}$/i;

export function looksLikeMacAddress(value: string): boolean {
  return SEPARATED.test(value) || DOTTED.test(value) || BARE.test(value);
}
