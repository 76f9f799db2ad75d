import test from 'ava';
import { documentProblems, matchPath, responseProblem, type OpenApiDocument } from '../helpers/openapi-check.js';

// The checker itself must bite: each case below is a mismatch it has to name.
const DOCUMENT: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, at: { type: 'string', format: 'date-time' } } },
              },
            },
          },
          404: {
            description: 'none',
            content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { const: 'NOT_FOUND' } } } } },
          },
        },
      },
    },
    '/things/all': { get: { responses: { 200: { description: 'ok' } } } },
  },
};

test('a matching answer has no problem', (t) => {
  t.is(responseProblem(DOCUMENT, 'GET', '/things/a1', 200, { id: 'a1', at: '2026-01-01T00:00:00.000Z' }), undefined);
  t.is(responseProblem(DOCUMENT, 'GET', '/things/a1', 404, { code: 'NOT_FOUND' }), undefined);
});

test('an undeclared status is named', (t) => {
  t.regex(String(responseProblem(DOCUMENT, 'GET', '/things/a1', 500, { code: 'INTERNAL_ERROR' })), /status 500 is not declared/);
});

test('a body that breaks the declared schema is named', (t) => {
  t.regex(String(responseProblem(DOCUMENT, 'GET', '/things/a1', 200, { name: 'x' })), /does not match the declared schema/);
  t.regex(String(responseProblem(DOCUMENT, 'GET', '/things/a1', 200, { id: 'a1', at: 'yesterday' })), /format/);
  t.regex(String(responseProblem(DOCUMENT, 'GET', '/things/a1', 200, undefined)), /none was sent/);
});

test('an undeclared method on a known path must be 405 with Allow', (t) => {
  t.regex(String(responseProblem(DOCUMENT, 'DELETE', '/things/a1', 404, { code: 'NOT_FOUND' })), /must answer 405/);
  t.regex(String(responseProblem(DOCUMENT, 'DELETE', '/things/a1', 405, { code: 'METHOD_NOT_ALLOWED' }, 'POST')), /Allow/);
  t.is(responseProblem(DOCUMENT, 'DELETE', '/things/a1', 405, { code: 'METHOD_NOT_ALLOWED' }, 'GET, HEAD'), undefined);
});

test('an unknown path must be 404 NOT_FOUND', (t) => {
  t.is(responseProblem(DOCUMENT, 'GET', '/nowhere', 404, { code: 'NOT_FOUND' }), undefined);
  t.regex(String(responseProblem(DOCUMENT, 'GET', '/nowhere', 200, {})), /must answer 404/);
});

test('literal path segments win over templates', (t) => {
  t.is(matchPath(DOCUMENT, '/things/all'), '/things/all');
  t.is(matchPath(DOCUMENT, '/things/x'), '/things/{id}');
  t.is(matchPath(DOCUMENT, '/things/'), undefined);
});

test('a document with an undeclared path parameter or an invalid shape is refused', async (t) => {
  const missingParameter = structuredClone(DOCUMENT);
  delete (missingParameter.paths as Record<string, Record<string, Record<string, unknown>>>)['/things/{id}']!.get!.parameters;
  t.deepEqual(await documentProblems(missingParameter), ["GET /things/{id}: path parameter 'id' is not declared"]);
  t.deepEqual(await documentProblems(DOCUMENT), []);
  t.true((await documentProblems({ openapi: '3.1.0', paths: {} })).length > 0, 'info is required');
});
