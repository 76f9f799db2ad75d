import type { HttpPort, HttpReply, Log } from '../host/auth-host.js';
import type { EmployeeAuthSettings } from './settings.js';
import { EmployeeVerifyResponse, type EmployeeVerifyRequest } from '../../contract/hr.js';

/** What HR said about one (employeeId, citizenId) pair, reduced to what the flow acts on. */
export type HrVerdict =
  | { kind: 'active'; employeeRef: string; company: string; wifiEligible: boolean }
  | { kind: 'inactive'; employeeRef: string | undefined }
  | { kind: 'noMatch' }
  | { kind: 'rateLimited' }
  | { kind: 'timeout' }
  | { kind: 'unavailable' };

interface Attempt {
  verdict: HrVerdict;
  /** Timeouts, 5xx and transport faults may pass on a second try. */
  retryable: boolean;
}

const final = (verdict: HrVerdict): Attempt => ({ verdict, retryable: false });
const transient = (verdict: HrVerdict): Attempt => ({ verdict, retryable: true });

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const text = (value: string | undefined): string | undefined => (value === '' ? undefined : value);

// spec 2.5 and 4.2 rule 1: a 200 authenticates only when verified and active.
function readVerdict(body: string): HrVerdict | undefined {
  const parsed = EmployeeVerifyResponse.safeParse(parseBody(body));
  if (!parsed.success) return undefined;
  const reply = parsed.data;
  if (!reply.verified) return { kind: 'noMatch' };
  const employeeRef = text(reply.employeeRef);
  if (!reply.active) return { kind: 'inactive', employeeRef };
  const company = text(reply.company);
  // HR's wifiEligible travels as claim wifi_eligible (no rule of spec 4.5 reads it; a model may).
  const wifiEligible = reply.wifiEligible === true;
  return employeeRef !== undefined && company !== undefined ? { kind: 'active', employeeRef, company, wifiEligible } : undefined;
}

function classify(reply: HttpReply, log: Log, correlationId: string): Attempt {
  if (reply.kind === 'timeout') return transient({ kind: 'timeout' });
  if (reply.kind === 'unreachable') return transient({ kind: 'unavailable' });
  if (reply.status === 200) {
    const verdict = readVerdict(reply.body);
    if (verdict !== undefined) return final(verdict);
    log.warn(`HR verify answered an unreadable body correlation_id=${correlationId}`);
    return final({ kind: 'unavailable' });
  }
  if (reply.status === 429) return final({ kind: 'rateLimited' });
  if (reply.status === 504) return transient({ kind: 'timeout' });
  if (reply.status >= 500) return transient({ kind: 'unavailable' });
  // 400/401/403: the request or the key is wrong; repeating it cannot help.
  log.error(`HR verify refused the call with HTTP ${reply.status} correlation_id=${correlationId}`);
  return final({ kind: 'unavailable' });
}

/**
 * Calls HR verify with the configured key, per-attempt timeout and attempts (spec 8; HR is
 * read-only, so a retry is safe). Never throws; every fault is a verdict that grants nothing.
 */
export function verifyWithHr(
  http: HttpPort,
  log: Log,
  settings: EmployeeAuthSettings,
  pair: { employeeId: string; citizenId: string },
  correlationId: string,
): HrVerdict {
  const url = `${settings.hrUrl}/api/v1/employees/verify`;
  const headers = { 'X-API-Key': settings.hrApiKey, 'X-Correlation-ID': correlationId };
  const body: EmployeeVerifyRequest = { employeeId: pair.employeeId, citizenId: pair.citizenId };
  let attempt = transient({ kind: 'unavailable' });
  for (let n = 1; n <= settings.hrAttempts && attempt.retryable; n++) {
    attempt = classify(http.postJson(url, headers, body, settings.hrTimeoutMs), log, correlationId);
    if (attempt.retryable) log.warn(`HR verify attempt ${n} failed (${attempt.verdict.kind}) correlation_id=${correlationId}`);
  }
  return attempt.verdict;
}
