import type { AuthHost, AuthOutcome } from '../host/auth-host.js';
import { findOrCreateAccount } from './find-or-create-account.js';
import { correlationId } from './correlation.js';
import { readCredentials } from './credentials.js';
import { verifyWithHr } from './hr-verify.js';
import { refuse } from './refusals.js';
import { readSettings } from './settings.js';
import { createAddressLimit, createSubmitLimit } from './submit-limit.js';

/**
 * The employee direct-grant authenticator (spec 4.1 rule 3, 4.8). The citizen number is read
 * from the form, sent to HR and dropped: it is never logged, stored, put in an event, a note
 * or a token, and never used as the attempted username.
 */
export function authenticateEmployee(host: AuthHost): AuthOutcome {
  const corr = correlationId(host.request, () => host.newUuid());
  host.eventDetail('correlation_id', corr);

  const read = readSettings(host.config);
  if (!read.ok) {
    host.log.error(`employee authenticator misconfigured: unusable settings ${read.unusable.join(', ')}; fix the execution's config correlation_id=${corr}`);
    return refuse('authenticator_misconfigured');
  }
  const { settings } = read;

  const credentials = readCredentials(host.request);
  if (credentials.kind === 'missing') return refuse('invalid_request');

  // The client address first; an address over its limit takes no employee's slot.
  const address = host.request.clientAddress() ?? 'unknown';
  if (createAddressLimit(host.counters, settings.addressLimit, settings.addressWindowSeconds).take(address) === undefined) {
    host.log.warn(`employee attempts per client address reached correlation_id=${corr}`);
    return refuse('rate_limited');
  }

  const submits = createSubmitLimit(host.counters, settings.submitLimit, settings.submitWindowSeconds);
  const { employeeId } = credentials;
  const slot = submits.take(employeeId);
  if (slot === undefined) {
    host.log.warn(`employee submit limit reached correlation_id=${corr}`);
    return refuse('rate_limited');
  }
  // Only guesses count: every other refusal gives the submit's slot back.
  const refuseUncounted = (error: Parameters<typeof refuse>[0]): AuthOutcome => {
    submits.release(employeeId, slot);
    return refuse(error);
  };
  if (credentials.kind === 'malformed') return refuse('invalid_grant');

  const verdict = verifyWithHr(host.http, host.log, settings, credentials, corr);
  switch (verdict.kind) {
    case 'noMatch':
      return refuse('invalid_grant');
    case 'inactive':
      if (verdict.employeeRef !== undefined) host.eventDetail('employee_ref', verdict.employeeRef);
      return refuseUncounted('employee_inactive');
    case 'rateLimited':
      // HR's ceiling is no reason to give the slot back (a flood would retry at once).
      return refuse('rate_limited');
    case 'timeout':
      return refuseUncounted('hr_timeout');
    case 'unavailable':
      return refuseUncounted('hr_unavailable');
    case 'active':
      break;
  }

  host.eventDetail('employee_ref', verdict.employeeRef);
  const link = findOrCreateAccount(host.users, employeeId, verdict.employeeRef);
  if (link.kind === 'conflict') {
    host.log.error(`IDENTITY_LINK_CONFLICT employee_ref=${verdict.employeeRef}: ${link.reason}; manual fix needed correlation_id=${corr}`);
    return refuseUncounted('identity_link_conflict');
  }
  if (link.kind === 'disabled') return refuseUncounted('account_disabled');

  const claims = {
    user_type: 'EMPLOYEE',
    employee_verified: 'true',
    employee_ref: verdict.employeeRef,
    company: verdict.company,
    wifi_eligible: String(verdict.wifiEligible),
  };
  // Rewriting unchanged attributes costs database writes on every login; write only changes.
  const changed = Object.entries(claims).filter(([name, value]) => link.user.attributes[name as keyof typeof claims] !== value);
  if (changed.length > 0) host.users.setAttributes(link.user.id, Object.fromEntries(changed));
  submits.clear(employeeId);
  host.log.info(`employee signed in employee_ref=${verdict.employeeRef} correlation_id=${corr}`);
  return { type: 'success', userId: link.user.id };
}
