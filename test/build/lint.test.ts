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

const biome = (command: 'lint' | 'check', cwd: string, args: string[]) =>
  spawnSync(process.execPath, [BIOME, command, '--error-on-warnings', '--colors=off', '--reporter=github', ...args], { cwd, encoding: 'utf8' });

/** The rules biome.jsonc finds broken in each file, linted in a folder of the test's own with the same configuration. */
function rulesBroken(files: Record<string, string>, command: 'lint' | 'check' = 'lint'): Record<string, string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'lint-'));
  try {
    // Outside a git checkout: the configuration minus its .gitignore lookup.
    writeFileSync(
      join(folder, 'biome.jsonc'),
      readFileSync(join(ROOT, 'biome.jsonc'), 'utf8')
        .replace('"vcs": { "enabled": true', '"vcs": { "enabled": false')
        .replace(/"\$schema": "[^"]*",/, ''),
    );
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), source);
    }
    const found: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((path) => [path, []]));
    for (const [, rule, path] of biome(command, folder, ['.']).stdout.matchAll(/title=(?:lint\/[a-z]+\/)?([A-Za-z]+),file=([^,]+),/g)) {
      const relativePath = (path ?? '').slice(folder.length + 1);
      // Only the files given: the configuration copied in is no file under test.
      if (!(relativePath in files)) continue;
      found[relativePath] = [...new Set([...(found[relativePath] ?? []), rule ?? ''])].sort();
    }
    return found;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('the tree passes the linter and is formatted as biome.jsonc says (npm run format writes it)', (t) => {
  const run = biome('check', ROOT, ['--max-diagnostics=20']);
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

test("a file written off the formatter's shape is named; the mutation list keeps one entry a line", (t) => {
  const misshapen = 'export const f = ( x: number ) => {return x+1}\n';
  const shaped = 'export const f = (x: number) => {\n  return x + 1;\n};\n';
  const long = `export const MUTATIONS = [${"{ rule: 'a', to: 'b' }, ".repeat(12)}];\n`;
  t.deepEqual(rulesBroken({ 'services/portal/a.ts': misshapen, 'services/portal/b.ts': shaped, 'scripts/mutations.ts': long }, 'check'), {
    'scripts/mutations.ts': [],
    'services/portal/a.ts': ['format'],
    'services/portal/b.ts': [],
  });
});

test('a product function over 80 lines is named unless a biome-ignore says why; tests may hold a scenario in one function', (t) => {
  const long = `export function f(): number {\n  let x = 0;\n${'  x += 1;\n'.repeat(85)}  return x;\n}\n`;
  const reasoned = `// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a table read as one\n${long}`;
  t.deepEqual(rulesBroken({ 'services/session/long.ts': long, 'services/session/reasoned.ts': reasoned, 'test/services/long.test.ts': long }), {
    'services/session/long.ts': ['noExcessiveLinesPerFunction'],
    'services/session/reasoned.ts': [],
    'test/services/long.test.ts': [],
  });
});
