import type { AdminHost } from '../host/admin-host.js';
import { INTERNAL_RANGES, inRange, parseAddress, parseRange } from './address-ranges.js';
import { requireCompany } from './companies.js';
import { ok, type AdminContext, type RouteResult } from './context.js';

/**
 * What a probe answers: the state and the URL probed, nothing about how the attempt went (no
 * timing, no exception), so the probe cannot serve to map what answers where.
 */
export interface Probe {
  state: 'UP' | 'UNREACHABLE' | 'NOT_CONFIGURED' | 'NOT_ALLOWED' | `HTTP_${number}`;
  url?: string;
}

const ORIGIN = /^(https?:\/\/(?:[^@/?#\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)(?::\d+)?)/;

/** The ranges the operator allows despite INTERNAL_RANGES (Keycloak's SVC_ADMIN_PROBE_ALLOW); malformed entries allow nothing. */
function allowedRanges(host: AdminHost): ReturnType<typeof parseRange>[] {
  return host.probeAllow
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .map((entry) => {
      const range = parseRange(entry);
      if (range === undefined) host.log('warn', 'svc-admin: an SVC_ADMIN_PROBE_ALLOW entry is not an address range; ignored');
      return range;
    });
}

/** An internal address is allowed only inside a range the operator named. */
function permitted(address: string, allowed: ReturnType<typeof parseRange>[]): boolean {
  const value = parseAddress(address);
  if (value === undefined) return false;
  const internal = INTERNAL_RANGES.some((range) => inRange(value, range));
  return !internal || allowed.some((range) => range !== undefined && inRange(value, range));
}

/**
 * spec 4.7 rule 7: GET <origin>/health with the company's timeout; read-only. The name is resolved
 * first and every address it has must be permitted; the request then goes to that address, so a
 * second lookup cannot point it elsewhere.
 */
export function probe(host: AdminHost, endpoint: string | undefined, timeoutMs: number): Probe {
  const match = endpoint === undefined ? null : ORIGIN.exec(endpoint);
  if (match === null || match[1] === undefined || match[2] === undefined) return { state: 'NOT_CONFIGURED' };
  const url = `${match[1]}/health`;
  const name = match[2].replace(/^\[(.*)\]$/, '$1');
  const addresses = host.http.resolve(name);
  const [first] = addresses ?? [];
  if (addresses === undefined || first === undefined) return { state: 'UNREACHABLE', url };
  const allowed = allowedRanges(host);
  if (!addresses.every((address) => permitted(address, allowed))) return { state: 'NOT_ALLOWED', url };
  const result = host.http.getAt(url, first, timeoutMs);
  if ('failure' in result) return { state: 'UNREACHABLE', url };
  return { state: result.status === 200 ? 'UP' : `HTTP_${result.status}`, url };
}

export function probeRoute(context: AdminContext, code: string): RouteResult {
  const company = requireCompany(context, code);
  return ok({
    hr: probe(context.host, company.hrEndpoint, company.timeoutMs),
    loyalty: probe(context.host, company.loyaltyEndpoint, company.timeoutMs),
  });
}
