import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Checks against a service's own OpenAPI document (as served at GET /openapi.json): the
 * document is valid OpenAPI 3.x, and an answer's status is declared for its operation and its
 * body validates against the declared response schema. Used by `boot()` on every answer of
 * every in-process test, and by the fuzzer.
 */

export type OpenApiDocument = Record<string, unknown>;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: Array<{ name: string; in: string }>;
}

type PathItem = Record<string, unknown> & { parameters?: Operation['parameters'] };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Problems that make the document invalid OpenAPI 3.x, plus undeclared path template parameters; empty when valid. */
export async function documentProblems(document: OpenApiDocument): Promise<string[]> {
  const result = await new Validator().validate(structuredClone(document));
  const problems = result.valid ? [] : [JSON.stringify(result.errors)];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, PathItem>)) {
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation === undefined) continue;
      const declared = new Set([...(item.parameters ?? []), ...(operation.parameters ?? [])].filter((p) => p.in === 'path').map((p) => p.name));
      for (const name of templated) if (!declared.has(name!)) problems.push(`${method.toUpperCase()} ${path}: path parameter '${name}' is not declared`);
      for (const name of declared)
        if (!templated.includes(name)) problems.push(`${method.toUpperCase()} ${path}: declared path parameter '${name}' is not in the path`);
    }
  }
  return problems;
}

/** The document's path template that a concrete path (no query) falls under, literal segments first. */
export function matchPath(document: OpenApiDocument, path: string): string | undefined {
  const segments = path.split('/');
  const candidates = Object.keys((document.paths ?? {}) as Record<string, unknown>).filter((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, i) => (/^\{[^}]+\}$/.test(part) ? segments[i] !== '' : part === segments[i]));
  });
  const literalCount = (template: string) => template.split('/').filter((part) => !part.startsWith('{')).length;
  return candidates.sort((a, b) => literalCount(b) - literalCount(a))[0];
}

/** The methods the document declares for a path template, upper case. */
export function declaredMethods(document: OpenApiDocument, template: string): string[] {
  const item = ((document.paths ?? {}) as Record<string, PathItem>)[template] ?? {};
  return METHODS.filter((method) => item[method] !== undefined).map((method) => method.toUpperCase());
}

/**
 * Why this answer does not match the document, or undefined when it does. `body` is the parsed
 * JSON body (undefined when the body was empty or not JSON). Paths the document does not know
 * must answer 404 `NOT_FOUND`; a known path with an undeclared method must answer 405 with
 * `Allow` listing the declared methods (`allow` is that header's value).
 */
export function responseProblem(
  document: OpenApiDocument,
  method: string,
  path: string,
  status: number,
  body: unknown,
  allow?: string | null,
): string | undefined {
  const where = `${method.toUpperCase()} ${path} -> ${status}`;
  // The path the request reached: fetch resolves dot segments (`/a/b/..` is `/a/`) before sending.
  const pathOnly = new URL(path.split('?')[0]!, 'http://service.invalid').pathname;
  const template = matchPath(document, pathOnly);
  if (template === undefined) {
    if (status !== 404) return `${where}: a path the document does not know must answer 404`;
    return isObjectWithCode(body, 'NOT_FOUND') ? undefined : `${where}: expected the NOT_FOUND error object`;
  }
  const item = ((document.paths ?? {}) as Record<string, PathItem>)[template]!;
  const operation = item[method.toLowerCase()] as Operation | undefined;
  if (operation === undefined && method.toUpperCase() === 'HEAD' && item.get !== undefined)
    return status === 200 || status >= 400 ? undefined : `${where}: unexpected HEAD status`;
  if (operation === undefined) {
    if (status !== 405) return `${where}: ${template} declares no ${method.toUpperCase()}, so it must answer 405`;
    const expected = declaredMethods(document, template);
    const offered = (allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean);
    if (!expected.every((m) => offered.includes(m))) return `${where}: Allow '${allow ?? ''}' must list ${expected.join(', ')}`;
    return isObjectWithCode(body) ? undefined : `${where}: expected an error object`;
  }
  const response = operation.responses?.[String(status)] ?? operation.responses?.default;
  if (response === undefined)
    return `${where}: status ${status} is not declared for ${method.toUpperCase()} ${template} (declared: ${Object.keys(operation.responses ?? {}).join(', ')})`;
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined) return body === undefined ? undefined : `${where}: a body was sent where the document declares none`;
  if (body === undefined) return `${where}: the document declares a JSON body but none was sent`;
  const validate = validatorFor(schema as object);
  if (validate(body)) return undefined;
  return `${where}: body does not match the declared schema: ${ajv.errorsText(validate.errors)}`;
}

function isObjectWithCode(body: unknown, code?: string): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>).code;
  return code === undefined ? typeof value === 'string' : value === code;
}

/** Assertion form for ava tests: fails the test with the problem, passes otherwise. */
export function assertMatchesDocument(
  t: { fail(message?: string): void; pass(message?: string): void },
  document: OpenApiDocument,
  answer: { method: string; path: string; status: number; body: unknown; allow?: string | null },
): void {
  const problem = responseProblem(document, answer.method, answer.path, answer.status, answer.body, answer.allow);
  if (problem === undefined) t.pass();
  else t.fail(problem);
}
