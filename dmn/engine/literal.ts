/**
 * Recognises the FEEL literals most cells are made of, so they compile to plain JavaScript
 * instead of a feelin call (DESIGN "DMN facts": feelin re-parses on every call). Anything not
 * recognised here with certainty goes to feelin, so this file may be incomplete but not wrong.
 */
export type Literal = string | number | boolean | null;

export const NOT_LITERAL = Symbol('not a literal');

// FEEL numeric literals carry no exponent; a leading minus is part of the literal only when
// written without a space (`- 3` is the unary test "any value minus 3").
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
// Strings with escapes are left to feelin rather than re-implementing FEEL's escape rules.
const SIMPLE_STRING = /^"([^"\\]*)"$/;

export function parseLiteral(text: string): Literal | typeof NOT_LITERAL {
  const trimmed = text.trim();
  if (trimmed === 'null') return null;
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (NUMBER.test(trimmed)) return Number(trimmed);
  const string = SIMPLE_STRING.exec(trimmed);
  return string ? (string[1] ?? '') : NOT_LITERAL;
}

/**
 * Splits on commas that are not inside a string literal or brackets; `null` when quotes or
 * brackets do not balance (the text is then left to feelin).
 */
export function splitTopLevel(text: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (inString || depth !== 0) return null;
  parts.push(text.slice(start));
  return parts;
}

/** A comma list made only of literals (`"A","B",null`), or `null` when it is anything else. */
export function parseLiteralList(text: string): Literal[] | null {
  const parts = splitTopLevel(text);
  const literals: Literal[] = [];
  for (const part of parts ?? []) {
    const literal = parseLiteral(part);
    if (literal === NOT_LITERAL) return null;
    literals.push(literal);
  }
  return parts === null ? null : literals;
}
