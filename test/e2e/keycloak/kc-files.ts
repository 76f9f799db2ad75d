import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where scripts/kc.sh keeps the Keycloak runtime; the privacy test reads its log and data. */
export const KC_LOG = process.env['KC_LOG_FILE'] ?? '.run/keycloak.log';
const KC_RUN_DIR = process.env['KC_RUN_DIR'] ?? '.run/keycloak';

export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path) : Promise.resolve(entry.isFile() ? [path] : []);
    }),
  );
  return nested.flat();
}

/** Keycloak's data folders (H2 database, transaction logs, tmp) of every unpacked distribution. */
export async function keycloakDataFiles(): Promise<string[]> {
  const homes = (await readdir(KC_RUN_DIR)).filter((name) => name.startsWith('keycloak-'));
  const files = await Promise.all(homes.map((home) => filesUnder(join(KC_RUN_DIR, home, 'data'))));
  return files.flat().filter((file) => !file.includes(`${join('data', 'import')}`));
}

/** The latest modification time (ms) among the files. */
export async function latestWrite(files: string[]): Promise<number> {
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return Math.max(0, ...times);
}

export async function filesContaining(files: string[], needle: string): Promise<string[]> {
  const needles = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const hits: string[] = [];
  for (const file of files) {
    const bytes = await readFile(file);
    if (needles.some((needle) => bytes.includes(needle))) hits.push(file);
  }
  return hits;
}
