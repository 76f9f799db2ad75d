/**
 * The rows of spec 4.5 (WifiEntitlement, five rules, and the voucher row before the last) and spec 4.6 (LoyaltyTier), as inputs and
 * the outputs of spec 2.8 each must produce. Shared by the engine and the HTTP tests.
 */
export interface RowCase {
  readonly title: string;
  readonly decision: 'WifiEntitlement' | 'LoyaltyTier';
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<Record<string, unknown>>;
}

const denied = (reason: string) => ({
  eligible: false,
  entitlementType: null,
  tier: null,
  qosClass: null,
  deviceSlots: null,
  sourceType: null,
  ttlSeconds: null,
  reason,
});

const EMPLOYEE_PACKAGE = {
  eligible: true,
  entitlementType: 'WIFI_EMPLOYEE_PACKAGE',
  tier: 'BOOST',
  qosClass: 'HIGH',
  deviceSlots: 2,
  sourceType: 'EMPLOYEE_VERIFICATION',
  ttlSeconds: 14400,
  reason: null,
};

export const CUSTOMER_BASELINE = {
  eligible: true,
  entitlementType: 'WIFI_CUSTOMER_BASIC',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  deviceSlots: 1,
  sourceType: 'IDP_ID_LOGIN',
  ttlSeconds: 3600,
  reason: null,
};

const GOLD = {
  ...CUSTOMER_BASELINE,
  entitlementType: 'WIFI_CUSTOMER_PLUS',
  tier: 'BOOST',
  qosClass: 'HIGH',
  deviceSlots: 2,
  sourceType: 'LOYALTY_TIER',
  ttlSeconds: 7200,
};
const SILVER = { ...CUSTOMER_BASELINE, entitlementType: 'WIFI_CUSTOMER_PLUS', deviceSlots: 2, sourceType: 'LOYALTY_TIER' };

const token = (userType: unknown, employeeVerified: unknown, company: unknown) => ({ userType, employeeVerified, company });
const member = (memberTier: unknown, wifiBenefit: unknown) => ({ memberTier, wifiBenefit });

export const WIFI_ENTITLEMENT_RULES: readonly RowCase[] = [
  {
    title: 'rule 1: a verified employee of MEMBER_A gets the employee package',
    decision: 'WifiEntitlement',
    inputs: token('EMPLOYEE', true, 'MEMBER_A'),
    outputs: EMPLOYEE_PACKAGE,
  },
  {
    title: 'rule 1: a verified employee of MEMBER_C gets the employee package',
    decision: 'WifiEntitlement',
    inputs: token('EMPLOYEE', true, 'MEMBER_C'),
    outputs: EMPLOYEE_PACKAGE,
  },
  {
    title: 'rule 2: a verified employee of another company is denied COMPANY_NOT_ELIGIBLE',
    decision: 'WifiEntitlement',
    inputs: token('EMPLOYEE', true, 'PARTNER-X'),
    outputs: denied('COMPANY_NOT_ELIGIBLE'),
  },
  {
    title: 'rule 3: an unverified employee is denied EMPLOYEE_NOT_VERIFIED',
    decision: 'WifiEntitlement',
    inputs: token('EMPLOYEE', false, 'MEMBER_A'),
    outputs: denied('EMPLOYEE_NOT_VERIFIED'),
  },
  {
    title: 'rule 3: an employee without the verified claim is denied EMPLOYEE_NOT_VERIFIED',
    decision: 'WifiEntitlement',
    inputs: token('EMPLOYEE', null, null),
    outputs: denied('EMPLOYEE_NOT_VERIFIED'),
  },
  { title: 'rule 4: a customer gets the customer baseline', decision: 'WifiEntitlement', inputs: token('CUSTOMER', false, null), outputs: CUSTOMER_BASELINE },
  {
    title: 'rule 4: an empty user type (fresh self-registration) gets the baseline',
    decision: 'WifiEntitlement',
    inputs: token('', null, null),
    outputs: CUSTOMER_BASELINE,
  },
  { title: 'rule 4: a null user type gets the baseline', decision: 'WifiEntitlement', inputs: token(null, null, null), outputs: CUSTOMER_BASELINE },
  {
    title: 'the voucher row: a VOUCHER gets the customer baseline (the spec rules keep their answers)',
    decision: 'WifiEntitlement',
    inputs: token('VOUCHER', null, null),
    outputs: CUSTOMER_BASELINE,
  },
  {
    title: 'the voucher row: a voucher claiming to be a verified employee still gets only the voucher baseline',
    decision: 'WifiEntitlement',
    inputs: token('VOUCHER', true, 'MEMBER_A'),
    outputs: CUSTOMER_BASELINE,
  },
  {
    title: 'rule 5: the voucher type is case-sensitive and fails closed',
    decision: 'WifiEntitlement',
    inputs: token('voucher', null, null),
    outputs: denied('UNKNOWN_USER_TYPE'),
  },
  {
    title: 'rule 5: any other user type is denied UNKNOWN_USER_TYPE',
    decision: 'WifiEntitlement',
    inputs: token('CONTRACTOR', true, 'MEMBER_A'),
    outputs: denied('UNKNOWN_USER_TYPE'),
  },
  {
    title: 'rule 5: the user type is case-sensitive and fails closed',
    decision: 'WifiEntitlement',
    inputs: token('employee', true, 'MEMBER_A'),
    outputs: denied('UNKNOWN_USER_TYPE'),
  },
];

export const LOYALTY_TIER_ROWS: readonly RowCase[] = [
  { title: 'GOLD with the Wi-Fi benefit gets WIFI_CUSTOMER_PLUS, BOOST, 2 devices, 2 h', decision: 'LoyaltyTier', inputs: member('GOLD', true), outputs: GOLD },
  { title: 'GOLD without the Wi-Fi benefit gets the baseline', decision: 'LoyaltyTier', inputs: member('GOLD', false), outputs: CUSTOMER_BASELINE },
  { title: 'GOLD with an unknown benefit gets the baseline', decision: 'LoyaltyTier', inputs: member('GOLD', null), outputs: CUSTOMER_BASELINE },
  { title: 'SILVER gets WIFI_CUSTOMER_PLUS, BASIC, 2 devices, 1 h', decision: 'LoyaltyTier', inputs: member('SILVER', false), outputs: SILVER },
  { title: 'NONE gets the baseline', decision: 'LoyaltyTier', inputs: member('NONE', true), outputs: CUSTOMER_BASELINE },
  { title: 'a failed lookup (no tier) gets the baseline', decision: 'LoyaltyTier', inputs: member(null, null), outputs: CUSTOMER_BASELINE },
];
