import test from 'ava';
import { authContract } from './contract/auth-contract.js';
import { companiesContract } from './contract/companies-contract.js';
import { dmnContract } from './contract/dmn-contract.js';
import { guiContract } from './contract/gui-contract.js';
import { importContract } from './contract/import-contract.js';
import { vouchersContract } from './contract/vouchers-contract.js';
import { webhookContract } from './contract/webhook-contract.js';
import { memoryDriver } from './memory-driver.js';

// The contract cases, against the in-memory host (test/e2e/svc-admin runs them against Keycloak).
const driver = async () => memoryDriver();
authContract(test, driver);
companiesContract(test, driver);
webhookContract(test, driver);
importContract(test, driver);
dmnContract(test, driver);
guiContract(test, driver);
vouchersContract(test, driver);
