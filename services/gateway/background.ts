import type { Logger } from '../kit/index.js';

/**
 * A task run again `everyMs` after each run ends (never two at once), until stopped; a failing
 * run is logged and the next one comes as usual. `stop` waits for a run in progress.
 */
export function every(everyMs: number, task: () => Promise<unknown>, log: Logger, name: string): { stop(): Promise<void>; kick(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    timer = undefined;
    running = task()
      .then(() => undefined, (error: unknown) => log.warn({ err: error, task: name }, 'background task failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, everyMs);
      });
  };
  timer = setTimeout(run, 0);
  return {
    kick() {
      if (timer !== undefined && !stopped) {
        clearTimeout(timer);
        timer = setTimeout(run, 0);
      }
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
