import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import {
  acceptCorrelationId,
  CITIZEN_ID_PATTERN,
  COMPANY_CODE_PATTERN,
  EMPLOYEE_ID_PATTERN,
  ENTITLEMENT_ID_PATTERN,
  ERROR_CATALOGUE,
  errorBody,
  PATH_ID_PATTERN,
  SESSION_ID_PATTERN,
} from '../../contract/index.js';
import { shippedBundle } from '../kc-extension/shipped-bundle.js';

const UUID = '123e4567-e89b-42d3-a456-426614174000';

// zod is the one package allowed: pure JavaScript, already bundled into Keycloak by svc-admin.
test('the contract uses no Node or host API and no package but zod, so it can be bundled into Keycloak', (t) => {
  for (const file of readdirSync('contract', { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join('contract', file), 'utf8');
    t.false(/from ['"](node:|(?!zod['"])[a-z@])|\brequire\(|\bprocess\.|\bBuffer\b|\bglobalThis\b/.test(source), file);
  }
});

test('the controller profiles use no Node or host API either (zod is plain JavaScript)', (t) => {
  for (const file of readdirSync('edge/controllers').filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join('edge/controllers', file), 'utf8').replace(/from 'zod'/g, '');
    t.false(/from ['"](node:|[a-z@])|\brequire\(|\bprocess\.|\bBuffer\b|\bglobalThis\b/.test(source), file);
  }
});

test('correlation ids: only corr-<uuid> is kept, anything else is replaced by a fresh one', (t) => {
  t.is(
    acceptCorrelationId(`corr-${UUID}`, () => 'x'),
    `corr-${UUID}`,
  );
  for (const bad of [undefined, null, '', UUID, `corr-${UUID}x`, 'corr-079201001234', `corr-${UUID.slice(0, -1)}`]) {
    t.is(
      acceptCorrelationId(bad, () => UUID),
      `corr-${UUID}`,
      String(bad),
    );
  }
});

const SHAPES: Array<[string, RegExp, string[], string[]]> = [
  ['entitlement id', ENTITLEMENT_ID_PATTERN, [`ent-${UUID}`], [`sess-${UUID}`, 'ent-1', `ent-${UUID}-x`]],
  ['session id', SESSION_ID_PATTERN, [`sess-${UUID}`], [`ent-${UUID}`, 'sess-', `sess-${UUID.toUpperCase()}x`]],
  ['path id', PATH_ID_PATTERN, ['a', 'A-1', 'x'.repeat(64)], ['', 'x'.repeat(65), 'a_b', 'a/b', 'a.b']],
  ['employeeId', EMPLOYEE_ID_PATTERN, ['A-1001', 'a.b_c', 'x'.repeat(32)], ['ab', 'x'.repeat(33), 'A 1001', 'A/1']],
  ['citizenId', CITIZEN_ID_PATTERN, ['123456789', '079201001234'], ['12345678', '0792010012345', '07920100123a']],
  ['company code', COMPANY_CODE_PATTERN, ['MEMBER_A'.replace('_', '-'), 'PARTNER-X', 'AB'], ['A', 'member-a', 'X'.repeat(25)]],
];

for (const [name, pattern, good, bad] of SHAPES) {
  test(`${name} pattern accepts its shape and nothing near it`, (t) => {
    for (const value of good) t.true(pattern.test(value), value);
    for (const value of bad) t.false(pattern.test(value), value);
  });
}

test('the error catalogue holds the statuses of spec 7', (t) => {
  const statuses = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [code, entry.status]));
  t.like(statuses, {
    INVALID_CREDENTIALS: 401,
    ACCOUNT_EXISTS: 409,
    INVALID_REQUEST: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    EMPLOYEE_INACTIVE: 403,
    ENTITLEMENT_DENIED: 403,
    SESSION_EXPIRED: 409,
    RATE_LIMITED: 429,
    HR_SERVICE_UNAVAILABLE: 503,
    HR_SERVICE_TIMEOUT: 504,
    LOYALTY_SERVICE_UNAVAILABLE: 503,
    LOYALTY_SERVICE_TIMEOUT: 504,
    DMN_UNAVAILABLE: 503,
    DMN_EVALUATION_ERROR: 422,
    MODEL_NOT_FOUND: 404,
  });
});

test('the 2.2 error body: the four fields, the catalogue message by default, reason and eligible only when given', (t) => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  t.deepEqual(errorBody({ code: 'NOT_FOUND' }, `corr-${UUID}`, now), {
    code: 'NOT_FOUND',
    message: ERROR_CATALOGUE.NOT_FOUND.message,
    correlationId: `corr-${UUID}`,
    timestamp: '2026-01-02T03:04:05.000Z',
  });
  t.deepEqual(errorBody({ code: 'ENTITLEMENT_DENIED', message: 'no', reason: 'COMPANY_NOT_ELIGIBLE', eligible: false }, `corr-${UUID}`, now), {
    code: 'ENTITLEMENT_DENIED',
    message: 'no',
    correlationId: `corr-${UUID}`,
    timestamp: '2026-01-02T03:04:05.000Z',
    reason: 'COMPANY_NOT_ELIGIBLE',
    eligible: false,
  });
});

test("the Keycloak bundle carries the contract's patterns, not copies of its own", (t) => {
  const bundle = shippedBundle();
  t.true(bundle.includes('contract/ids.ts'), 'esbuild marks the contract module in the bundle');
  t.true(bundle.includes('contract/correlation.ts'));
});
