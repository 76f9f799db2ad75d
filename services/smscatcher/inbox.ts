import { randomUUID } from 'node:crypto';

/** One caught text message. */
export interface CaughtSms {
  id: string;
  receivedAt: string;
  /** E.164. */
  to: string;
  from: string;
  text: string;
}

export interface SmsInbox {
  add(sms: Omit<CaughtSms, 'id' | 'receivedAt'>): CaughtSms;
  /** Newest first; with `to` (E.164), only messages to that number. */
  list(to?: string): CaughtSms[];
  get(id: string): CaughtSms | undefined;
}

/** A bounded in-memory inbox: the newest `keep` messages, nothing on disk. */
export function createSmsInbox(keep: number): SmsInbox {
  const messages: CaughtSms[] = [];
  return {
    add(sms) {
      const caught = { id: `sms-${randomUUID()}`, receivedAt: new Date().toISOString(), ...sms };
      messages.unshift(caught);
      messages.splice(keep);
      return caught;
    },
    list: (to) => (to === undefined ? [...messages] : messages.filter((sms) => sms.to === to)),
    get: (id) => messages.find((sms) => sms.id === id),
  };
}
