import { readFileSync } from 'node:fs';

/** One arrival of captures/<controller>.json, as a query (the first one in that state). */
export function capturedQuery(controller: string, state: string): Record<string, string> {
  const file = JSON.parse(readFileSync(new URL(`./captures/${controller}.json`, import.meta.url), 'utf8')) as { captures: { state: string; url: string }[] };
  const capture = file.captures.find((c) => c.state === state);
  if (capture === undefined) throw new Error(`captures/${controller}.json has no ${state} arrival`);
  return Object.fromEntries(new URL(capture.url).searchParams);
}
