// Without the DOM, so tests read it in Node.

/** Whole seconds until "send again" may be pressed (0 once it may); the portal's resendAfterSeconds counts from its answer. */
export function resendWait(sentAtMs: number, resendAfterSeconds: number, nowMs: number): number {
  return Math.max(0, Math.ceil((sentAtMs + resendAfterSeconds * 1000 - nowMs) / 1000));
}
