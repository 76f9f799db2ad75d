import type { AdminHost } from '../host/admin-host.js';

/** What every route step gets: the host and the request's correlation id (spec 2.1). */
export interface AdminContext {
  host: AdminHost;
  correlationId: string;
}

/** A route's answer before it becomes a reply. */
export interface RouteResult {
  status: number;
  body: unknown;
  rollback?: boolean;
  /** A document rather than JSON (a voucher batch's CSV or printable sheet): `body` is its text. */
  contentType?: string;
  /** Offered for download under this name. */
  filename?: string;
}

export const ok = (body: unknown): RouteResult => ({ status: 200, body });

export const isoNow = (context: AdminContext): string => new Date(context.host.nowMs()).toISOString();
