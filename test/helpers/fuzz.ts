import type { ExecutionContext } from 'ava';
import { declaredMethods, responseProblem, type OpenApiDocument } from './openapi-check.js';
import type { Booted } from './service.js';

/**
 * A schema-driven fuzzer over a service's own OpenAPI document. Requests are generated from
 * the document (valid bodies from the request schemas, then mutated: wrong types, missing and
 * extra fields, nulls, raw garbage, wrong content types, missing or wrong API keys, odd path
 * values), plus undeclared methods on known paths and unknown paths. Every answer must be
 * below 500 and match a status and schema the document declares (405 with Allow, 404 for
 * unknown paths). Seeded, so a failure names the seed and request that reproduce it.
 */

export interface FuzzTarget {
  /** Headers a well-behaved caller sends (an API key); sometimes dropped or spoiled. */
  headers?: Record<string, string>;
  /** Values that name something real, by path parameter name; mixed with random ones. */
  pathValues?: Record<string, string[]>;
  /** Known-good bodies by `METHOD /template`; used as they are or mutated. */
  bodies?: Record<string, unknown[]>;
  /** Path prefixes not to fuzz (state-changing test harness routes); `/admin/` by default. */
  exclude?: string[];
}

export interface FuzzOptions {
  requests?: number;
  seed?: number;
}

type Schema = Record<string, unknown>;
type Random = () => number;

interface Operation {
  method: string;
  template: string;
  requestSchema: Schema | undefined;
  secured: boolean;
}

