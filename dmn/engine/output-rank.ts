import type { Rank } from './hit-policy.js';
import { parseLiteralList, type Literal } from './literal.js';

/**
 * DMN 1.3 section 8.2.11: PRIORITY and OUTPUT ORDER rank a hit by the position of its outputs in
 * their output value lists, first output first; a value not in its list ranks last. `null` when
 * no output has a list of literals to rank by.
 */
export function rankFor(outputs: readonly { readonly name: string; readonly allowedValues: string | null }[]): Rank | null {
  const ranked = outputs.flatMap((o) => {
    const list = o.allowedValues === null ? null : parseLiteralList(o.allowedValues);
    return list === null ? [] : [{ name: o.name, list }];
  });
  if (ranked.length === 0) return null;
  const single = outputs.length === 1;
  return (value) =>
    ranked.map(({ name, list }) => {
      const i = list.indexOf((single ? value : (value as Record<string, unknown>)[name]) as Literal);
      return i === -1 ? list.length : i;
    });
}
