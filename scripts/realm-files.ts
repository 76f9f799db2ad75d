// The realm `wifi` comes in two files. realm-export.json is what a production Keycloak imports:
// clients, flows, the user profile, and no person (no demo operator, no demo customer, admin-cli
// without direct grants). realm-dev.json adds what development and the tests need: the demo
// accounts and admin-cli's password grant (kcadm.sh, the svc-admin tests). `scripts/kc.sh start`
// (make up, the test run) imports the two merged; a production start imports realm-export.json.
//   node --import tsx scripts/realm-files.ts dev    prints the merged development realm
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
export const PRODUCTION_REALM_FILE = join(ROOT, 'realm-export.json');
export const DEVELOPMENT_REALM_FILE = join(ROOT, 'realm-dev.json');

/** Clients are merged field by field by clientId (the additions may change one setting); users are added. */
export function mergeRealm(realm: Json, additions: Json): Json {
  const clients = [...((realm['clients'] as Json[] | undefined) ?? [])];
  for (const change of (additions['clients'] as Json[] | undefined) ?? []) {
    const at = clients.findIndex((client) => client['clientId'] === change['clientId']);
    if (at === -1) clients.push(change);
    else clients[at] = { ...clients[at], ...change };
  }
  const users = [...((realm['users'] as Json[] | undefined) ?? []), ...((additions['users'] as Json[] | undefined) ?? [])];
  return { ...realm, clients, users };
}

/** The development realm (realm-export.json with realm-dev.json), as JSON text. */
export function developmentRealm(): string {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;
  return `${JSON.stringify(mergeRealm(read(PRODUCTION_REALM_FILE), read(DEVELOPMENT_REALM_FILE)), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== 'dev') {
    process.stderr.write('usage: node --import tsx scripts/realm-files.ts dev\n');
    process.exit(2);
  }
  process.stdout.write(developmentRealm());
}
