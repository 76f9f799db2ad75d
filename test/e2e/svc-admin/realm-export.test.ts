import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { IDP_URL, adminToken } from '../keycloak/kc-client.js';
import { kcDriver } from './kc-driver.js';

// spec 4.7 / 2.10: companies are part of the realm (and its export); the secret never appears in clear.
test('a company is in the realm export, its webhook secret only sealed', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const code = uniqueCode('EX');
  const secret = `export-secret-${Math.random().toString(36).slice(2)}`;
  await putCompany(d, code, { name: 'Exported', secret });
  const response = await fetch(`${IDP_URL}/admin/realms/wifi/partial-export?exportClients=false&exportGroupsAndRoles=false`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await adminToken()}` },
  });
  t.is(response.status, 200);
  const text = await response.text();
  const attributes = (JSON.parse(text) as { attributes: Record<string, string> }).attributes;
  const stored = JSON.parse(attributes[`svc-admin.company.${code}`]!) as Record<string, unknown>;
  t.like(stored, { code, name: 'Exported' });
  t.regex(String(stored['sealedSecret']), /^sealed:v1:/);
  t.false(text.includes(secret));
  t.regex(String(attributes['svc-admin.cccd-salt'] ?? 'sealed:v1:'), /^sealed:v1:/);
});
