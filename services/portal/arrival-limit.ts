/**
 * Issue 27: arrivals at `/gateway` per client address, counted in fixed windows in memory (each
 * portal instance counts its own; an arrival costs a stored row only when its gateway is
 * registered, so this bounds what one address can make the portal do, not a security boundary).
 */
export function createArrivalLimit(limit: number, windowMs: number, now: () => number = Date.now) {
  let windowStart = now();
  let counts = new Map<string, number>();
  return {
    /** Counts one arrival; false when the address is over the limit in this window. */
    take(address: string): boolean {
      const at = now();
      if (at - windowStart >= windowMs) {
        windowStart = at;
        counts = new Map();
      }
      const used = (counts.get(address) ?? 0) + 1;
      counts.set(address, used);
      return used <= limit;
    },
    /** Seconds until the current window ends. */
    retryAfterSeconds(): number {
      return Math.max(1, Math.ceil((windowStart + windowMs - now()) / 1000));
    },
  };
}
export type ArrivalLimit = ReturnType<typeof createArrivalLimit>;
