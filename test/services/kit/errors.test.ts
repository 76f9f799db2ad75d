import test from 'ava';
import { ApiError, type ERROR_CATALOGUE, errorBody } from '../../../services/kit/index.js';

// Spec section 7: code -> status.
const SPEC_STATUSES: Array<[keyof typeof ERROR_CATALOGUE, number]> = [
  ['INVALID_CREDENTIALS', 401],
  ['ACCOUNT_EXISTS', 409],
  ['INVALID_REQUEST', 400],
  ['UNAUTHORIZED', 401],
  ['FORBIDDEN', 403],
  ['EMPLOYEE_INACTIVE', 403],
  ['ENTITLEMENT_DENIED', 403],
  ['SESSION_EXPIRED', 409],
  ['RATE_LIMITED', 429],
  ['HR_SERVICE_UNAVAILABLE', 503],
  ['HR_SERVICE_TIMEOUT', 504],
  ['LOYALTY_SERVICE_UNAVAILABLE', 503],
  ['LOYALTY_SERVICE_TIMEOUT', 504],
  ['DMN_UNAVAILABLE', 503],
  ['DMN_EVALUATION_ERROR', 422],
  ['MODEL_NOT_FOUND', 404],
];

for (const [code, status] of SPEC_STATUSES) {
  test(`${code} answers ${status}`, (t) => {
    t.is(new ApiError(code).status, status);
  });
}

test('ENTITLEMENT_DENIED can answer 422 for a session grant without an entitlement', (t) => {
  t.is(new ApiError('ENTITLEMENT_DENIED', { status: 422 }).status, 422);
});

test('the error object carries code, message, correlationId, timestamp and only the optional fields that are set', (t) => {
  const plain = errorBody(new ApiError('INVALID_REQUEST'), 'corr-x');
  t.deepEqual(Object.keys(plain).sort(), ['code', 'correlationId', 'message', 'timestamp']);
  const denial = errorBody(new ApiError('ENTITLEMENT_DENIED', { reason: 'COMPANY_NOT_ELIGIBLE', eligible: false }), 'corr-x');
  t.like(denial, { code: 'ENTITLEMENT_DENIED', reason: 'COMPANY_NOT_ELIGIBLE', eligible: false, correlationId: 'corr-x' });
  t.is(new Date(denial.timestamp).toISOString(), denial.timestamp);
});
