import type { AdminContext, RouteResult } from './context.js';
import { isoNow, ok } from './context.js';
import { AdminError } from './wire-error.js';

/** spec 4.7 rule 11 / 8: a ring of 200 entries in node memory, newest first. */
const RING = 'event-log';
const CAPACITY = 200;
const DEFAULT_LIMIT = 50;
/**
 * Refusals (REJECTED) are kept in a ring of their own and at most REJECTED_PER_MINUTE of them are
 * written a minute: anyone can post unsigned webhooks, and they must neither push the handled
 * events out of the log nor bury the operator's view of it.
 */
const REJECTED_RING = 'event-log-rejected';
const REJECTED_CAPACITY = 50;
const REJECTED_PER_MINUTE = 10;

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

const atOf = (entry: unknown): number => Date.parse(typeof entry === 'object' && entry !== null && 'at' in entry ? String(entry.at) : '');

/** Whether the rejections ring already took its share of the last minute (a sliding window over its newest entries). */
function rejectionsFull(context: AdminContext): boolean {
  const recent = context.host.memory.read(REJECTED_RING, REJECTED_PER_MINUTE);
  return recent.length === REJECTED_PER_MINUTE && atOf(recent[REJECTED_PER_MINUTE - 1]) > context.host.nowMs() - 60_000;
}

export function logEvent(context: AdminContext, entry: Omit<EventLogEntry, 'id' | 'at'>): void {
  const rejected = entry.outcome === 'REJECTED';
  if (rejected && rejectionsFull(context)) return;
  const full: EventLogEntry = {
    id: context.host.newUuid(),
    at: isoNow(context),
    company: scrub(entry.company),
    type: scrub(entry.type),
    outcome: entry.outcome,
    detail: scrub(entry.detail),
    payload: scrubPayload(entry.payload),
  };
  if (rejected) context.host.memory.append(REJECTED_RING, JSON.stringify(full), REJECTED_CAPACITY);
  else context.host.memory.append(RING, JSON.stringify(full), CAPACITY);
}

export function eventsRoute(context: AdminContext): RouteResult {
  const given = context.host.request.query('limit');
  const limit = given === undefined ? DEFAULT_LIMIT : Number(given);
  if (!/^\d+$/.test(given ?? '0') || limit < 1 || limit > CAPACITY) {
    throw new AdminError('INVALID_REQUEST', `limit: must be an integer from 1 to ${CAPACITY}`);
  }
  // Both rings, newest first: the answer is still at most `limit` entries (spec 4.7).
  const events = [...context.host.memory.read(RING, limit), ...context.host.memory.read(REJECTED_RING, limit)];
  return ok({ events: events.sort((a, b) => atOf(b) - atOf(a)).slice(0, limit) });
}
