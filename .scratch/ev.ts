import { readFileSync } from 'node:fs';
import { loadModel, evaluate } from '../dmn/engine/index.js';
const m = await loadModel(readFileSync('dmn/models/WifiEntitlement.dmn', 'utf8'));
if (!m.ok) { console.log(JSON.stringify(m)); process.exit(1); }
const cases = [
  { userType: 'CUSTOMER', employeeVerified: false, company: null, memberTier: 'GOLD', wifiBenefit: true, wifiEligible: null },
  { userType: 'CUSTOMER', employeeVerified: false, company: null, memberTier: 'GOLD', wifiBenefit: false },
  { userType: 'CUSTOMER', employeeVerified: false, company: null, memberTier: 'SILVER', wifiBenefit: false },
  { userType: '', employeeVerified: null, company: null, memberTier: null, wifiBenefit: null },
  { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_A', memberTier: null, wifiBenefit: null },
  { userType: 'EMPLOYEE', employeeVerified: true, company: 'PARTNER-X', memberTier: null, wifiBenefit: null },
  { userType: 'ROBOT', employeeVerified: true, company: 'PARTNER-X', memberTier: 'GOLD', wifiBenefit: true },
];
for (const c of cases) console.log(JSON.stringify(evaluate(m.value, c, 'Entitlement')));
