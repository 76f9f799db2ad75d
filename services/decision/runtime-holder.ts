import type { LoadOutcome, Runtime } from '../../dmn/model-directory.js';

export interface RuntimeHolder {
  /** The runtime serving now; a request takes it once and keeps it to the end. */
  current(): Runtime | null;
  /** Why the latest load failed, or null when it succeeded. */
  lastFailure(): string | null;
  /** Loads a new runtime and swaps it in only when the whole load succeeded. */
  reload(): Promise<LoadOutcome>;
}

/**
 * Holds the serving runtime and swaps it atomically (spec 4.5): a reload builds a complete new
 * runtime aside and replaces the reference in one assignment, so in-flight requests finish on
 * the runtime they started with and a failed load leaves the previous one serving. Reloads run
 * one after another, so two at once cannot finish out of order.
 */
export function createRuntimeHolder(load: () => Promise<LoadOutcome>): RuntimeHolder {
  let serving: Runtime | null = null;
  let failure: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    current: () => serving,
    lastFailure: () => failure,
    reload() {
      const next = queue.then(load).then((outcome) => {
        if (outcome.ok) serving = outcome.runtime;
        failure = outcome.ok ? null : outcome.message;
        return outcome;
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
