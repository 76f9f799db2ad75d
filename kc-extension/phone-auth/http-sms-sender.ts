import type { CounterStore, HttpPort, HttpReply, Log } from '../host/auth-host.js';
import type { SmsMessage, SmsSender, SmsSendResult } from './sms-sender.js';

/**
 * An SMS gateway reached over HTTP, as the usual APIs take a message: a JSON body shaped by a
 * template (Vietnamese brand-name gateways put the account's key and secret and the brand name in
 * the body; others take HTTP Basic credentials), a per-attempt timeout, a number of attempts, and a
 * circuit breaker so an SMS gateway that is down costs a person one quick 503, not a wait per try.
 */
export interface HttpSmsSettings {
  /** Where the message is POSTed. */
  smsUrl: string;
  /** Credentials: placeholders `{{user}}`/`{{password}}` of the template, and HTTP Basic when `smsBasicAuth`. */
  smsUser: string;
  smsPassword: string;
  smsBasicAuth: boolean;
  /**
   * The JSON body, as JSON text whose string values may hold `{{to}}` (E.164), `{{toDigits}}`
   * (E.164 without `+`), `{{toNational}}` (`0…` for a Vietnamese number, else as `{{toDigits}}`),
   * `{{text}}`, `{{user}}`, `{{password}}`. Values are substituted into the parsed template, never
   * into its text, so a message can never change the body's shape.
   */
  smsBodyTemplate: string;
  /**
   * Send the filled template's fields form-encoded (`application/x-www-form-urlencoded`), as
   * Twilio's Messages API and gateways modelled on it take a message, instead of as JSON; the
   * template is then a flat object of text fields (e.g. `{"To":"{{to}}","From":"+1…","Body":"{{text}}"}`).
   */
  smsBodyForm: boolean;
  /** When not empty, a 2xx answer counts as sent only when its body contains this (gateways that answer 200 with an error code). */
  smsSentMarker: string;
  smsTimeoutMs: number;
  /** Attempts per message; a retry after a timeout may deliver the same code twice, which is harmless. */
  smsAttempts: number;
  /** Failed sends (after their attempts) within `smsBreakerWindowSeconds` that open the breaker. */
  smsBreakerFailures: number;
  smsBreakerWindowSeconds: number;
  /** How long an open breaker refuses at once; the first send after it is the probe. */
  smsBreakerOpenSeconds: number;
}

/** The body the development SMS catcher (services/smscatcher) takes, and so the shipped default. */
export const DEFAULT_SMS_BODY_TEMPLATE = '{"to":"{{to}}","text":"{{text}}"}';

/** Template placeholders and what they are replaced with for one message. */
function placeholders(message: SmsMessage, settings: HttpSmsSettings): Record<string, string> {
  const toDigits = message.to.replace(/^\+/, '');
  return {
    to: message.to,
    toDigits,
    toNational: toDigits.startsWith('84') ? `0${toDigits.slice(2)}` : toDigits,
    text: message.text,
    user: settings.smsUser,
    password: settings.smsPassword,
  };
}

function fill(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  if (Array.isArray(value)) return value.map((item) => fill(item, values));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, values)]));
  return value;
}

