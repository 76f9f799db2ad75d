/**
 * What the service kit offers (services/kit/README.md), listed by name so a reader sees the
 * whole surface and a file's internals stay internal. Wire-contract names (codes, patterns,
 * the 2.2 body) come from `contract/` and are re-exported where the kit always offered them.
 */

// Building a service: config, app, routes, process entry.
export { commonSettings, ConfigError, envFlag, envInt, envPort, loadConfig } from './config.js';
export { createServiceApp, type ServiceAppOptions } from './app.js';
export { route, type Reply, type Route, type RouteContext, type RouteSpec } from './route.js';
export { jsonFastPath, type FastPath } from './fast-path.js';
export { listen, runService, type BaseConfig, type ServiceDefinition, type ServiceInstance } from './server.js';
export { openApiDocument, type DocumentedRoute, type HttpMethod, type Security } from './openapi.js';
export { parseBody } from './validate.js';

// Steps and routes every service shares.
export { API_KEY_HEADER, apiKeyList, requireApiKey, type CallerKey } from './api-key.js';
export { SUBJECT_KEY_REFUSALS, subjectKeyRoute } from './subject-key.js';
export { createCeiling, type Ceiling } from './rate-ceiling.js';
export { healthRoute, type Readiness } from './health.js';
export { createFaultHarness, FaultRequest, type Fault, type FaultCodes, type FaultHarness } from './fault-harness.js';

// Errors (spec 2.2, 7) and correlation (spec 2.1).
export { ApiError, ERROR_CATALOGUE, errorBody, type ApiErrorOptions, type DenialReason, type ErrorBody, type ErrorCode } from './errors.js';
export { ErrorBodySchema } from './error-schema.js';
export { errorMiddleware, notFound } from './error-middleware.js';
export { acceptCorrelationId, CORRELATION_HEADER, newCorrelationId } from './correlation.js';

// Logging without secrets.
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { isSecretKey, REDACTED, scrub, scrubString } from './redaction.js';

// Outbound calls.
export { breakerState, idempotentReplays, metricsRegistry } from './metrics.js';
export { callJson, OutboundError, type OutboundCall, type OutboundFailure, type OutboundResponse } from './http-client.js';

// Repeat-safe requests (spec 2.1).
export { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from './idempotency-key.js';

// Secrets at rest and device handles behind a gateway.
export { createSealer, type Sealer } from './sealing.js';

// The gateway registry and the controllers' crypto.
