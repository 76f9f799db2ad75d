/**
 * What never reaches a log line (spec 1, privacy): secrets by key name at any depth (phone numbers
 * and one-time codes among them), and any
 * run of 9-12 digits (the citizen number's shape) inside any string, wherever it hides
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
]);

// A UUID is matched whole first, so the digit runs inside one (about one session id in twenty has
// nine or more digits in a row in its last group) stay readable: an operator greps logs by these
// ids. A UUID whose last group is twelve digits, a citizen number's shape exactly, is redacted whole.
const UUID_OR_CITIZEN_NUMBER_RUN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-z])|(?<![0-9])[0-9]{9,12}(?![0-9])/gi;
const ALL_DIGITS = /^[0-9]+$/;

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

export function scrubString(value: string): string {
  return value.replace(UUID_OR_CITIZEN_NUMBER_RUN, (run) => (run.length === 36 && !ALL_DIGITS.test(run.slice(24)) ? run : REDACTED));
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
