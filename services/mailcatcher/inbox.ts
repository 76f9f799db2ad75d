import { randomUUID } from 'node:crypto';

/** One caught message as the inbox pages and tests read it. */
export interface CaughtMail {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Every http(s) link of the message (text part, else the HTML part's href values), in order, once each. */
  links: string[];
}

export interface Inbox {
  add(mail: Omit<CaughtMail, 'id' | 'receivedAt'>): CaughtMail;
  /** Newest first; with `to`, only messages addressed to it (case-insensitive). */
  list(to?: string): CaughtMail[];
  get(id: string): CaughtMail | undefined;
  clear(): void;
}

/** A bounded in-memory inbox: the newest `keep` messages, nothing on disk. */
export function createInbox(keep: number): Inbox {
  const messages: CaughtMail[] = [];
  return {
    add(mail) {
      const caught = { id: `mail-${randomUUID()}`, receivedAt: new Date().toISOString(), ...mail };
      messages.unshift(caught);
      messages.splice(keep);
      return caught;
    },
    list(to) {
      if (to === undefined) return [...messages];
      const wanted = to.toLowerCase();
      return messages.filter((mail) => mail.to.some((address) => address.toLowerCase() === wanted));
    },
    get: (id) => messages.find((mail) => mail.id === id),
    clear: () => void messages.splice(0),
  };
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;
const HREF = /href\s*=\s*["'](https?:\/\/[^"']+)["']/gi;

/** The links a reader would follow: from the plain text, else from the HTML's href attributes. */
export function linksOf(text: string, html: string): string[] {
  const fromText = text.match(URL_IN_TEXT) ?? [];
  const found = fromText.length > 0 ? fromText : [...html.matchAll(HREF)].map((match) => decodeEntities(match[1] ?? ''));
  return [...new Set(found)];
}

function decodeEntities(value: string): string {
  return value.replace(/&amp;/g, '&').replace(/&#x3D;|&#61;/gi, '=');
}
