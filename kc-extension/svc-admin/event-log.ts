import type { AdminContext, RouteResult } from './context.js';
import { isoNow, ok } from './context.js';
import { AdminError } from './wire-error.js';

/** spec 4.7 rule 11 / 8: a ring of 200 entries in node memory, newest first. */
const RING = 'event-log';
const CAPACITY = 200;
const DEFAULT_LIMIT = 50;

export interface EventLogEntry {
  id: string;
  at: string;
  company: string;
  type: string;
  outcome: string;
  detail: string;
  payload: Record<string, unknown>;
}

// Any 9-12 digit run could be a citizen number: never let one into the log (spec 8, privacy).
const DIGIT_RUN = /\d{9,}/g;
const scrub = (value: string): string => value.replace(DIGIT_RUN, '[redacted]');

function scrubPayload(payload: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(payload), (_key, value: unknown) => (typeof value === 'string' ? scrub(value) : value)) as Record<string, unknown>;
}

export function logEvent(context: AdminContext, entry: Omit<EventLogEntry, 'id' | 'at'>): void {
  const full: EventLogEntry = {
    id: context.host.newUuid(),
    at: isoNow(context),
    company: scrub(entry.company),
    type: scrub(entry.type),
    outcome: entry.outcome,
    detail: scrub(entry.detail),
    payload: scrubPayload(entry.payload),
  };
  context.host.memory.append(RING, JSON.stringify(full), CAPACITY);
}

export function eventsRoute(context: AdminContext): RouteResult {
  const given = context.host.request.query('limit');
  const limit = given === undefined ? DEFAULT_LIMIT : Number(given);
  if (!/^\d+$/.test(given ?? '0') || limit < 1 || limit > CAPACITY) {
    throw new AdminError('INVALID_REQUEST', `limit: must be an integer from 1 to ${CAPACITY}`);
  }
  return ok({ events: context.host.memory.read(RING, limit) });
}