/** The template parsed, or undefined when it is not a JSON object (a setting an operator must fix). */
export function parseBodyTemplate(template: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(template);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A template a form can carry: every value text (a form has no nesting, numbers or lists). */
export function isFlatTextTemplate(template: Record<string, unknown>): template is Record<string, string> {
  return Object.values(template).every((value) => typeof value === 'string');
}

/** The body one message is sent with. */
export function renderBody(template: Record<string, unknown>, message: SmsMessage, settings: HttpSmsSettings): unknown {
  return fill(template, placeholders(message, settings));
}

interface Attempt {
  result: SmsSendResult;
  retryable: boolean;
}

const failed = (reason: Exclude<SmsSendResult, { kind: 'sent' }>['reason'], retryable: boolean): Attempt => ({ result: { kind: 'failed', reason }, retryable });

function classify(reply: HttpReply, settings: HttpSmsSettings, log: Log, correlationId: string): Attempt {
  if (reply.kind === 'timeout') return failed('timeout', true);
  if (reply.kind === 'unreachable') return failed('unavailable', true);
  if (reply.status >= 200 && reply.status < 300) {
    if (settings.smsSentMarker === '' || reply.body.includes(settings.smsSentMarker)) return { result: { kind: 'sent' }, retryable: false };
    // The gateway's body may echo the number or the text: only the status is logged.
    log.warn(`SMS gateway answered HTTP ${reply.status} without the sent marker correlation_id=${correlationId}`);
    return failed('unavailable', false);
  }
  if (reply.status === 429) return failed('unavailable', false);
  if (reply.status >= 500) return failed('unavailable', true);
  log.error(`SMS gateway refused the request with HTTP ${reply.status}; check the SMS settings correlation_id=${correlationId}`);
  return failed('refused', false);
}

const OPEN = 'wifi-sms-breaker-open';
const FAILURES = 'wifi-sms-breaker-failures';

/**
 * The breaker lives in Keycloak's single-use store, shared by every node (a GraalJS context is
 * one of a pool, so state kept in JavaScript would be one context's view): each failed send takes
 * one of `smsBreakerFailures` slots living the window; the one that takes the last opens it, and so
 * does a failed probe after the open time while the failures are still in the window.
 */
function breaker(counters: CounterStore, settings: HttpSmsSettings) {
  const slot = (n: number) => `${FAILURES}:${n}`;
  return {
    isOpen: () => counters.exists(OPEN),
    /** Counts a failed send; true when it opened the breaker (the last slot taken, or none free: a failed probe). */
    failed: () => {
      let taken = 0;
      for (let n = 1; n <= settings.smsBreakerFailures && taken === 0; n++) if (counters.claim(slot(n), settings.smsBreakerWindowSeconds)) taken = n;
      if (taken !== 0 && taken < settings.smsBreakerFailures) return false;
      return counters.claim(OPEN, settings.smsBreakerOpenSeconds);
    },
    succeeded: () => {
      for (let n = 1; n <= settings.smsBreakerFailures; n++) counters.remove(slot(n));
    },
  };
}

/** The HTTP adapter of SmsSender. The number and the text never reach a log line, only the outcome. */
export function createHttpSmsSender(http: HttpPort, counters: CounterStore, log: Log, settings: HttpSmsSettings): SmsSender {
  const parsed = parseBodyTemplate(settings.smsBodyTemplate);
  const template = parsed !== undefined && settings.smsBodyForm && !isFlatTextTemplate(parsed) ? undefined : parsed;
  const gate = breaker(counters, settings);
  const headers = basicAuth(settings);
  return {
    send(message, correlationId) {
      if (template === undefined || headers === undefined) {
        log.error(
          `SMS settings unusable (body template not a JSON object, or not flat text fields for a form, or credentials not text); no message sent correlation_id=${correlationId}`,
        );
        return { kind: 'failed', reason: 'refused' };
      }
      if (gate.isOpen()) {
        log.warn(`SMS breaker open; no message sent correlation_id=${correlationId}`);
        return { kind: 'failed', reason: 'breaker-open' };
      }
      const body = renderBody(template, message, settings);
      let attempt = failed('unavailable', true);
      for (let n = 1; n <= settings.smsAttempts && attempt.retryable; n++) {
        const sendHeaders = { ...headers, 'X-Correlation-ID': correlationId };
        attempt = classify(
          settings.smsBodyForm
            ? http.postForm(settings.smsUrl, sendHeaders, body as Record<string, string>, settings.smsTimeoutMs)
            : http.postJson(settings.smsUrl, sendHeaders, body, settings.smsTimeoutMs),
          settings,
          log,
          correlationId,
        );
        if (attempt.result.kind === 'failed') log.warn(`SMS send attempt ${n} failed (${attempt.result.reason}) correlation_id=${correlationId}`);
      }
      if (attempt.result.kind === 'sent') gate.succeeded();
      else if (gate.failed()) log.warn(`SMS breaker opened for ${settings.smsBreakerOpenSeconds} s after repeated failures correlation_id=${correlationId}`);
      return attempt.result;
    },
  };
}

function basicAuth(settings: HttpSmsSettings): Record<string, string> | undefined {
  if (!settings.smsBasicAuth) return {};
  try {
    return { Authorization: `Basic ${base64(`${settings.smsUser}:${settings.smsPassword}`)}` };
  } catch {
    // encodeURIComponent throws on a lone surrogate: not a credential any gateway issued.
    return undefined;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function utf8(text: string): number[] {
  const encoded = encodeURIComponent(text);
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%') {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded.charCodeAt(i));
  }
  return bytes;
}

/** RFC 4648 base64 of the UTF-8 bytes: GraalJS has no Buffer, btoa or TextEncoder. */
export function base64(text: string): string {
  const bytes = utf8(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    const letter = (index: number) => ALPHABET.charAt(index);
    out +=
      letter((n >> 18) & 63) + letter((n >> 12) & 63) + (i + 1 < bytes.length ? letter((n >> 6) & 63) : '=') + (i + 2 < bytes.length ? letter(n & 63) : '=');
  }
  return out;
}
