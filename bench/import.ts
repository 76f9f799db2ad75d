// `npm run bench:import`: member-company import of 5000 rows through svc-admin (preview, then
// commit) and Keycloak's own partial import of 5000 equivalent users, in one run against the
// Keycloak at IDP_URL (default http://localhost:8080; start one with scripts/kc.sh start).
// Targets: preview under 5 s; commit at most 1.5 x Keycloak's partial import.
import { randomUUID } from 'node:crypto';
import { machine, writeResult } from './lib/load.js';

const IDP_URL = process.env['IDP_URL'] ?? 'http://localhost:8080';
const ROWS = Number(process.env['BENCH_IMPORT_ROWS'] ?? 5000);

async function token(realm: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(`${IDP_URL}/realms/${realm}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams(form) });
  if (!response.ok) throw new Error(`token ${realm}: ${response.status}`);
  return String(((await response.json()) as Record<string, unknown>)['access_token']);
}

async function timed(label: string, call: () => Promise<Response>): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await call();
  const text = await response.text();
  const ms = Math.round(performance.now() - started);
  if (!response.ok) throw new Error(`${label}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, body: JSON.parse(text) as unknown };
}

const run = randomUUID().slice(0, 6);
const rows = (tag: string) =>
  Array.from({ length: ROWS }, (_, i) => ({
    employeeId: `B${tag}-${i}`,
    citizenId: String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000)),
    email: `bench-${tag}-${i}@example.com`,
    fullName: `Bench ${i}`,
  }));

// The demo operator holds the realm role svc-admin (the portal's service account does not: managing users is not operating svc-admin).
const operator = await token('wifi', {
  grant_type: 'password',
  client_id: 'admin-cli',
  username: 'svc-operator',
  password: process.env['SVC_OPERATOR_PASSWORD'] ?? 'operator-demo-pass',
});
const master = await token('master', {
  grant_type: 'password',
  client_id: 'admin-cli',
  username: process.env['KC_BOOTSTRAP_ADMIN_USERNAME'] ?? 'admin',
  password: process.env['KC_BOOTSTRAP_ADMIN_PASSWORD'] ?? 'admin',
});
const company = `BENCH-${run.toUpperCase()}`;
const json = (bearer: string) => ({ Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' });
await timed('company', () =>
  fetch(`${IDP_URL}/realms/wifi/svc-admin/api/companies/${company}`, { method: 'PUT', headers: json(operator), body: JSON.stringify({ name: 'Benchmark' }) }),
);

const moduleRows = rows(`m${run}`);
const importCall = (mode: string) => () =>
  fetch(`${IDP_URL}/realms/wifi/svc-admin/api/import?mode=${mode}`, {
    method: 'POST',
    headers: json(operator),
    body: JSON.stringify({ company, rows: moduleRows }),
  });
const preview = await timed('preview', importCall('preview'));
console.log(`preview of ${ROWS} rows: ${preview.ms} ms`);
const commit = await timed('commit', importCall('commit'));
console.log(`commit of ${ROWS} rows: ${commit.ms} ms`);

// The same users as Keycloak's partial import would take them: same attributes, a stand-in hash.
const importedAt = new Date().toISOString();
const users = rows(`k${run}`).map((row) => ({
  username: `emp-${row.employeeId.toLowerCase()}`,
  email: row.email,
  enabled: true,
  attributes: { user_type: ['EMPLOYEE'], employee_ref: [row.employeeId], company: [company], imported_at: [importedAt], cccd_link: [randomUUID()] },
}));
const partial = await timed('partialImport', () =>
  fetch(`${IDP_URL}/admin/realms/wifi/partialImport`, { method: 'POST', headers: json(master), body: JSON.stringify({ ifResourceExists: 'FAIL', users }) }),
);

const counts = (body: unknown) => (body as { counts: Record<string, number> }).counts;
const result = {
  benchmark: 'import',
  at: new Date().toISOString(),
  machine: machine(),
  method: `one run against ${IDP_URL}: ${ROWS} new rows through POST /api/import preview then commit, then ${ROWS} other equivalent users through POST /admin/realms/wifi/partialImport`,
  rows: ROWS,
  previewMs: preview.ms,
  commitMs: commit.ms,
  partialImportMs: partial.ms,
  commitToPartialImport: Math.round((commit.ms / partial.ms) * 100) / 100,
  previewCounts: counts(preview.body),
  commitCounts: counts(commit.body),
  targets: { previewUnder5s: preview.ms < 5000, commitAtMost1_5xPartialImport: commit.ms <= 1.5 * partial.ms },
};
console.log(JSON.stringify(result, null, 2));
console.log(`written ${writeResult('import', result)}`);
