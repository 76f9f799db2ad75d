/**
 * The one way the phone sign-in sends a text message. The authenticator knows only this
 * interface; the HTTP adapter (http-sms-sender.ts) is what ships, for a real SMS gateway or, in
 * development and tests, the SMS catcher (services/smscatcher).
 */
export interface SmsMessage {
  /** The recipient in E.164 (contract/phone.ts). */
  to: string;
  text: string;
}

/**
 * `sent`: the gateway took the message. Otherwise why not: `timeout` and `unavailable` (no answer,
 * 5xx, 429, an answer that does not say it was taken) may pass later; `refused` (4xx) means the
 * request or the credentials are wrong and an operator must look; `breaker-open` means recent sends
 * failed and none was tried. The sign-in answers every one of them alike (503): the person can only
 * try later.
 */
export type SmsSendResult = { kind: 'sent' } | { kind: 'failed'; reason: 'timeout' | 'unavailable' | 'refused' | 'breaker-open' };

export interface SmsSender {
  /** Never throws: every fault is a result. */
  send(message: SmsMessage, correlationId: string): SmsSendResult;
}
