import { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export type Security = 'apiKey' | 'bearer';

export interface DocumentedRoute {
  method: HttpMethod;
  path: string;
  summary: string;
  security?: Security;
  body?: z.ZodType;
  /** Path parameters' schemas; a `:name` in the path without one is documented as a string. */
  params?: z.ZodObject;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
} as const;

function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function jsonContent(schema: z.ZodType) {
  return { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } };
}

function pathParameters(route: DocumentedRoute): Record<string, unknown>[] {
  return [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name = '']) => {
    const schema = route.params?.shape[name] as z.ZodType | undefined;
    return {
      name,
      in: 'path',
      required: true,
      schema: schema ? z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) : { type: 'string' },
    };
  });
}

/** Builds the service's OpenAPI 3.1 document from the same zod schemas that validate its requests. */
export function openApiDocument(title: string, routes: readonly DocumentedRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = response.schema
        ? { description: response.description, content: jsonContent(response.schema) }
        : { description: response.description };
    }
    const operation: Record<string, unknown> = { summary: route.summary, responses };
    const parameters = pathParameters(route);
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.body) operation.requestBody = { required: true, content: jsonContent(route.body) };
    if (route.security) operation.security = [{ [route.security]: [] }];
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
