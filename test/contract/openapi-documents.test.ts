import test from 'ava';
import { documentProblems } from '../helpers/openapi-check.js';
import { SERVICES } from './services.js';

for (const service of SERVICES) {
  test(`${service.name}: GET /openapi.json is a valid OpenAPI 3.x document`, async (t) => {
    const booted = await service.start(t);
    const document = await booted.document();
    if (document === undefined) return t.fail('no OpenAPI document served');
    t.regex(String(document.openapi), /^3\.[01]\.\d+$/);
    t.deepEqual(await documentProblems(document), []);
  });
}
