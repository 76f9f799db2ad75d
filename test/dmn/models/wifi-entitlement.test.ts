import { readFile } from 'node:fs/promises';
import test from 'ava';
import { evaluate, loadModel, type CompiledModel } from '../../../dmn/engine/index.js';
import { LOYALTY_TIER_ROWS, WIFI_ENTITLEMENT_RULES } from './wifi-entitlement-cases.js';

async function wifiEntitlement(): Promise<CompiledModel> {
  const outcome = await loadModel(await readFile('dmn/models/WifiEntitlement.dmn', 'utf8'));
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return outcome.value;
}

test('the model holds the five-rule decision and the loyalty mapping over the spec 2.8 inputs', async (t) => {
  const model = await wifiEntitlement();
  t.is(model.name, 'WifiEntitlement');
  t.deepEqual(model.decisions, ['WifiEntitlement', 'LoyaltyTier', 'Entitlement']);
  t.deepEqual(model.inputs, ['userType', 'employeeVerified', 'company', 'memberTier', 'wifiBenefit']);
});

test('the five-rule decision does not read the member tier (spec 4.6)', async (t) => {
  const model = await wifiEntitlement();
  t.deepEqual(
    model.byDecision.get('WifiEntitlement')?.inputs.map((i) => i.name),
    ['userType', 'employeeVerified', 'company'],
  );
});

for (const row of [...WIFI_ENTITLEMENT_RULES, ...LOYALTY_TIER_ROWS]) {
  test(`in process, ${row.decision} ${row.title}`, async (t) => {
    t.deepEqual(evaluate(await wifiEntitlement(), row.inputs, row.decision), { ok: true, results: { [row.decision]: row.outputs } });
  });
}
