/**
 * Spec 1 (no enumeration) and 4.1 rule 4: every INVALID_CREDENTIALS answer leaves at one common
 * time after its request arrived, not merely after a floor. The identity provider's refusals do
 * different work: a wrong password of a known account runs the password hash, an unknown account
 * a dummy hash, a locked account is refused before any hash; and on a loaded machine the hash
 * takes longer than any fixed floor. So every refusal, fast or slow, is held until the floor or
 * the slowest refusal of the last ten minutes (with a margin), whichever is longer, up to a cap.
 */
export interface RefusalPace {
  /** Records a refusal that started at `startedMs` and whose work ended at `nowMs`; answers when to answer it. */
  releaseAt(startedMs: number, nowMs: number): number;
}

export interface PaceOptions {
  floorMs: number;
  /** How long a slow refusal keeps setting the pace. */
  windowMs: number;
  /** No refusal is held longer (a stalled identity provider must not hold every refusal after it). */
  capMs: number;
  /** Above the slowest seen, for the noise of the next one. */
  margin: number;
}

export const PACE_DEFAULTS = { windowMs: 10 * 60_000, capMs: 3000, margin: 1.25 } as const;

export function createRefusalPace(options: PaceOptions): RefusalPace {
  // Refusal durations with their end times, slowest first: a later, slower one drops the rest.
  const slow: Array<{ at: number; ms: number }> = [];
  return {
    releaseAt(startedMs, nowMs) {
      const ms = Math.min(nowMs - startedMs, options.capMs);
      while ((slow.at(-1)?.ms ?? Number.POSITIVE_INFINITY) <= ms) slow.pop();
      slow.push({ at: nowMs, ms });
      while ((slow[0]?.at ?? nowMs) < nowMs - options.windowMs) slow.shift();
      const pace = Math.max(options.floorMs, Math.ceil((slow[0]?.ms ?? ms) * options.margin));
      return startedMs + Math.min(pace, options.capMs);
    },
  };
}
