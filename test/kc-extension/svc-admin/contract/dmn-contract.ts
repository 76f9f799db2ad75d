import type { TestFn } from 'ava';
import { z } from 'zod';
import type { Driver } from './driver.js';
import { ErrorBody } from './response-schemas.js';

const ModelList = z.object({ models: z.array(z.object({ name: z.string(), file: z.string() }).strict()), loadedAt: z.iso.datetime() }).strict();
const ModelDocument = z.object({ model: z.string(), file: z.string(), xml: z.string() }).strict();
const SavedModel = z.object({ saved: z.literal(true), model: z.string(), file: z.string(), reloadedAt: z.iso.datetime() }).strict();
const Evaluation = z.object({ model: z.string(), results: z.record(z.string(), z.unknown()), correlationId: z.string() }).strict();

const EMPLOYEE = { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_A' };
const RULE_1_TTL = '<outputEntry id="WifiEntitlementRule1TtlSeconds"><text>14400</text></outputEntry>';

async function current(d: Driver): Promise<string> {
  const reply = await d.send({ method: 'GET', path: '/api/dmn/models/WifiEntitlement', token: d.tokens.operator });
  return ModelDocument.parse(reply.body).xml;
}

const put = (d: Driver, xml: string) =>
  d.send({
    method: 'PUT',
    path: '/api/dmn/models/WifiEntitlement',
    token: d.tokens.operator,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ xml }),
  });

const evaluate = (d: Driver, body: unknown) =>
  d.send({
    method: 'POST',
    path: '/api/dmn/evaluate/WifiEntitlement',
    token: d.tokens.operator,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Serial: these cases change the one shared model file and put it back. */
export function dmnContract(test: TestFn, driver: () => Promise<Driver>): void {
  test.serial('DMN list and get answer the models folder; an unknown model is 404 MODEL_NOT_FOUND', async (t) => {
    const d = await driver();
    const list = await d.send({ method: 'GET', path: '/api/dmn/models', token: d.tokens.operator });
    t.is(list.status, 200);
    t.true(ModelList.parse(list.body).models.some((m) => m.name === 'WifiEntitlement' && m.file === 'WifiEntitlement.dmn'));
    t.regex(await current(d), /<definitions/);
    const missing = await d.send({ method: 'GET', path: '/api/dmn/models/NoSuchModel', token: d.tokens.operator });
    t.like(missing, { status: 404, body: { code: 'MODEL_NOT_FOUND' } });
    t.true(ErrorBody.safeParse(missing.body).success);
  });

  test.serial('evaluate runs the engine in the module; a missing declared input is 422, no inputs 400', async (t) => {
    const d = await driver();
    const reply = await evaluate(d, { inputs: EMPLOYEE, decision: 'WifiEntitlement' });
    t.is(reply.status, 200);
    t.like(Evaluation.parse(reply.body).results, { WifiEntitlement: { eligible: true, ttlSeconds: 14400 } });
    t.like(await evaluate(d, { inputs: { userType: 'EMPLOYEE' }, decision: 'WifiEntitlement' }), { status: 422, body: { code: 'DMN_EVALUATION_ERROR' } });
    t.like(await evaluate(d, { decision: 'WifiEntitlement' }), { status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  test.serial('PUT of a document that does not compile is 422 and changes nothing', async (t) => {
    const d = await driver();
    const before = await current(d);
    const reply = await put(d, before.replace('<decisionTable', '<decisionTableBroken'));
    t.like(reply, { status: 422, body: { code: 'DMN_EVALUATION_ERROR' } });
    t.is(await current(d), before);
  });

  test.serial('PUT of a valid document replaces the file, reloads, and evaluate sees the change', async (t) => {
    const d = await driver();
    const before = await current(d);
    t.true(before.includes(RULE_1_TTL));
    const reply = await put(d, before.replace(RULE_1_TTL, RULE_1_TTL.replace('14400', '14401')));
    t.is(reply.status, 200);
    t.true(SavedModel.safeParse(reply.body).success);
    const after = await evaluate(d, { inputs: EMPLOYEE, decision: 'WifiEntitlement' });
    t.like((after.body as { results: unknown }).results, { WifiEntitlement: { ttlSeconds: 14401 } });
    t.is((await put(d, before)).status, 200);
  });

  test.serial('an output entry that would loop for minutes answers 422 DMN_EVALUATION_ERROR within the evaluation bound', async (t) => {
    const d = await driver();
    const before = await current(d);
    const endless = 'sum(for i in 1..100000 return sum(for j in 1..1000 return i * j))';
    t.is((await put(d, before.replace(RULE_1_TTL, RULE_1_TTL.replace('14400', endless)))).status, 200);
    try {
      const reply = await evaluate(d, { inputs: EMPLOYEE, decision: 'WifiEntitlement' });
      t.like(reply, { status: 422, body: { code: 'DMN_EVALUATION_ERROR' } });
      t.regex(String((reply.body as { message: string }).message), /longer than its limit|more than \d+ items/);
    } finally {
      t.is((await put(d, before)).status, 200);
    }
  });

  test.serial('when the decision service cannot reload, the old bytes go back and the error says why', async (t) => {
    const d = await driver();
    const before = await current(d);
    await d.setDecisionUrl(d.deadOrigin);
    try {
      const reply = await put(d, before.replace(RULE_1_TTL, RULE_1_TTL.replace('14400', '14402')));
      t.like(reply, { status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } });
      t.regex(String((reply.body as { message: string }).message), /Reload failed \(the decision service is unreachable\)/);
      t.is(await current(d), before);
    } finally {
      await d.setDecisionUrl(d.decisionUrl);
    }
  });
}
