import { normalizePhone, ONE_TIME_CODE_PATTERN } from '../../contract/phone.js';
import { correlationId } from '../employee-auth/correlation.js';
import { createSlotLimit } from '../employee-auth/submit-limit.js';
import type { AuthHost, AuthOutcome, UserStore, UserView } from '../host/auth-host.js';
import { createHttpSmsSender } from './http-sms-sender.js';
import { codeSent, refusePhone } from './refusals.js';
import { readPhoneSettings, type PhoneAuthSettings } from './settings.js';

/**
 * The phone direct-grant authenticator, in two steps of the same grant: `phone` alone sends a
 * six-digit code by SMS (answered `code_sent`), `phone` and `code` sign in. Codes live in
 * Keycloak's single-use store, shared by every node, only as an HMAC under `codeHashKey`, keyed
 * by the number's HMAC: a copy of the store holds neither a code nor a number. A code lives
 * `codeTtlSeconds`, is taken atomically by the sign-in that uses it, and is spent after
 * `codeTries` wrong ones. The number and the code never reach a log line, an event or a note.
 */
export function authenticatePhone(host: AuthHost): AuthOutcome {
  const corr = correlationId(host.request, () => host.newUuid());
  host.eventDetail('correlation_id', corr);
  const read = readPhoneSettings(host.config);
  if (!read.ok) {
    host.log.error(`phone authenticator misconfigured: unusable settings ${read.unusable.join(', ')}; fix the execution's config correlation_id=${corr}`);
    return refusePhone('authenticator_misconfigured');
  }
  const { settings } = read;
  const typedCode = host.request.formParam('code');
  return typedCode === undefined ? sendCode(host, settings, corr) : signIn(host, settings, typedCode, corr);
}

const address = (host: AuthHost) => host.request.clientAddress() ?? 'unknown';

/** The keys a number's entries live under: its keyed hash, never the number. */
function numberKey(host: AuthHost, settings: PhoneAuthSettings, phone: string): string {
  return host.hmacHex(settings.codeHashKey, `number:${phone}`);
}

const codeHash = (host: AuthHost, settings: PhoneAuthSettings, phone: string, code: string) => host.hmacHex(settings.codeHashKey, `code:${phone}:${code}`);

/** Six digits from 48 bits of a random (v4) UUID's last group: SecureRandom on Java's side; the modulo bias is below 1e-8. */
export function newCode(uuid: string): string {
  const random = Number.parseInt(uuid.slice(-12), 16);
  return String(random % 1_000_000).padStart(6, '0');
}

function sendCode(host: AuthHost, settings: PhoneAuthSettings, corr: string): AuthOutcome {
  if (createSlotLimit(host.counters, 'wifi-phone-code-address', settings.addressLimit, settings.addressWindowSeconds).take(address(host)) === undefined) {
    host.log.warn(`phone codes per client address reached correlation_id=${corr}`);
    return refusePhone('rate_limited');
  }
  const phone = normalizePhone(host.request.formParam('phone') ?? '');
  if (phone === undefined) return refusePhone('invalid_request');
  const key = numberKey(host, settings, phone);

  // The resend gap and the per-number count hold for every number alike, known or not.
  const resendKey = `wifi-phone-resend:${key}`;
  if (settings.resendAfterSeconds > 0 && !host.counters.claim(resendKey, settings.resendAfterSeconds)) return refusePhone('rate_limited');
  const perNumber = createSlotLimit(host.counters, 'wifi-phone-code-number', settings.numberLimit, settings.numberWindowSeconds);
  const slot = perNumber.take(key);
  if (slot === undefined) {
    host.counters.remove(resendKey);
    host.log.warn(`phone codes per number reached correlation_id=${corr}`);
    return refusePhone('rate_limited');
  }

  const code = newCode(host.newUuid());
  const codeKey = `wifi-phone-code:${key}`;
  // A new code replaces the last one and gets its own tries.
  host.values.put(codeKey, settings.codeTtlSeconds, codeHash(host, settings, phone, code));
  createSlotLimit(host.counters, 'wifi-phone-tries', settings.codeTries, settings.codeTtlSeconds).clear(key);
  const minutes = String(Math.ceil(settings.codeTtlSeconds / 60));
  const text = settings.smsText.replace(/\{\{code\}\}/g, code).replace(/\{\{minutes\}\}/g, minutes);
  const sent = createHttpSmsSender(host.http, host.counters, host.log, settings).send({ to: phone, text }, corr);
  if (sent.kind === 'failed') {
    // Nothing half-created: no code waits for a message that never went, and the person may ask again at once.
    host.values.take(codeKey);
    perNumber.release(key, slot);
    host.counters.remove(resendKey);
    return refusePhone('sms_unavailable');
  }
  host.log.info(`phone code sent correlation_id=${corr}`);
  return codeSent(settings.codeTtlSeconds, settings.resendAfterSeconds);
}

