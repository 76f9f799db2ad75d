import type { AdminHttp } from '../host/admin-host.js';
import { requireCompany } from './companies.js';
import { ok, type AdminContext, type RouteResult } from './context.js';

export interface Probe {
  state: string;
  ms: number;
  url?: string;
  error?: string;
}

const ORIGIN = /^(https?:\/\/[^/?#\s]+)/;

/** spec 4.7 rule 7: GET <origin>/health with the company's timeout; read-only. */
export function probe(http: AdminHttp, endpoint: string | undefined, timeoutMs: number): Probe {
  const origin = endpoint === undefined ? undefined : ORIGIN.exec(endpoint)?.[1];
  if (origin === undefined) return { state: 'NOT_CONFIGURED', ms: 0 };
  const url = `${origin}/health`;
  const result = http.get(url, timeoutMs);
  if ('failure' in result) return { state: 'UNREACHABLE', ms: Math.round(result.ms), url, error: result.errorClass };
  return { state: result.status === 200 ? 'UP' : `HTTP_${result.status}`, ms: Math.round(result.ms), url };
}

export function probeRoute(context: AdminContext, code: string): RouteResult {
  const company = requireCompany(context, code);
  return ok({
    hr: probe(context.host.http, company.hrEndpoint, company.timeoutMs),
    loyalty: probe(context.host.http, company.loyaltyEndpoint, company.timeoutMs),
  });
}
