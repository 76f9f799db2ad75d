import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { literalModel } from '../../dmn/engine/feel-case.js';
import { assertError } from '../../helpers/error-shape.js';
import { LOYALTY_TIER_ROWS, WIFI_ENTITLEMENT_RULES } from '../../dmn/models/wifi-entitlement-cases.js';
import { decisionService, evaluatePath, modelDirectory } from './decision-service.js';

const CORRELATION_ID = 'corr-0b5e7f0c-2d7e-4a55-9a0e-3c1f4f1f9a01';

for (const row of [...WIFI_ENTITLEMENT_RULES, ...LOYALTY_TIER_ROWS]) {
  test(`over HTTP, ${row.decision} ${row.title}`, async (t) => {
    const service = await decisionService(t);
    const answer = await service.request('POST', evaluatePath(), { json: { inputs: row.inputs, decision: row.decision } });
    t.is(answer.status, 200, answer.text);
    t.deepEqual(answer.body.results, { [row.decision]: row.outputs });
  });
}

test('evaluating the whole model answers every decision with the model name, correlation id and timestamp', async (t) => {
  const service = await decisionService(t);
  const inputs = { userType: 'CUSTOMER', employeeVerified: false, company: null, memberTier: 'GOLD', wifiBenefit: true };
  const answer = await service.request('POST', evaluatePath(), { json: { inputs }, headers: { 'X-Correlation-ID': CORRELATION_ID } });
  t.is(answer.status, 200, answer.text);
  t.is(answer.body.model, 'WifiEntitlement');
  t.deepEqual(Object.keys(answer.body.results as object), ['WifiEntitlement', 'LoyaltyTier', 'Entitlement']);
  t.is(answer.body.correlationId, CORRELATION_ID);
  t.is(answer.headers.get('x-correlation-id'), CORRELATION_ID);
  t.false(Number.isNaN(Date.parse(String(answer.body.timestamp))));
});

const errors: Array<[string, { json?: unknown; raw?: string; headers?: Record<string, string> }, string, number, string]> = [
  ['a body without inputs', { json: { decision: 'WifiEntitlement' } }, evaluatePath(), 400, 'INVALID_REQUEST'],
  ['inputs that are not an object', { json: { inputs: ['CUSTOMER'] } }, evaluatePath(), 400, 'INVALID_REQUEST'],
  ['a body that is not JSON', { raw: '{"inputs":', headers: { 'content-type': 'application/json' } }, evaluatePath(), 400, 'INVALID_REQUEST'],
  ['a decision the model does not have', { json: { inputs: {}, decision: 'Pricing' } }, evaluatePath(), 400, 'INVALID_REQUEST'],
  ['an unknown model', { json: { inputs: {} } }, evaluatePath('Pricing'), 404, 'MODEL_NOT_FOUND'],
  [
    'a missing declared input',
    { json: { inputs: { userType: 'CUSTOMER', employeeVerified: false }, decision: 'WifiEntitlement' } },
    evaluatePath(),
    422,
    'DMN_EVALUATION_ERROR',
  ],
  [
    'a missing input of the other decision',
    { json: { inputs: { userType: 'CUSTOMER', employeeVerified: false, company: null } } },
    evaluatePath(),
    422,
    'DMN_EVALUATION_ERROR',
  ],
  [
    'an input of the wrong type',
    { json: { inputs: { userType: 'EMPLOYEE', employeeVerified: 'yes', company: 'MEMBER_A' }, decision: 'WifiEntitlement' } },
    evaluatePath(),
    422,
    'DMN_EVALUATION_ERROR',
  ],
];

for (const [what, request, path, status, code] of errors) {
  test(`${what} answers ${status} ${code} in the error shape`, async (t) => {
    const service = await decisionService(t);
    assertError(t, await service.request('POST', path, request), status, code);
  });
}

test('an evaluation error names the decision and the input, and is never a denial', async (t) => {
  const service = await decisionService(t);
  const answer = await service.request('POST', evaluatePath(), {
    json: { inputs: { userType: 'EMPLOYEE', company: 'MEMBER_A' }, decision: 'WifiEntitlement' },
  });
  t.is(answer.status, 422);
  t.is(answer.body.message, "decision 'WifiEntitlement', input data 'employeeVerified': the input is missing");
  t.false('eligible' in answer.body);
  t.false('reason' in answer.body);
});

test('an evaluation error does not echo the input values', async (t) => {
  const service = await decisionService(t);
  const answer = await service.request('POST', evaluatePath(), {
    json: { inputs: { userType: 'EMPLOYEE', employeeVerified: '079201001234', company: 'MEMBER_A' }, decision: 'WifiEntitlement' },
  });
  t.is(answer.status, 422);
  t.false(answer.text.includes('079201001234'));
});

test('the list names each model with its source file, decisions, inputs and load time', async (t) => {
  const service = await decisionService(t);
  const answer = await service.request('GET', '/api/v1/decisions');
  t.is(answer.status, 200);
  t.deepEqual(answer.body.models, [
    {
      model: 'WifiEntitlement',
      file: 'WifiEntitlement.dmn',
      decisions: ['WifiEntitlement', 'LoyaltyTier', 'Entitlement'],
      inputs: ['userType', 'employeeVerified', 'company', 'memberTier', 'wifiBenefit'],
    },
  ]);
  t.false(Number.isNaN(Date.parse(String(answer.body.loadedAt))));
});

test('health is UP and names the loaded models', async (t) => {
  const service = await decisionService(t);
  const answer = await service.request('GET', '/health');
  t.is(answer.status, 200);
  t.like(answer.body, { status: 'UP', service: 'decision', models: ['WifiEntitlement'], lastReloadFailure: null });
});

test('the OpenAPI document describes the evaluate route from its schema', async (t) => {
  const service = await decisionService(t);
  const answer = await service.request('GET', '/openapi.json');
  t.is(answer.status, 200);
  t.truthy((answer.body.paths as Record<string, unknown>)['/api/v1/decisions/{model}/evaluate']);
});

test('an evaluation past DMN_EVALUATION_LIMIT_MS answers 422 DMN_EVALUATION_ERROR, and the service keeps answering', async (t) => {
  const dir = await modelDirectory(t);
  // Unbounded this runs for minutes; the inner list is built and dropped per step.
  await writeFile(
    join(dir, 'Endless.dmn'),
    literalModel('sum(for i in 1..100000 return sum(for j in 1..100000 return i * j))', {}).replace('name="Feel"', 'name="Endless"'),
  );
  const service = await decisionService(t, dir, { DMN_EVALUATION_LIMIT_MS: '100' });
  const answer = await service.request('POST', evaluatePath('Endless'), { json: { inputs: {} } });
  assertError(t, answer, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(answer.body.message), /longer than its limit of 100 ms/);
  const inputs = { userType: 'CUSTOMER', employeeVerified: false, company: null };
  t.is((await service.request('POST', evaluatePath(), { json: { inputs, decision: 'WifiEntitlement' } })).status, 200);
});
