import type { Logger } from '../kit/index.js';

/**
 * A task run again `everyMs` after each run ends (never two at once), or sooner when the run
 * answers how many milliseconds until it is next needed, or when kicked; until stopped. A
 * failing run is logged and the next one comes as usual. `stop` waits for a run in progress.
 */
export function every(everyMs: number, task: () => Promise<number | undefined>, log: Logger, name: string): { stop(): Promise<void>; kick(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let kickedWhileRunning = false;
  const run = () => {
    timer = undefined;
    kickedWhileRunning = false;
    running = task()
      .then(
        (next) => (typeof next === 'number' ? Math.max(0, Math.min(next, everyMs)) : everyMs),
        (error: unknown) => {
          log.warn({ err: error, task: name }, 'background task failed');
          return everyMs;
        },
      )
      .then((delay) => {
        if (!stopped) timer = setTimeout(run, kickedWhileRunning ? 0 : delay);
      });
  };
  timer = setTimeout(run, 0);
  return {
    // A kick during a run is not lost: the next run comes at once (its cause may be newer than what the run read).
    kick() {
      if (stopped) return;
      if (timer === undefined) kickedWhileRunning = true;
      else {
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
