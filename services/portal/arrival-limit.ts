import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under: IPv4 (also written IPv4-mapped, as a dual-stack
 * socket reports it) as it is; IPv6 by its /64. A /64 is one network: every device on it chooses
 * its own addresses in it and changes them at will (SLAAC privacy addresses, RFC 8981), so
 * counting exact IPv6 addresses would give one device as many budgets as it likes.
 */
export function arrivalKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

export interface ArrivalLimit {
  /** Counts one arrival; false when its address, or everyone together, is over the limit in this window. */
  take(address: string): boolean;
  /** Seconds until the current window ends. */
  retryAfterSeconds(): number;
}

/**
 * Arrivals at `/gateway` per client address (IPv6 per /64), and all of them together
 * under a global ceiling, counted in fixed windows in memory (each portal instance counts its
 * own; an arrival costs a stored row only when its gateway is registered, so this bounds what
 * clients can make the portal do, not a security boundary). An arrival refused for its address
 * does not count toward the ceiling: one address cannot use up everyone's.
 */
export function createArrivalLimit(limit: number, windowMs: number, globalLimit: number, now: () => number = Date.now): ArrivalLimit {
  let windowStart = now();
  let counts = new Map<string, number>();
  let total = 0;
  return {
    take(address: string): boolean {
      const at = now();
      if (at - windowStart >= windowMs) {
        windowStart = at;
        counts = new Map();
        total = 0;
      }
      const key = arrivalKeyOf(address);
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      if (used > limit) return false;
      total += 1;
      return total <= globalLimit;
    },
    retryAfterSeconds(): number {
      return Math.max(1, Math.ceil((windowStart + windowMs - now()) / 1000));
    },
  };
}
