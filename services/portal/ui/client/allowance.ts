// What the signed-in page shows of time and data, without the DOM (tests read it in Node).
import type { AllowanceLeft } from './portal-session.js';

/** A duration as h:mm:ss. */
export function formatLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** Bytes as a person reads them (1,000-based, as operators bill). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * The allowance as the page shows it: the time and data left of the period (null: no limit, the
 * row is hidden) and when it renews, in the reader's language; undefined without an allowance.
 */
export function allowanceFacts(
  remaining: AllowanceLeft | null | undefined,
  lang: string,
): { time: string | null; data: string | null; renews: string } | undefined {
  if (remaining == null) return undefined;
  return {
    time: remaining.secondsRemaining === null ? null : formatLeft(remaining.secondsRemaining * 1000),
    data: remaining.bytesRemaining === null ? null : formatBytes(remaining.bytesRemaining),
    renews: new Date(remaining.renewsAt).toLocaleString(lang === 'vi' ? 'vi-VN' : 'en-GB', { weekday: 'short', hour: '2-digit', minute: '2-digit' }),
  };
}

/** When an allowance renews, with its day and date (a weekly or monthly period may renew days away). */
export function renewalText(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang === 'vi' ? 'vi-VN' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  });
}
