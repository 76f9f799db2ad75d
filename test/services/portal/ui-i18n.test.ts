import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };

const UI = 'services/portal/ui';
const catalogues: Record<string, Record<string, string>> = { en, vi };

/** Keys the UI names: template placeholders and data-i18n attributes, and string literals of the browser code. */
function keysInTemplate(): Set<string> {
  const html = readFileSync(join(UI, 'index.html'), 'utf8');
  const keys = new Set<string>();
  for (const m of html.matchAll(/\{\{([^}:]+)\}\}/g)) if (m[1] !== 'lang') keys.add(m[1]!);
  for (const m of html.matchAll(/data-i18n(?:-aria-label)?="([^"]+)"/g)) keys.add(m[1]!);
  return keys;
}

function keysInCode(): Set<string> {
  const prefixes = new Set(Object.keys(en).map((k) => k.split('.')[0]));
  const keys = new Set<string>();
  for (const file of readdirSync(join(UI, 'client'))) {
    const code = readFileSync(join(UI, 'client', file), 'utf8');
    for (const m of code.matchAll(/'([a-zA-Z]+\.[A-Za-z_.]+)'/g)) if (prefixes.has(m[1]!.split('.')[0])) keys.add(m[1]!);
  }
  return keys;
}

test('English and Vietnamese catalogues have the same keys, each with a text', (t) => {
  t.deepEqual(Object.keys(vi).sort(), Object.keys(en).sort());
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const [key, text] of Object.entries(catalogue)) t.true(text.trim().length > 0, `${language} ${key}`);
  }
});

test('every key the page and the browser code use exists in both catalogues', (t) => {
  const used = new Set([...keysInTemplate(), ...keysInCode()]);
  t.true(used.size > 50);
  for (const key of used) for (const [language, catalogue] of Object.entries(catalogues)) t.true(key in catalogue, `${language} lacks ${key}`);
});

test('every catalogue key is used somewhere, so no text is dead', (t) => {
  const used = new Set([...keysInTemplate(), ...keysInCode()]);
  t.deepEqual(
    Object.keys(en).filter((key) => !used.has(key)),
    [],
  );
});

test('texts live in the catalogues only: the page template holds no words outside placeholders', (t) => {
  const html = readFileSync(join(UI, 'index.html'), 'utf8');
  const words = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\{\{[^}]+\}\}/g, ' ')
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w));
  // The language switch names each language in itself, in both languages alike.
  t.deepEqual(words, ['Tiếng', 'Việt', 'English']);
});

test('the sign-in failure text never says whether an account exists, in either language', (t) => {
  t.notRegex(en['error.INVALID_CREDENTIALS'], /exist|unknown|not found|no account|registered/i);
  t.notRegex(vi['error.INVALID_CREDENTIALS'], /tồn tại|không có tài khoản|chưa đăng ký/i);
  t.notRegex(en['error.employeeCredentials'], /exist|unknown|not found/i);
});