function signIn(host: AuthHost, settings: PhoneAuthSettings, typedCode: string, corr: string): AuthOutcome {
  if (createSlotLimit(host.counters, 'wifi-phone-attempt-address', settings.attemptLimit, settings.attemptWindowSeconds).take(address(host)) === undefined) {
    host.log.warn(`phone sign-ins per client address reached correlation_id=${corr}`);
    return refusePhone('rate_limited');
  }
  const phone = normalizePhone(host.request.formParam('phone') ?? '');
  if (phone === undefined || !ONE_TIME_CODE_PATTERN.test(typedCode)) return refusePhone('invalid_grant');
  const key = numberKey(host, settings, phone);
  const codeKey = `wifi-phone-code:${key}`;
  const tries = createSlotLimit(host.counters, 'wifi-phone-tries', settings.codeTries, settings.codeTtlSeconds);
  if (tries.take(key) === undefined) {
    // Exhausted: the code is spent, whatever is typed now.
    host.values.take(codeKey);
    return refusePhone('invalid_grant');
  }
  const expected = codeHash(host, settings, phone, typedCode);
  if (host.values.get(codeKey) !== expected) return refusePhone('invalid_grant');
  // Single use: of two sign-ins with the same code, only the one that takes it goes on.
  if (host.values.take(codeKey) !== expected) return refusePhone('invalid_grant');
  tries.clear(key);

  const account = findOrCreatePhoneAccount(host.users, phone, () => host.newUuid());
  if (account.kind === 'conflict') {
    host.log.error(`IDENTITY_LINK_CONFLICT: ${account.count} accounts carry one verified phone number; manual fix needed correlation_id=${corr}`);
    return refusePhone('identity_link_conflict');
  }
  if (account.kind === 'disabled') return refusePhone('account_disabled');
  const claims = { user_type: 'CUSTOMER', phone_number: phone, phone_number_verified: 'true' };
  const changed = Object.entries(claims).filter(([name, value]) => account.user.attributes[name as keyof typeof claims] !== value);
  if (changed.length > 0) host.users.setAttributes(account.user.id, Object.fromEntries(changed));
  host.log.info(`phone sign-in user_id=${account.user.id} correlation_id=${corr}`);
  return { type: 'success', userId: account.user.id };
}

type PhoneAccount = { kind: 'linked'; user: UserView } | { kind: 'disabled' } | { kind: 'conflict'; count: number };

/**
 * The account whose verified number this is, or a new one named `phone-<uuid>`: the number is
 * kept as an attribute (the token's `phone_number`), never in the username, which Keycloak shows
 * and logs in more places.
 */
function findOrCreatePhoneAccount(users: UserStore, phone: string, newUuid: () => string): PhoneAccount {
  const carriers = users.findByAttribute('phone_number', phone).filter((user) => user.attributes.phone_number_verified === 'true');
  if (carriers.length > 1) return { kind: 'conflict', count: carriers.length };
  const [carrier] = carriers;
  if (carrier !== undefined) return carrier.enabled ? { kind: 'linked', user: carrier } : { kind: 'disabled' };
  return { kind: 'linked', user: users.create(`phone-${newUuid()}`) };
}
