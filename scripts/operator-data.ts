// What `make up` serves and a test run must leave alone: Keycloak's data under
// .run/keycloak and the services' embedded databases under .data. A fingerprint lists every file
// with its size and modification time; the test run compares one taken before with one after.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** `<path> <size> <mtime>` per file of the operator's data, sorted. */
export function operatorDataFingerprint(root: string): string[] {
  const keycloak = join(root, '.run', 'keycloak');
  const homes = existsSync(keycloak)
    ? readdirSync(keycloak)
        .filter((name) => name.startsWith('keycloak-'))
        .map((name) => join(keycloak, name, 'data'))
    : [];
  return [...homes, join(root, '.data')]
    .flatMap(filesUnder)
    .map((file) => {
      const stat = statSync(file);
      return `${relative(root, file)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

/** The entries that differ between two fingerprints. */
export const changedEntries = (before: string[], after: string[]): string[] => [
  ...before.filter((entry) => !after.includes(entry)).map((entry) => `- ${entry}`),
  ...after.filter((entry) => !before.includes(entry)).map((entry) => `+ ${entry}`),
];
