/**
 * Bundle entry (esbuild IIFE, global `WifiExtension`): the functions spi-wrapper's JsRuntime
 * calls. Each takes the raw Java facade and returns a JSON string.
 */
import { authenticateEmployee as authenticate } from './employee-auth/authenticate.js';
import { adaptAuthHost, outcomeToJava, type JavaAuthHost } from './host/java-auth-host.js';
import { adaptAdminHost, replyToJava, type JavaAdminHost } from './host/java-admin-host.js';
import { warmUpHost } from './host/warm-up-host.js';
import { handleAdminRequest } from './svc-admin/router.js';

export function authenticateEmployee(raw: JavaAuthHost): string {
  return outcomeToJava(authenticate(adaptAuthHost(raw)));
}

/**
 * Answers the reply as a string, or '' when the reply is asynchronous: it then reaches Java
 * through `raw.complete` once the promise jobs have run (GraalJS runs them before returning).
 */
export function handleAdmin(raw: JavaAdminHost): string {
  const reply = handleAdminRequest(adaptAdminHost(raw));
  if (!(reply instanceof Promise)) return replyToJava(reply);
  void reply.then((done) => raw.complete(replyToJava(done)));
  return '';
}

/** Runs the authenticator `rounds` times against an in-memory host (start-up warm-up). */
export function warmUp(rounds: number): string {
  let outcome = '';
  for (let round = 0; round < rounds; round++) outcome = outcomeToJava(authenticate(warmUpHost(round)));
  return outcome;
}
