/** A decision result as it leaves the engine: JSON data, nothing FEEL-specific. */
export type DmnValue = null | boolean | number | string | readonly DmnValue[] | { readonly [name: string]: DmnValue };

function isPlainObject(value: object): value is Record<string, unknown> {
  return Object.getPrototypeOf(value) === Object.prototype;
}

// Most results are already JSON (literal outputs); checking costs no allocation, converting does.
function isJson(value: unknown): value is DmnValue {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'boolean' || type === 'number' || type === 'string') return true;
  if (Array.isArray(value)) return value.every(isJson);
  if (type !== 'object' || !isPlainObject(value as object)) return false;
  for (const key in value as Record<string, unknown>) {
    if (!isJson((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Turns a FEEL value into JSON data: temporal values become their ISO text (their `toJSON`),
 * lists and contexts are converted member by member, anything else (ranges, functions) its text.
 */
export function toPlain(value: unknown): DmnValue {
  if (isJson(value)) return value;
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === 'object' && value !== null) {
    if ('toJSON' in value && typeof value.toJSON === 'function') return String(value.toJSON());
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  return String(value);
}
