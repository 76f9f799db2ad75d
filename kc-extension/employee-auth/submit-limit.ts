import type { CounterStore } from '../host/auth-host.js';

/**
 * Failed submits per employee id (spec 8 "5 per authentication session"). A direct grant is
 * its own one-request authentication session, so the count is kept per employee id instead, in
 * Keycloak's single-use object store (shared by every node).
 *
 * The count is `limit` slots, each an entry of its own living `windowSeconds`. A submit takes a
 * free slot before HR is asked, with the store's atomic put-if-absent, so parallel submits can
 * never take more than `limit` of them: a read-then-write count let parallel guesses through.
 * A failed guess keeps its slot until it expires; an outcome that is not a guess gives it back.
 */
export interface SubmitLimit {
  /** The slot this submit holds, or undefined when every slot is taken (the limit is reached). */
  take(employeeId: string): number | undefined;
  /** Gives the slot back: the submit was not a guess (inactive, HR fault, ...). */
  release(employeeId: string, slot: number): void;
  /** A success clears the count. */
  clear(employeeId: string): void;
}

const keyOf = (employeeId: string, slot: number): string => `wifi-employee-submits:${employeeId.toLowerCase()}:${slot}`;

export function createSubmitLimit(counters: CounterStore, limit: number, windowSeconds: number): SubmitLimit {
  return {
    take: (employeeId) => {
      for (let slot = 1; slot <= limit; slot++) if (counters.claim(keyOf(employeeId, slot), windowSeconds)) return slot;
      return undefined;
    },
    release: (employeeId, slot) => counters.remove(keyOf(employeeId, slot)),
    clear: (employeeId) => {
      for (let slot = 1; slot <= limit; slot++) counters.remove(keyOf(employeeId, slot));
    },
  };
}
