/**
 * The module's error replies, built from the platform's wire contract (`contract/`): the one
 * catalogue of codes and the spec 2.2 body. The module's only place that builds error bodies.
 */
import { ERROR_CATALOGUE, errorBody, type ErrorCode } from '../../contract/index.js';
import type { AdminReply } from '../host/admin-host.js';

/** Thrown anywhere in the module; the router turns it into the 2.2 body. Messages never carry input values. */
export class AdminError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /**
   * The request's Keycloak writes are kept although it fails (an erasure stopped part-way leaves
   * its account disabled); every other failure rolls them back.
   */
  readonly keepWrites: boolean;

  constructor(code: ErrorCode, message?: string, options: { keepWrites?: boolean } = {}) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.keepWrites = options.keepWrites === true;
  }
}

export function jsonReply(status: number, body: unknown, correlationId: string): AdminReply {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
    headers: { 'X-Correlation-ID': correlationId, 'Cache-Control': 'no-store' },
  };
}

/**
 * A document answer (a voucher batch's CSV or printable sheet): never cached, never framed, and
 * the sheet runs no script and loads nothing (its style is inline).
 */
export function documentReply(result: { status: number; body: unknown; contentType?: string; filename?: string }, correlationId: string): AdminReply {
  return {
    status: result.status,
    contentType: result.contentType ?? 'text/plain; charset=utf-8',
    body: String(result.body),
    // The whole set of security headers: Keycloak's realm defaults (a CSP that lets the sheet be
    // framed by the realm's own pages) would otherwise replace them.
    ownSecurityHeaders: true,
    headers: {
      'X-Correlation-ID': correlationId,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'X-Robots-Tag': 'none',
      'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
      ...(result.filename === undefined ? {} : { 'Content-Disposition': `attachment; filename="${result.filename}"` }),
    },
  };
}

/** spec 2.2 error object. */
export function errorReply(error: AdminError, correlationId: string, nowMs: number): AdminReply {
  return jsonReply(error.status, errorBody({ code: error.code, message: error.message }, correlationId, new Date(nowMs)), correlationId);
}
