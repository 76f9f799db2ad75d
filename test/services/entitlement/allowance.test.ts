import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { decisionService as bootDecision, MODEL_FILE, modelDirectory } from '../decision/decision-service.js';
import { bootEntitlement, customerClaims, employeeClaims, loyaltyStub, sharedPeers } from './harness.js';

// Each package's allowance comes from the decision table and travels in the entitlement's
// permission; an allowance the entitlement cannot read refuses the grant instead of lifting the limit.
const shared = sharedPeers(test);
const MB = 2 ** 20;

async function setup(t: ExecutionContext, decisionUrl = shared.decision.url) {
  const loyalty = await loyaltyStub(t);
  return bootEntitlement(t, shared.db, { IDP_JWKS_URL: shared.keys.url, DECISION_URL: decisionUrl, LOYALTY_URL: loyalty.url });
}

/** The entitlement service over a decision service serving the shipped model with `edit` applied. */
async function withEditedModel(t: ExecutionContext, edit: (xml: string) => string) {
  const dir = await modelDirectory(t, false);
  const xml = await readFile(MODEL_FILE, 'utf8');
  const edited = edit(xml);
  t.not(edited, xml, 'the edit applies to the shipped model');
  await writeFile(join(dir, 'WifiEntitlement.dmn'), edited);
  const decision = await bootDecision(t, dir);
  return setup(t, decision.url);
}

const BASELINE_DATA_CELL = '<outputEntry id="EntitlementCustomerBaselineDataAllowanceMb"><text>1024</text></outputEntry>';
const BASELINE_PERIOD_CELL = '<outputEntry id="EntitlementCustomerBaselineAllowancePeriod"><text>"DAY"</text></outputEntry>';
const DATA_OUTPUT = '<output id="EntitlementDataAllowanceMb" name="dataAllowanceMb" typeRef="number" />';
const BASELINE_TIME_CELL = '<outputEntry id="EntitlementCustomerBaselineTimeAllowanceMinutes"><text>120</text></outputEntry>';
const TIME_OUTPUT = '<output id="EntitlementTimeAllowanceMinutes" name="timeAllowanceMinutes" typeRef="number" />';
const PERIOD_VALUES = '<outputValues><text>"DAY","WEEK","MONTH"</text></outputValues>';
const cell = (text: string) => BASELINE_DATA_CELL.replace('<text>1024</text>', `<text>${text}</text>`);

const storedFor = async (subjectId: string) => shared.db.query('SELECT count(*)::int AS n FROM entitlements WHERE subject_id = $1', [subjectId]);

test("the customer baseline carries the table's daily allowance: 1 GB and 2 hours a day", async (t) => {
  const service = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(customerClaims()));
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { permission: { allowance: { dataBytes: 1024 * MB, timeSeconds: 120 * 60, period: 'DAY' } } });
});

test('a GOLD member gets the boosted allowance, an employee 20 GB a week with no time limit', async (t) => {
  const service = await setup(t);
  const gold = await service.evaluate(await shared.keys.token(customerClaims('gold@demo.example')));
  t.like(gold.body, { entitlementType: 'WIFI_CUSTOMER_PLUS', permission: { allowance: { dataBytes: 5120 * MB, timeSeconds: 480 * 60, period: 'DAY' } } });
  const silver = await service.evaluate(await shared.keys.token(customerClaims('silver@demo.example')));
  t.like(silver.body, { permission: { allowance: { dataBytes: 2048 * MB, timeSeconds: 240 * 60, period: 'DAY' } } });
  const employee = await service.evaluate(await shared.keys.token(employeeClaims('MEMBER_A')));
  t.deepEqual((employee.body['permission'] as Record<string, unknown>)['allowance'], { dataBytes: 20480 * MB, timeSeconds: null, period: 'WEEK' });
});

test('an edited table without allowance values grants without a limit', async (t) => {
  const service = await withEditedModel(t, (xml) =>
    xml
      .replace(BASELINE_DATA_CELL, cell('null'))
      .replace(
        '<outputEntry id="EntitlementCustomerBaselineTimeAllowanceMinutes"><text>120</text></outputEntry>',
        '<outputEntry id="EntitlementCustomerBaselineTimeAllowanceMinutes"><text>null</text></outputEntry>',
      ),
  );
  const reply = await service.evaluate(await shared.keys.token(customerClaims()));
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { permission: { allowance: null } });
});

test('a limit without a period is a daily one', async (t) => {
  const service = await withEditedModel(t, (xml) => xml.replace(BASELINE_PERIOD_CELL, BASELINE_PERIOD_CELL.replace('"DAY"', 'null')));
  const reply = await service.evaluate(await shared.keys.token(customerClaims()));
  t.like(reply.body, { permission: { allowance: { dataBytes: 1024 * MB, period: 'DAY' } } });
});

for (const [what, edit] of [
  [
    'a data allowance given as text',
    (xml: string) => xml.replace(DATA_OUTPUT, DATA_OUTPUT.replace(' typeRef="number"', '')).replace(BASELINE_DATA_CELL, cell('"1024"')),
  ],
  ['a negative data allowance', (xml: string) => xml.replace(BASELINE_DATA_CELL, cell('-5'))],
  [
    'a time allowance given as a boolean',
    (xml: string) =>
      xml.replace(TIME_OUTPUT, TIME_OUTPUT.replace(' typeRef="number"', '')).replace(BASELINE_TIME_CELL, BASELINE_TIME_CELL.replace('120', 'true')),
  ],
  // The output's value list would refuse the model at load: an operator who removed it as well.
  ['an unknown period', (xml: string) => xml.replace(PERIOD_VALUES, '').replace(BASELINE_PERIOD_CELL, BASELINE_PERIOD_CELL.replace('"DAY"', '"YEAR"'))],
] as const) {
  test(`${what} in an edited table is 422 DMN_EVALUATION_ERROR, never a grant; nothing stored`, async (t) => {
    const service = await withEditedModel(t, edit);
    const claims = customerClaims();
    assertError(t, await service.evaluate(await shared.keys.token(claims)), 422, 'DMN_EVALUATION_ERROR');
    t.deepEqual(await storedFor(claims.sub), [{ n: 0 }]);
  });
}
