/**
 * `matches` and `replace` (DMN 1.3 section 10.3.4.3) follow XQuery 1.0 and XPath 2.0 Functions
 * and Operators section 7.6: regular expressions of XML Schema with the flags `s`, `m`, `i` and
 * `x`, and a replacement where `$n` names a group and `\$`, `\\` escape. An invalid pattern,
 * flag or replacement, or a pattern matching the empty string in `replace`, is an error: null.
 */

// XPath 7.6.1: `x` removes whitespace from the pattern except inside a character class.
function withoutWhitespace(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === ']') inClass = false;
    if (!inClass && /[\t\n\r ]/.test(c)) continue;
    out += c;
  }
  return out;
}

// XML Schema syntax JavaScript would read differently without failing: class subtraction
// (`[a-z-[aeiou]]`) and the XML name escapes `\i \I \c \C`. Refused (null) rather than
// answered wrongly.
const UNTRANSLATED = /-\[|\\[iIcC]/;

/** A JavaScript RegExp for an XPath pattern and flags; null when either is invalid or untranslated. */
export function xpathRegExp(pattern: string, flags: string | null, global: boolean): RegExp | null {
  const given = flags ?? '';
  if (!/^[smix]*$/.test(given)) return null;
  const source = given.includes('x') ? withoutWhitespace(pattern) : pattern;
  if (UNTRANSLATED.test(source.replace(/\\\\/g, ''))) return null;
  const jsFlags = [...new Set(given.replace('x', ''))].join('') + (global ? 'g' : '');
  // `u` gives `\p{L}` its XML Schema meaning; a pattern JavaScript rejects in that mode
  // (`\-` outside a class, say) is tried once without it.
  for (const extra of ['u', '']) {
    try {
      return new RegExp(source, jsFlags + extra);
    } catch {
      // try the next mode
    }
  }
  return null;
}

/** fn:matches: true when the pattern matches somewhere in the input. */
export function matches(input: string, pattern: string, flags: string | null): boolean | null {
  const regexp = xpathRegExp(pattern, flags, false);
  return regexp === null ? null : regexp.test(input);
}

// XPath 7.6.3: `$n` is group n (the longest number naming a group), `$0` the match; `\$` and
// `\\` are a literal `$` and `\`; any other `$` or `\` makes the replacement invalid.
function expand(replacement: string, groups: readonly (string | undefined)[]): string | null {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i] as string;
    if (c === '\\') {
      const next = replacement[i + 1];
      if (next !== '\\' && next !== '$') return null;
      out += next;
      i++;
    } else if (c === '$') {
      let digits = /^\d+/.exec(replacement.slice(i + 1))?.[0];
      if (digits === undefined) return null;
      while (digits.length > 1 && Number(digits) >= groups.length) digits = digits.slice(0, -1);
      out += Number(digits) < groups.length ? (groups[Number(digits)] ?? '') : '';
      i += digits.length;
    } else {
      out += c;
    }
  }
  return out;
}

/** fn:replace: every non-overlapping match replaced; null for an invalid pattern, flag or replacement. */
export function replace(input: string, pattern: string, replacement: string, flags: string | null): string | null {
  const regexp = xpathRegExp(pattern, flags, true);
  if (regexp === null || regexp.test('')) return null;
  regexp.lastIndex = 0;
  let invalid = false;
  const out = input.replace(regexp, (...args: unknown[]) => {
    const groups = args.slice(
      0,
      args.findIndex((a) => typeof a === 'number'),
    ) as (string | undefined)[];
    const expanded = expand(replacement, groups);
    if (expanded === null) invalid = true;
    return expanded ?? '';
  });
  return invalid ? null : out;
}
