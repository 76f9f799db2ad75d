import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Biome's linter with the repository's biome.jsonc: the tree is clean, and the rules that keep
// product code strict (no `any`, no `!`, type-only imports) refuse a file that breaks them.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

const lint = (cwd: string, args: string[]) => spawnSync(process.execPath, [BIOME, 'lint', '--colors=off', '--reporter=github', ...args], { cwd, encoding: 'utf8' });

/** The rules biome.jsonc finds broken in each file, linted in a folder of the test's own with the same configuration. */
function rulesBroken(files: Record<string, string>): Record<string, string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'lint-'));
  try {
    // Outside a git checkout: the configuration minus its .gitignore lookup.
    writeFileSync(join(folder, 'biome.jsonc'), readFileSync(join(ROOT, 'biome.jsonc'), 'utf8').replace('"vcs": { "enabled": true', '"vcs": { "enabled": false').replace(/"\$schema": "[^"]*",/, ''));
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), source);
    }
    const found: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((path) => [path, []]));
    for (const [, rule, path] of lint(folder, ['.']).stdout.matchAll(/title=lint\/[a-z]+\/([A-Za-z]+),file=([^,]+),/g)) {
      const relativePath = (path ?? '').slice(folder.length + 1);
      found[relativePath] = [...new Set([...(found[relativePath] ?? []), rule ?? ''])].sort();
    }
    return found;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('the tree passes the linter', (t) => {
  const run = lint(ROOT, ['--max-diagnostics=20']);
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
});

test('product code refuses any, non-null assertions and value imports used only as types; tests may assert', (t) => {
  const source = "import { Logger } from 'pino';\nexport const f = (x: any, l: Logger) => [x, l, [1][0]!];\n";
  t.deepEqual(rulesBroken({ 'services/portal/example.ts': source, 'contract/example.ts': source, 'test/services/example.test.ts': source }), {
    'contract/example.ts': ['noExplicitAny', 'noNonNullAssertion', 'useImportType'],
    'services/portal/example.ts': ['noExplicitAny', 'noNonNullAssertion', 'useImportType'],
    'test/services/example.test.ts': ['noExplicitAny', 'useImportType'],
  });
});
