/**
 * What never reaches a log line (spec 1, privacy): secrets by key name at any depth (phone numbers
 * and one-time codes among them), and any
 * run of 9-12 digits (the citizen number's shape) or a voucher code inside any string, wherever it hides
 * (an error message, a URL, a correlation header someone misused), but not inside a UUID.
 */
export const REDACTED = '[REDACTED]';

const SECRET_KEYS = new Set([
  'citizenid',
  'password',
  'secret',
  'client_secret',
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'apikey',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'rawaccesstoken',
  // The phone sign-in: a number is personal data, a one-time code a credential. A number typed
  // with grouping spaces is no digit run, so the key names are what keep it out.
  'phone',
  'phonenumber',
  'phone_number',
  'otp',
  'onetimecode',
  'one_time_code',
  // A voucher code is a credential (not `code`: that key names error codes everywhere).
  'voucher',
  'vouchercode',
  'voucher_code',
  // RADIUS attributes as FreeRADIUS's rest module posts them (an 802.1X inner PAP password).
  'user-password',
]);

// A UUID is matched whole first, so the digit runs inside one (about one session id in twenty has
// nine or more digits in a row in its last group) stay readable: an operator greps logs by these
// ids. A UUID whose last group is twelve digits, a citizen number's shape exactly, is redacted whole.
// A voucher code (contract/voucher.ts: 12 signs without 0/O, 1/I) is redacted in its printed form
// (three groups of four joined by dashes, any case), and in upper case also grouped by spaces or
// as one run of twelve. Lower case is not read in those shapes: "that have been" and
// "successfully" have them.
const VOUCHER_SIGN = '[A-HJ-NP-Za-hj-np-z2-9]';
const UUID_OR_SECRET_RUN = new RegExp(
  [
    '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])',
    '(?<![0-9])[0-9]{9,12}(?![0-9])',
    `(?<![0-9A-Za-z])${VOUCHER_SIGN}{4}-${VOUCHER_SIGN}{4}-${VOUCHER_SIGN}{4}(?![0-9A-Za-z])`,
  ].join('|'),
  'gi',
);
const VOUCHER_RUN = /(?<![0-9A-Za-z_])[A-HJ-NP-Z2-9]{4} ?[A-HJ-NP-Z2-9]{4} ?[A-HJ-NP-Z2-9]{4}(?![0-9A-Za-z_])/g;
const ALL_DIGITS = /^[0-9]+$/;

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

export function scrubString(value: string): string {
  return value.replace(UUID_OR_SECRET_RUN, (run) => (run.length === 36 && !ALL_DIGITS.test(run.slice(24)) ? run : REDACTED)).replace(VOUCHER_RUN, REDACTED);
}

/** A copy of `value` with secrets removed; cycles and depth are bounded so logging never throws. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[DEPTH]';
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretKey(key) ? REDACTED : scrub(item, depth + 1);
  }
  return out;
}
