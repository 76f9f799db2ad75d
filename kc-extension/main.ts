/**
 * Bundle entry (esbuild IIFE, global `WifiExtension`): the functions spi-wrapper's JsRuntime
 * calls. Each takes the raw Java facade and returns a JSON string.
 */
import { acceptCorrelationId } from '../contract/index.js';
import { authenticateEmployee as authenticate } from './employee-auth/authenticate.js';
import { SETTINGS } from './employee-auth/settings.js';
import { adaptAuthHost, outcomeToJava, type JavaAuthHost } from './host/java-auth-host.js';
import { authenticatePhone as authenticateByPhone } from './phone-auth/authenticate.js';
import { PHONE_SETTINGS } from './phone-auth/settings.js';
import { authenticateVoucher as authenticateByVoucher } from './voucher-auth/authenticate.js';
import { VOUCHER_SETTINGS } from './voucher-auth/settings.js';
import { adaptAdminHost, replyToJava, type JavaAdminHost } from './host/java-admin-host.js';
import { warmUpHost } from './host/warm-up-host.js';
import { startRefusal, type StartFacts } from './start-check.js';
import { handleAdminRequest } from './svc-admin/router.js';
import { AdminError, errorReply } from './svc-admin/wire-error.js';

export function authenticateEmployee(raw: JavaAuthHost): string {
  return outcomeToJava(authenticate(adaptAuthHost(raw)));
}

export function authenticatePhone(raw: JavaAuthHost): string {
  return outcomeToJava(authenticateByPhone(adaptAuthHost(raw)));
}

export function authenticateVoucher(raw: JavaAuthHost): string {
  return outcomeToJava(authenticateByVoucher(adaptAuthHost(raw)));
}

type ListedSetting = { name: string; label: string; help: string; kind: string; default?: string };

const listSettings = (settings: readonly ListedSetting[]): string =>
  JSON.stringify(
    settings.map((setting) => ({
      name: setting.name,
      label: setting.label,
      help: setting.help,
      default: setting.default,
      secret: setting.kind === 'secret' || setting.kind === 'optionalSecret',
    })),
  );

/**
 * The authenticator's settings as the admin console lists them (spi-wrapper's factory declares
 * exactly these): `[{name, label, help, default?, secret}]`. settings.ts is the one source.
 */
export function authenticatorSettings(): string {
  return listSettings(SETTINGS);
}

/** The phone authenticator's settings, likewise (phone-auth/settings.ts). */
export function phoneAuthenticatorSettings(): string {
  return listSettings(PHONE_SETTINGS);
}

/** The voucher authenticator's settings, likewise (voucher-auth/settings.ts). */
export function voucherAuthenticatorSettings(): string {
  return listSettings(VOUCHER_SETTINGS);
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

/**
 * The svc-admin reply Java sends when a request failed outside the module's own error handling
 * (the facade, the script call or the reply broke): the spec 2.2 INTERNAL_ERROR body from the
 * wire contract, under the caller's correlation id when it has the agreed shape. Takes plain
 * values only, so it works when the request's facade is what failed.
 */
export function internalErrorReply(givenCorrelationId: string | null, newUuid: string, nowMs: number): string {
  const correlationId = acceptCorrelationId(givenCorrelationId, () => newUuid);
  return replyToJava({ ...errorReply(new AdminError('INTERNAL_ERROR'), correlationId, nowMs), rollback: true });
}

/** Runs the authenticator `rounds` times against an in-memory host (start-up warm-up). */
export function warmUp(rounds: number): string {
  let outcome = '';
  for (let round = 0; round < rounds; round++) outcome = outcomeToJava(authenticate(warmUpHost(round)));
  return outcome;
}

/** Checked once at Keycloak's start: '' lets it start, otherwise the line it stops with. */
export function startCheck(factsJson: string): string {
  return startRefusal(JSON.parse(factsJson) as StartFacts);
}
