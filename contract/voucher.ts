/**
 * Voucher codes as they are printed, typed and checked. One module, so that svc-admin (which makes
 * them), the portal (which refuses a malformed one with the same 401 as a wrong one), the voucher
 * authenticator (which looks them up) and the log redaction all read a code the same way.
 *
 * The alphabet has 32 signs: the upper-case letters and digits without 0/O and 1/I, so a code
 * read off paper cannot be mistyped into another one. A code is 12 signs, 60 random bits
 * (12 x log2(32)), printed in three groups of four (`ABCD-EFGH-JKLM`).
 */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 12;
/** Random bits of one code: 12 signs of 5 bits. */
export const VOUCHER_CODE_BITS = 60;

/** A normalised code: 12 signs of the alphabet. */
export const VOUCHER_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{12}$/;

/**
 * A code as it may stand in free text (grouped by dashes or spaces, any case): what the log
 * redaction replaces. Wide on purpose: a string that merely looks like a code is redacted too.
 */
export const VOUCHER_CODE_IN_TEXT = /\b[A-HJ-NP-Za-hj-np-z2-9]{4}[- ]?[A-HJ-NP-Za-hj-np-z2-9]{4}[- ]?[A-HJ-NP-Za-hj-np-z2-9]{4}\b/g;

/** The code as stored and hashed: upper case, spaces and dashes dropped; undefined when it is then not a code. */
export function normalizeVoucherCode(input: string): string | undefined {
  if (input.length > 64) return undefined;
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return VOUCHER_CODE_PATTERN.test(code) ? code : undefined;
}

/** The printed form: three groups of four. */
export function formatVoucherCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;
}

/**
 * A new code from 64 random bits given as 16 hex digits (two random UUIDs' first groups:
 * SecureRandom on Keycloak's side); 60 of them are used, 5 bits a sign, so every sign of the
 * alphabet is equally likely (32 is a power of two: no modulo bias).
 */
export function voucherCodeFromHex(hex16: string): string {
  if (!/^[0-9a-f]{16}$/i.test(hex16)) throw new Error('voucherCodeFromHex needs 16 hex digits');
  let bits = BigInt(`0x${hex16}`);
  let code = '';
  for (let sign = 0; sign < VOUCHER_CODE_LENGTH; sign++) {
    code += VOUCHER_ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return code;
}

/**
 * The data a code's keyed hash is taken over (HMAC-SHA256 under WIFI_VOUCHER_HASH_KEY, computed by
 * Keycloak): the voucher's username is `voucher-` and that hash, so the code itself is nowhere.
 */
export const voucherHashInput = (code: string): string => `voucher:${code}`;
export const VOUCHER_USERNAME_PREFIX = 'voucher-';
