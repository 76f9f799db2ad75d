import { readFile } from 'node:fs/promises';
import { runInContext, createContext } from 'node:vm';
import test from 'ava';
import { dmnEngineBundle } from '../../../scripts/bundles.js';

// The engine also runs inside Keycloak's GraalJS (DESIGN "Layout"): bundled for a neutral
// platform, it must load and evaluate in a bare context without require, process or Buffer.
test('the engine bundles for a neutral platform and evaluates WifiEntitlement in a bare vm context', async (t) => {
  const code = await dmnEngineBundle('iife');

  const context = createContext({
    xml: await readFile('dmn/models/WifiEntitlement.dmn', 'utf8'),
    inputs: JSON.stringify({ userType: 'CUSTOMER', employeeVerified: null, company: null, memberTier: 'GOLD', wifiBenefit: true }),
  });
  t.is(runInContext('[typeof require, typeof process, typeof Buffer, typeof module].join()', context), 'undefined,undefined,undefined,undefined');
  runInContext(code, context);
  const answer: unknown = await runInContext(
    `DmnEngine.loadModel(xml).then((model) => JSON.stringify(model.ok ? DmnEngine.evaluate(model.value, JSON.parse(inputs)) : model.error))`,
    context,
  );
  t.like(JSON.parse(String(answer)), {
    ok: true,
    results: {
      WifiEntitlement: { eligible: true, entitlementType: 'WIFI_CUSTOMER_BASIC', ttlSeconds: 3600 },
      LoyaltyTier: { eligible: true, entitlementType: 'WIFI_CUSTOMER_PLUS', tier: 'BOOST', ttlSeconds: 7200 },
    },
  });
});

test('the bundled engine evaluates a DMN 1.4 model with a BKM, a context and item definitions in a bare vm context', async (t) => {
  const code = await dmnEngineBundle('iife');
  const context = createContext({
    xml: await readFile('test/dmn/models/service/RoamingFee14.dmn', 'utf8'),
    inputs: JSON.stringify({ devices: 4, tier: 'SILVER' }),
  });
  runInContext(code, context);
  const answer: unknown = await runInContext(
    `DmnEngine.loadModel(xml).then((model) => JSON.stringify(model.ok ? DmnEngine.evaluate(model.value, JSON.parse(inputs)) : model.error))`,
    context,
  );
  t.deepEqual(JSON.parse(String(answer)), { ok: true, results: { Quote: { perDevice: 1.5, total: 6 }, Summary: 'paid' } });
});

test('the bundled engine evaluates DMN 1.5 boxed expressions over IANA-zoned date and times in a bare vm context', async (t) => {
  const code = await dmnEngineBundle('iife');
  const inputs = { arrival: '2024-12-31T23:30:00Z', grace: 'PT10M', sessions: [{ start: '2024-12-29T23:00:00Z', minutes: 90 }] };
  const context = createContext({ xml: await readFile('test/dmn/models/venue/VenueSessions15.dmn', 'utf8'), inputs: JSON.stringify(inputs) });
  runInContext(code, context);
  const answer: unknown = await runInContext(
    `DmnEngine.loadModel(xml).then((model) => JSON.stringify(model.ok ? DmnEngine.evaluate(model.value, JSON.parse(inputs)) : model.error))`,
    context,
  );
  t.like(JSON.parse(String(answer)), { ok: true, results: { Open: 'CLOSED', SessionEnds: ['2024-12-30T00:40:00Z'], AnyOnSunday: true, PolicyYear: '2025' } });
});
