// Loaded by ava before every test file (package.json "ava.require"). AVA 7 waits for a worker
// process to exit by itself once its tests are done, and its only limit is the run's 2-minute
// inactivity timeout: a handle left open by a library (a PGlite loaded from a dump keeps one)
// holds one of the run's two worker slots meanwhile, and the run stands still when every other
// file has finished. The completion handler is AVA's documented way to end the worker when its
// tests and hooks are done: every after.always hook has run by then, so nothing is cut short.
import { registerCompletionHandler } from 'ava';

registerCompletionHandler(() => {
  process.exit();
});
