import type { CounterStore } from '../host/auth-host.js';

/**
 * Failed submits per employee id (spec 8 "5 per authentication session"). A direct grant is
 * its own one-request authentication session, so the count is kept per employee id instead,
 * in a fixed window shared by every node (Keycloak's single-use object store).
 */
export interface SubmitLimit {
  isExhausted(employeeId: string): boolean;
  recordFailure(employeeId: string): void;
  clear(employeeId: string): void;
}

const keyOf = (employeeId: string): string => `wifi-employee-submits:${employeeId.toLowerCase()}`;

export function createSubmitLimit(
  counters: CounterStore,
  nowMs: () => number,
  limit: number,
  windowSeconds: number,
): SubmitLimit {
  const read = (employeeId: string): { count: number; windowEndsMs: number } | undefined => {
    const entry = counters.get(keyOf(employeeId));
    const count = Number(entry?.['count']);
    const windowEndsMs = Number(entry?.['windowEndsMs']);
    if (!Number.isFinite(count) || !Number.isFinite(windowEndsMs) || windowEndsMs <= nowMs()) return undefined;
    return { count, windowEndsMs };
  };
  return {
    isExhausted: (employeeId) => (read(employeeId)?.count ?? 0) >= limit,
    recordFailure: (employeeId) => {
      const current = read(employeeId) ?? { count: 0, windowEndsMs: nowMs() + windowSeconds * 1000 };
      const ttlSeconds = Math.max(1, Math.ceil((current.windowEndsMs - nowMs()) / 1000));
      counters.put(keyOf(employeeId), ttlSeconds, {
        count: String(current.count + 1),
        windowEndsMs: String(current.windowEndsMs),
      });
    },
    clear: (employeeId) => counters.remove(keyOf(employeeId)),
  };
}
