import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The documents a newcomer reads first stay findable: every decision record is in the index with
// its shape, and every service says in a README what it owns.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DECISIONS = join(ROOT, 'docs/decisions');

/** What is wrong with the decision records and their index, one line each. */
function decisionProblems(folder: string): string[] {
  const index = readFileSync(join(folder, 'README.md'), 'utf8');
  const records = readdirSync(folder).filter((name) => name !== 'README.md');
  return records.flatMap((name) => {
    const match = /^(\d{4})-[a-z0-9-]+\.md$/.exec(name);
    if (match === null) return [`${name}: not named NNNN-short-title.md`];
    const text = readFileSync(join(folder, name), 'utf8');
    return [
      ...(new RegExp(`^# ${match[1]}\\. \\S`).test(text) ? [] : [`${name}: no title line "# ${match[1]}. Title"`]),
      ...(/^Area: [^\n]+\. Status: (accepted|superseded by \d{4})\.$/m.test(text) ? [] : [`${name}: no "Area: .... Status: ..." line`]),
      ...(/^## Decision$/m.test(text) ? [] : [`${name}: no "## Decision" section`]),
      ...(index.includes(`](${name})`) ? [] : [`${name}: not in the index (docs/decisions/README.md)`]),
    ];
  });
}

test('every decision record has its number, title, area, status and decision, and is in the index', (t) => {
  const problems = decisionProblems(DECISIONS);
  t.deepEqual(problems, [], problems.join('\n'));
  t.true(readdirSync(DECISIONS).length > 60);
});

test('numbers are not taken twice, and the index links no record that is gone', (t) => {
  const records = readdirSync(DECISIONS).filter((name) => name !== 'README.md');
  const numbers = records.map((name) => name.slice(0, 4));
  t.deepEqual(
    numbers.filter((number, at) => numbers.indexOf(number) !== at),
    [],
  );
  const linked = [...readFileSync(join(DECISIONS, 'README.md'), 'utf8').matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1] ?? '');
  t.deepEqual(
    linked.filter((name) => !records.includes(name)),
    [],
  );
});

/** The index's rows by number, as written: a merge of two branches that both added rows can write one twice. */
function indexProblems(index: string): string[] {
  const rows = [...index.matchAll(/^\| (\d{4}) \|/gm)].map((m) => m[1] ?? '');
  return [
    ...rows.filter((number, at) => rows.indexOf(number) !== at).map((number) => `${number}: indexed more than once`),
    ...rows.filter((number, at) => at > 0 && number < (rows[at - 1] ?? '')).map((number) => `${number}: out of number order`),
  ];
}

test('the index lists each record once, in number order', (t) => {
  const problems = indexProblems(readFileSync(join(DECISIONS, 'README.md'), 'utf8'));
  t.deepEqual(problems, [], problems.join('\n'));
  t.deepEqual(indexProblems('| 0002 | a |\n| 0001 | b |\n| 0001 | b |\n'), ['0001: indexed more than once', '0001: out of number order']);
});

test('every service says in a README what it owns', (t) => {
  const services = readdirSync(join(ROOT, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  t.deepEqual(
    services.map((entry) => entry.name).filter((name) => !existsSync(join(ROOT, 'services', name, 'README.md'))),
    [],
  );
});