interface Planned {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const CITIZEN_LIKE = '987650001234';

/** Runs the fuzzer against a booted service and fails the test on the first problems found. */
export async function fuzzService(t: ExecutionContext, booted: Booted, target: FuzzTarget, options: FuzzOptions = {}): Promise<void> {
  const document = await booted.document();
  if (document === undefined) return t.fail('the service serves no OpenAPI document');
  const seed = options.seed ?? 0x5eed;
  const random = mulberry32(seed);
  const operations = operationsOf(document, target.exclude ?? ['/admin/']);
  if (operations.length === 0) return t.fail('no operation to fuzz');
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const total = options.requests ?? 300;
  for (let i = 0; i < total; i += 1) {
    const planned = plan(random, document, operations, target);
    const where = `request ${i} (seed ${seed}): ${planned.method} ${planned.path} ${planned.body?.slice(0, 120) ?? ''}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(booted.url + planned.path, { method: planned.method, headers: planned.headers, body: planned.body, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      // A connection the service dropped is a finding like a 5xx: name the request and the cause.
      problems.push(`${where} -> no answer: ${String((error as Error).cause ?? error)}`);
      continue;
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500) problems.push(`${where} -> ${response.status}: no 5xx allowed (${text.slice(0, 200)})`);
    const problem = responseProblem(document, planned.method, planned.path, response.status, parseJson(text), response.headers.get('allow'));
    if (problem !== undefined) problems.push(`${where}: ${problem}`);
    if (problems.length >= 5) break;
  }
  t.log(
    [...statuses]
      .sort()
      .map(([s, n]) => `${s}x${n}`)
      .join(' '),
  );
  t.deepEqual(problems, [], [...statuses].map(([s, n]) => `${s}x${n}`).join(' '));
  t.true(statuses.size >= 3, `answers spread over several statuses: ${[...statuses.keys()].join(', ')}`);
}

function operationsOf(document: OpenApiDocument, exclude: string[]): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    if (exclude.some((prefix) => template.startsWith(prefix))) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const body = operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined;
      operations.push({
        method: method.toUpperCase(),
        template,
        requestSchema: body?.content?.['application/json']?.schema,
        secured: Array.isArray(operation.security),
      });
    }
  }
  return operations;
}

function plan(random: Random, document: OpenApiDocument, operations: Operation[], target: FuzzTarget): Planned {
  const roll = random();
  const operation = pick(random, operations);
  const path = fillPath(random, operation.template, target.pathValues ?? {});
  if (roll < 0.12) {
    const allowed = declaredMethods(document, operation.template);
    const method = pick(
      random,
      OTHER_METHODS.filter((m) => !allowed.includes(m) && !(m === 'HEAD' && allowed.includes('GET'))),
    );
    return { method, path, headers: { ...target.headers } };
  }
  if (roll < 0.22) return { method: pick(random, OTHER_METHODS), path: unknownPath(random, operation.template), headers: {} };
  const headers = spoilHeaders(random, target.headers ?? {});
  if (operation.requestSchema === undefined) return { method: operation.method, path, headers };
  if (roll < 0.34) return { method: operation.method, path, headers: { ...headers, ...garbage(random).headers }, body: garbage(random).body };
  const examples = target.bodies?.[`${operation.method} ${operation.template}`] ?? [];
  let value = examples.length > 0 && random() < 0.5 ? structuredClone(pick(random, examples)) : generate(random, operation.requestSchema, 0);
  if (random() < 0.45) value = mutate(random, value, 0);
  return { method: operation.method, path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

function fillPath(random: Random, template: string, known: Record<string, string[]>): string {
  return template.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const real = known[name] ?? [];
    if (real.length > 0 && random() < 0.6) return encodeURIComponent(pick(random, real));
    return encodeURIComponent(pick(random, ['x', 'Unknown-Model', CITIZEN_LIKE, '%', '..', 'a'.repeat(200), 'ü', ' ', randomString(random, 1, 12)]));
  });
}

function unknownPath(random: Random, template: string): string {
  const base = template.replace(/\{[^}]+\}/g, 'x');
  return pick(random, [`${base}/extra`, `/nope/${randomString(random, 1, 8)}`, `/api/v2${base}`, `${base.toUpperCase()}-`]);
}

function spoilHeaders(random: Random, headers: Record<string, string>): Record<string, string> {
  const roll = random();
  if (roll < 0.1) return {};
  if (roll < 0.18) return Object.fromEntries(Object.keys(headers).map((key) => [key, 'wrong-key']));
  const out = { ...headers };
  if (random() < 0.1) out['X-Correlation-ID'] = pick(random, [`corr-${CITIZEN_LIKE}`, 'corr-00000000-0000-4000-8000-000000000000', '']);
  return out;
}

function garbage(random: Random): { headers: Record<string, string>; body: string } {
  return pick(random, [
    { headers: { 'content-type': 'application/json' }, body: '{"a":' },
    { headers: { 'content-type': 'application/json' }, body: '' },
    { headers: { 'content-type': 'application/json' }, body: '[1,2,3]' },
    { headers: { 'content-type': 'application/json' }, body: '"text"' },
    { headers: { 'content-type': 'application/json' }, body: 'null' },
    { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(40_000) }) },
    { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2' },
    { headers: { 'content-type': 'text/plain' }, body: '{}' },
    { headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{}' },
  ]);
}

/** A value that satisfies the common JSON Schema keywords zod emits; arbitrary where the schema says nothing. */
function generate(random: Random, schema: Schema, depth: number): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pick(random, schema.enum);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) return generate(random, pick(random, variants), depth);
  const type = Array.isArray(schema.type) ? pick(random, schema.type as string[]) : (schema.type as string | undefined);
  switch (type) {
    case 'object':
      return generateObject(random, schema, depth);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      const min = Number(schema.minItems ?? 0);
      const max = Math.min(Number(schema.maxItems ?? min + 3), min + 3);
      return Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => generate(random, items, depth + 1));
    }
    case 'string':
      return generateString(random, schema);
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? -1000);
      const max = Number(schema.maximum ?? 1000);
      const value = min + random() * (Math.min(max, min + 1e6) - min);
      return type === 'integer' ? Math.round(value) : value;
    }
    case 'boolean':
      return random() < 0.5;
    case 'null':
      return null;
    default:
      return anyValue(random, depth);
  }
}

function generateObject(random: Random, schema: Schema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (required.has(key) || random() < 0.6) out[key] = generate(random, property, depth + 1);
  }
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra !== false && depth < 3) {
    for (let i = Math.floor(random() * 4); i > 0; i -= 1)
      out[randomString(random, 1, 12)] = typeof extra === 'object' ? generate(random, extra as Schema, depth + 1) : anyValue(random, depth + 1);
  }
  return out;
}

function generateString(random: Random, schema: Schema): string {
  if (schema.format === 'email') return `${randomString(random, 1, 8).toLowerCase()}@demo.example`;
  if (schema.format === 'date-time') return new Date(Math.floor(random() * 2e12)).toISOString();
  if (typeof schema.pattern === 'string') {
    const simple = /^\^\[([^\]]+)\]\{(\d+),(\d+)\}\$$/.exec(schema.pattern);
    if (simple) return fromClass(random, simple[1]!, Number(simple[2]), Number(simple[3]));
  }
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Math.max(min, 16));
  return randomString(random, min, Math.min(max, min + 40));
}

function fromClass(random: Random, charClass: string, min: number, max: number): string {
  const chars: string[] = [];
  for (let i = 0; i < charClass.length; i += 1) {
    const c = charClass[i] === '\\' ? charClass[++i]! : charClass[i]!;
    if (charClass[i + 1] === '-' && i + 2 < charClass.length) {
      const end = charClass[i + 2]!;
      for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code += 1) chars.push(String.fromCharCode(code));
      i += 2;
    } else chars.push(c);
  }
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => pick(random, chars)).join('');
}

/** Breaks a valid value in one place: a wrong type, a missing or extra field, a null, an extreme. */
function mutate(random: Random, value: unknown, depth: number): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 4) {
    const keys = Object.keys(value);
    const roll = random();
    const copy = { ...(value as Record<string, unknown>) };
    if (keys.length > 0 && roll < 0.3) delete copy[pick(random, keys)];
    else if (keys.length > 0 && roll < 0.8) {
      const key = pick(random, keys);
      copy[key] = mutate(random, copy[key], depth + 1);
    } else copy[randomString(random, 1, 10)] = anyValue(random, depth + 1);
    return copy;
  }
  return pick(random, [null, 0, -1, 1e308, true, '', CITIZEN_LIKE, 'x'.repeat(5000), [], {}, [value], String(value), '<script>', '\u0000', 'NaN']);
}

function anyValue(random: Random, depth: number): unknown {
  const options: Array<() => unknown> = [
    () => null,
    () => random() < 0.5,
    () => Math.floor(random() * 1e6) - 5e5,
    () => randomString(random, 0, 12),
    () => CITIZEN_LIKE,
  ];
  if (depth < 3)
    options.push(
      () => [anyValue(random, depth + 1)],
      () => ({ [randomString(random, 1, 6)]: anyValue(random, depth + 1) }),
    );
  return pick(random, options)();
}

function randomString(random: Random, min: number, max: number): string {
  const alphabet = 'abcXYZ019-_.@ é';
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

// A small seeded generator (mulberry32), so every run sends the same requests.
function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
