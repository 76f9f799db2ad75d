/**
 * Polls `probe` until `done` holds for its result, and returns that result; throws with the
 * last result when `timeoutMs` passes first. What tests use instead of fixed sleeps.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`condition not met within ${options.timeoutMs ?? 5000} ms; last value: ${JSON.stringify(value)?.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}
