import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTATIONS } from '../../scripts/mutations.js';

// The mutation list (scripts/mutations.ts) is how each rule was seen failing once; when code moves
// or is rewritten its texts must follow, or the rule's test is no longer shown able to fail.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('every mutation still applies: its text stands exactly once in its file, and its test files exist', (t) => {
  const problems = MUTATIONS.flatMap((mutation) => {
    const path = join(ROOT, mutation.file);
    if (!existsSync(path)) return [`${mutation.rule}: no file ${mutation.file}`];
    const found = readFileSync(path, 'utf8').split(mutation.from).length - 1;
    const missing = mutation.tests.filter((file) => !file.includes('*') && !existsSync(join(ROOT, file)));
    return [
      ...(found === 1 ? [] : [`${mutation.rule}: its text stands ${found} times in ${mutation.file}`]),
      ...missing.map((file) => `${mutation.rule}: no test file ${file}`),
    ];
  });
  t.deepEqual(problems, [], problems.join('\n'));
  t.true(MUTATIONS.length > 200);
});

test('rules are named once each, so a run narrowed by a word names what it ran', (t) => {
  const seen = new Map<string, number>();
  for (const { rule } of MUTATIONS) seen.set(rule, (seen.get(rule) ?? 0) + 1);
  const twice = [...seen].filter(([, count]) => count > 1).map(([rule]) => rule);
  t.deepEqual(twice, []);
});
