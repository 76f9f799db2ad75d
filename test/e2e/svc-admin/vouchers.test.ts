import test from 'ava';
import { vouchersContract } from '../../kc-extension/svc-admin/contract/vouchers-contract.js';
import { kcDriver } from './kc-driver.js';

// The voucher contract cases the in-memory host passes (test/kc-extension/svc-admin), against
// Keycloak: users made in one transaction, the realm store, the voucher hash key of Java.
let shared: ReturnType<typeof kcDriver> | undefined;
const driver = () => (shared ??= kcDriver());
test.after.always(async () => {
  if (shared !== undefined) await (await shared).close();
});

vouchersContract(test, driver);
