import { Temporal } from 'temporal-polyfill';
import type { Allowance } from '../../contract/entitlement.js';

/** One period of an allowance: when it started and when the next one starts (the allowance renews). */
export interface PeriodWindow {
  start: Date;
  renewsAt: Date;
}

/**
 * The period holding `at`, in the venue's time zone: a day from local midnight, a week from
 * Monday's (ISO 8601), a month from the first's. A new period needs no action: counters are kept
 * per period, so the next one starts at zero.
 */
export function periodOf(period: Allowance['period'], at: Date, timeZone: string): PeriodWindow {
  const local = Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(timeZone).startOfDay();
  const start = period === 'DAY' ? local : period === 'WEEK' ? local.subtract({ days: local.dayOfWeek - 1 }) : local.with({ day: 1 });
  const next = start.add(period === 'DAY' ? { days: 1 } : period === 'WEEK' ? { weeks: 1 } : { months: 1 }).startOfDay();
  return { start: new Date(start.epochMilliseconds), renewsAt: new Date(next.epochMilliseconds) };
}

/** Whether the runtime knows `timeZone` (IANA name): checked once at start-up. */
export function isTimeZone(timeZone: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(timeZone);
    return true;
  } catch {
    return false;
  }
}
