import { z } from 'zod';
import { ErrorBodySchema } from './error-schema.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export type Security = 'apiKey' | 'bearer';

export interface DocumentedRoute {
  method: HttpMethod;
  path: string;
  summary: string;
  security?: Security;
  body?: z.ZodType;
  /** The body may also come form-encoded (`application/x-www-form-urlencoded`, flat text fields), as gateways modelled on Twilio's API send it. */
  formBody?: boolean;
  /** Schemas of the path parameters (`:name` in `path`); a parameter without one is a plain string. */
  params?: Record<string, z.ZodType>;
  /** Schemas of the query parameters; each is optional unless its schema refuses undefined. */
  query?: Record<string, z.ZodType>;
  /** Statuses the route answers. Error statuses (>= 400) carry the spec 2.2 error object unless a schema is given. */
  responses: Record<
    number,
    {
      description: string;
      schema?: z.ZodType;
      /** Media types of a file the answer is instead of JSON. */
      files?: string[];
    }
  >;
}

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const;

function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function jsonContent(schema: z.ZodType, io: 'input' | 'output') {
  return { 'application/json': { schema: z.toJSONSchema(schema, { io, unrepresentable: 'any' }) } };
}

function pathParameters(route: DocumentedRoute) {
  const path = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name = '']) => {
    const schema = route.params?.[name];
    return { name, in: 'path', required: true, schema: schema ? z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) : { type: 'string' } };
  });
  const query = Object.entries(route.query ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
  }));
  return [...path, ...query];
}

/**
 * Every status a route can answer, declared: what the route names, plus what the kit itself
 * answers on any route (400 for an unreadable body, 401 for a missing key, 500 for the
 * unexpected), each error with the spec 2.2 error object.
 */
function declaredResponses(route: DocumentedRoute): Record<string, unknown> {
  const all: DocumentedRoute['responses'] = { ...route.responses };
  if (route.body || route.query)
    all[400] ??= { description: 'INVALID_REQUEST: the body or a query parameter is missing, malformed, too large or breaks the schema.' };
  if (route.security === 'apiKey') all[401] ??= { description: 'UNAUTHORIZED: X-API-Key is missing or wrong.' };
  all[500] ??= { description: 'INTERNAL_ERROR: an unexpected failure; the message is generic.' };
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(all)) {
    if (response.files !== undefined) {
      responses[status] = {
        description: response.description,
        content: Object.fromEntries(response.files.map((type) => [type, { schema: { type: 'string' } }])),
      };
      continue;
    }
    const schema = response.schema ?? (Number(status) >= 400 ? ErrorBodySchema : undefined);
    responses[status] = schema ? { description: response.description, content: jsonContent(schema, 'output') } : { description: response.description };
  }
  return responses;
}

/** Builds the service's OpenAPI 3.1 document from the same zod schemas that validate its requests. */
export function openApiDocument(title: string, routes: readonly DocumentedRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = { summary: route.summary };
    const parameters = pathParameters(route);
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.body) {
      const content = jsonContent(route.body, 'input');
      operation.requestBody = {
        required: true,
        content: route.formBody ? { ...content, 'application/x-www-form-urlencoded': content['application/json'] } : content,
      };
    }
    if (route.security) operation.security = [{ [route.security]: [] }];
    operation.responses = declaredResponses(route);
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title, version: '0.1.0' },
    paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  };
}
