import test from 'ava';
import { readFile } from 'node:fs/promises';
import { evaluate, loadModel } from '../../../dmn/engine/index.js';

// The top decision `Entitlement` of the shipped model combines the five rules (spec 4.5) with
// the loyalty mapping (spec 4.6): the loyalty package only replaces the customer baseline.
const model = (async () => {
  const loaded = await loadModel(await readFile('dmn/models/WifiEntitlement.dmn', 'utf8'));
  if (!loaded.ok) throw new Error('the shipped model does not load');
  return loaded.value;
})();

const none = { memberTier: null, wifiBenefit: null };
const customer = { userType: 'CUSTOMER', employeeVerified: false, company: null };
const employee = (company: string) => ({ userType: 'EMPLOYEE', employeeVerified: true, company });

const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    'a GOLD customer with the benefit gets the plus package, boosted, 2 devices, 2 h',
    { ...customer, memberTier: 'GOLD', wifiBenefit: true },
    {
      entitlementType: 'WIFI_CUSTOMER_PLUS',
      tier: 'BOOST',
      qosClass: 'HIGH',
      deviceSlots: 2,
      sourceType: 'LOYALTY_TIER',
      ttlSeconds: 7200,
      dataAllowanceMb: 5120,
      timeAllowanceMinutes: 480,
      allowancePeriod: 'DAY',
    },
  ],
  [
    'a GOLD customer without the benefit gets the baseline',
    { ...customer, memberTier: 'GOLD', wifiBenefit: false },
    {
      entitlementType: 'WIFI_CUSTOMER_BASIC',
      deviceSlots: 1,
      sourceType: 'IDP_ID_LOGIN',
      dataAllowanceMb: 1024,
      timeAllowanceMinutes: 120,
      allowancePeriod: 'DAY',
    },
  ],
  [
    'a SILVER customer gets the plus package at the basic tier, 2 devices, 1 h',
    { ...customer, memberTier: 'SILVER', wifiBenefit: false },
    {
      entitlementType: 'WIFI_CUSTOMER_PLUS',
      tier: 'BASIC',
      deviceSlots: 2,
      sourceType: 'LOYALTY_TIER',
      ttlSeconds: 3600,
      dataAllowanceMb: 2048,
      timeAllowanceMinutes: 240,
      allowancePeriod: 'DAY',
    },
  ],
  ['a customer with no tier (lookup failed) gets the baseline', { ...customer, ...none }, { entitlementType: 'WIFI_CUSTOMER_BASIC', ttlSeconds: 3600 }],
  [
    'a voucher (no loyalty is looked up for it) gets the voucher row: the baseline with its allowance',
    { userType: 'VOUCHER', employeeVerified: null, company: null, ...none },
    { entitlementType: 'WIFI_CUSTOMER_BASIC', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', ttlSeconds: 3600, dataAllowanceMb: 1024, timeAllowanceMinutes: 120 },
  ],
  [
    'a freshly registered account (empty userType) gets the baseline',
    { userType: '', employeeVerified: null, company: null, ...none },
    { entitlementType: 'WIFI_CUSTOMER_BASIC' },
  ],
  [
    'an employee keeps the employee package whatever a tier says',
    { ...employee('MEMBER_A'), memberTier: 'GOLD', wifiBenefit: true },
    {
      entitlementType: 'WIFI_EMPLOYEE_PACKAGE',
      sourceType: 'EMPLOYEE_VERIFICATION',
      ttlSeconds: 14400,
      dataAllowanceMb: 20480,
      timeAllowanceMinutes: null,
      allowancePeriod: 'WEEK',
    },
  ],
  [
    'PARTNER-X is denied COMPANY_NOT_ELIGIBLE, loyalty or not',
    { ...employee('PARTNER-X'), memberTier: 'GOLD', wifiBenefit: true },
    { eligible: false, reason: 'COMPANY_NOT_ELIGIBLE', dataAllowanceMb: null, timeAllowanceMinutes: null, allowancePeriod: null },
  ],
  [
    'an unknown user type is denied UNKNOWN_USER_TYPE even as a GOLD member',
    { userType: 'ROBOT', employeeVerified: false, company: null, memberTier: 'GOLD', wifiBenefit: true },
    { eligible: false, reason: 'UNKNOWN_USER_TYPE' },
  ],
];

for (const [title, inputs, expected] of CASES) {
  test(title, async (t) => {
    const outcome = evaluate(await model, { wifiEligible: null, ...inputs }, 'Entitlement');
    t.true(outcome.ok);
    if (outcome.ok) t.like(outcome.results['Entitlement'] as object, expected);
  });
}
