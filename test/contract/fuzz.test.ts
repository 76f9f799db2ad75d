import test from 'ava';
import { fuzzService } from '../helpers/fuzz.js';
import { SERVICES } from './services.js';

// Item 4 of the quality issue: a few hundred generated requests per service, in-process on a
// free port; no 5xx, every answer a declared status with a body matching its declared schema.
for (const service of SERVICES) {
  test(`${service.name}: 300 generated requests get only declared answers and no 5xx`, async (t) => {
    await fuzzService(t, await service.start(t), service, { requests: 300 });
  });
}
