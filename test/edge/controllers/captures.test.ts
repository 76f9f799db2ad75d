import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { PROFILE_IDS } from '../../../edge/controllers/index.js';

// Every capture the contract tests read is recorded from the real program here or taken from a
// public source, never made up: each file says which. A recorded one names the release and the
// recorder script (which exists); a sourced one names a public URL or a repository file at a
// commit. And no controller profile is without its captures.
const FOLDER = new URL('./captures/', import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const files = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .sort();
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(name, FOLDER), 'utf8')) as { controller?: unknown; source?: unknown; captures?: unknown; arrivals?: unknown };

const RECORDED = /^recorded from the real \S+ (?:\d+\.\d+)/;
const RECORDER = /\bscripts\/[\w/-]+\/record-captures\.ts\b/;
const PUBLIC_URL = /\bhttps?:\/\/[^\s"()]+/;
const REPOSITORY_FILE = /\b[\w.-]+\/[\w.-]+ (?:at|\(snapshot) [0-9a-f]{40}\b/;

/** How a capture file's source reads: 'recorded', 'sourced', or why it is neither. */
function sourceKind(source: unknown): 'recorded' | 'sourced' | string {
  if (typeof source !== 'string' || source.trim() === '') return 'names no source';
  if (RECORDED.test(source)) {
    const script = RECORDER.exec(source)?.[0];
    if (script === undefined) return 'recorded, but names no recorder script';
    return existsSync(`${ROOT}${script}`) ? 'recorded' : `recorded by ${script}, which does not exist`;
  }
  return PUBLIC_URL.test(source) || REPOSITORY_FILE.test(source) ? 'sourced' : 'names neither a recording nor a public URL or repository file at a commit';
}

test("every controller profile has its capture file, and every capture file is a profile's", (t) => {
  t.deepEqual(
    files.map((name) => name.replace(/\.json$/, '')),
    [...PROFILE_IDS].sort(),
  );
});

for (const name of files) {
  test(`captures/${name} names its controller and its source (recorded here with release and recorder, or a public URL or repository file)`, (t) => {
    const file = read(name);
    t.is(file.controller, name.replace(/\.json$/, ''));
    t.true(['recorded', 'sourced'].includes(sourceKind(file.source)), `${name}: ${sourceKind(file.source)}`);
    const entries = Array.isArray(file.captures) ? file.captures : Array.isArray(file.arrivals) ? file.arrivals : [];
    t.true(entries.length > 0, 'it holds captures');
  });
}

test('the source rule itself: a release without its recorder, a vague source, or none are refused', (t) => {
  t.is(sourceKind('recorded from the real CoovaChilli 1.9 by scripts/coova/record-captures.ts'), 'recorded');
  t.regex(sourceKind('recorded from the real CoovaChilli 1.9 by hand'), /no recorder/);
  t.regex(sourceKind('recorded from the real CoovaChilli 1.9 by scripts/coova/nothing/record-captures.ts'), /does not exist/);
  t.is(sourceKind('MikroTik manual, https://help.mikrotik.com/docs/x/AQAyBQ'), 'sourced');
  t.is(sourceKind('pfsense/pfsense at 9363ac5b8651a1c7a333180425ce7719070f95f9: src/etc/inc/captiveportal.inc'), 'sourced');
  t.regex(sourceKind('the vendor documentation; values synthetic'), /neither/);
  t.regex(sourceKind(''), /no source/);
  t.regex(sourceKind(undefined), /no source/);
});
