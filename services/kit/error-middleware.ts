import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, errorBody } from './errors.js';
import { newCorrelationId } from './correlation.js';

interface BodyParserError {
  type: string;
  status: number;
}

// body-parser (inside express.json and express.urlencoded) reports its failures with a `type`; each becomes a 400
// INVALID_REQUEST with a message that names the problem but never echoes the body.
const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'entity.too.large': 'The request body is too large.',
  'encoding.unsupported': 'The request body encoding is not supported.',
  'charset.unsupported': 'The request body charset is not supported.',
  'entity.verify.failed': 'The request body could not be read.',
  'request.aborted': 'The request body was not received whole.',
  'request.size.invalid': 'The request body length does not match its header.',
  'parameters.too.many': 'The request body has too many fields.',
};

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string' && 'status' in error;
}

function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (isBodyParserError(error)) {
    return new ApiError('INVALID_REQUEST', { message: BODY_PARSER_MESSAGES[error.type] ?? 'The request body could not be read.' });
  }
  return undefined;
}

/** Unknown routes answer 404 in the spec's error shape. */
export const notFound: RequestHandler = () => {
  throw new ApiError('NOT_FOUND');
};

/** The one error middleware: known errors keep their code; anything else is a 500 that leaks nothing. */
export const errorMiddleware: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const correlationId = res.locals.correlationId ?? newCorrelationId();
  let apiError = toApiError(error);
  if (apiError === undefined) {
    res.locals.log?.error({ err: error, path: req.path }, 'unexpected error');
    apiError = new ApiError('INTERNAL_ERROR');
  }
  if (res.headersSent) return;
  res.status(apiError.status).json(errorBody(apiError, correlationId));
};
