import test from 'ava';
import { importCompany, postImport } from './contract/import-contract.js';
import { memoryDriver } from './memory-driver.js';

const SALT_KEY = 'cccd-salt';
const outcomesOf = (reply: { body: unknown }) => (reply.body as { outcomes: { action: string }[] }).outcomes.map((o) => o.action);

// Spec 4.7 rule 2: one per-realm salt. A commit that read "no salt yet" while another request
// created one (the stale view a long commit has, or two first commits at once) must hash with
// the salt that holds, never replace it: a replaced salt leaves every earlier link unmatchable.
test('a commit that saw no salt while another request created one hashes with the salt that holds', async (t) => {
  const d = memoryDriver();
  const company = await importCompany(d);
  t.is((await postImport(d, 'commit', { company, rows: [{ employeeId: 'S-0001', citizenId: '079201000001' }] })).status, 200);
  const salt = d.realm.store.get(SALT_KEY);
  t.truthy(salt);

  // The next read of the salt answers as if it did not exist yet.
  const store = d.realm.store;
  const read = store.get.bind(store);
  let stale = true;
  store.get = (key: string) => {
    if (key === SALT_KEY && stale) {
      stale = false;
      return undefined;
    }
    return read(key);
  };
  t.is((await postImport(d, 'commit', { company, rows: [{ employeeId: 'S-0002', citizenId: '079201000002' }] })).status, 200);

  t.is(store.get(SALT_KEY), salt, 'the salt was not replaced');
  const preview = await postImport(d, 'preview', {
    company,
    rows: [
      { employeeId: 'S-0001', citizenId: '079201000001' },
      { employeeId: 'S-0002', citizenId: '079201000002' },
    ],
  });
  t.deepEqual(outcomesOf(preview), ['LINK_BY_CCCD', 'LINK_BY_CCCD']);
});
