import test from 'ava';
import { authContract } from '../../kc-extension/svc-admin/contract/auth-contract.js';
import { companiesContract } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { dmnContract } from '../../kc-extension/svc-admin/contract/dmn-contract.js';
import { guiContract } from '../../kc-extension/svc-admin/contract/gui-contract.js';
import { importContract } from '../../kc-extension/svc-admin/contract/import-contract.js';
import { webhookContract } from '../../kc-extension/svc-admin/contract/webhook-contract.js';
import { kcDriver } from './kc-driver.js';

// The same contract cases the in-memory host passes (test/kc-extension/svc-admin), against Keycloak.
let shared: ReturnType<typeof kcDriver> | undefined;
const driver = () => (shared ??= kcDriver());
test.after.always(async () => {
  if (shared !== undefined) await (await shared).close();
});

authContract(test, driver);
companiesContract(test, driver);
webhookContract(test, driver);
importContract(test, driver);
dmnContract(test, driver);
guiContract(test, driver);
