import type { CounterStore } from '../host/auth-host.js';

/**
 * A count of `limit` slots per key, each an entry of its own in Keycloak's single-use object
 * store (shared by every node) living `windowSeconds`. An attempt takes a free slot with the
 * store's atomic put-if-absent, so parallel attempts can never take more than `limit` of them:
 * a read-then-write count let parallel guesses through.
 */
export interface SlotLimit {
  /** The slot this attempt holds, or undefined when every slot is taken (the limit is reached). */
  take(key: string): number | undefined;
  /** Gives the slot back. */
  release(key: string, slot: number): void;
  /** Frees every slot of the key. */
  clear(key: string): void;
}

export function createSlotLimit(counters: CounterStore, prefix: string, limit: number, windowSeconds: number): SlotLimit {
  const keyOf = (key: string, slot: number): string => `${prefix}:${key.toLowerCase()}:${slot}`;
  return {
    take: (key) => {
      for (let slot = 1; slot <= limit; slot++) if (counters.claim(keyOf(key, slot), windowSeconds)) return slot;
      return undefined;
    },
    release: (key, slot) => counters.remove(keyOf(key, slot)),
    clear: (key) => {
      for (let slot = 1; slot <= limit; slot++) counters.remove(keyOf(key, slot));
    },
  };
}

/**
 * Failed submits per employee id (spec 8 "5 per authentication session"). A direct grant is
 * its own one-request authentication session, so the count is kept per employee id instead.
 * A failed guess keeps its slot until it expires, and so does HR's RATE_LIMITED
 * (giving it back let a flood retry at once); an outcome that is not a guess gives it back.
 */
export const createSubmitLimit = (counters: CounterStore, limit: number, windowSeconds: number): SlotLimit =>
  createSlotLimit(counters, 'wifi-employee-submits', limit, windowSeconds);

/**
 * Sign-in attempts per client address, checked before anything else, so one
 * address guessing employee ids cannot use up HR's global ceiling (the backstop for many
 * addresses) and lock every employee out. Every attempt counts; none is given back.
 */
export const createAddressLimit = (counters: CounterStore, limit: number, windowSeconds: number): SlotLimit =>
  createSlotLimit(counters, 'wifi-employee-address', limit, windowSeconds);
