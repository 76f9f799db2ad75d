import test from 'ava';
import { fuzzService } from '../helpers/fuzz.js';
import { SERVICES } from './services.js';

// Item 4 of the quality issue: a few hundred generated requests per service, in-process on a
// free port; no 5xx, every answer a declared status with a body matching its declared schema.
// Serial: booting a heavy service (PGlite) stalls this process's event loop for seconds, and a
// fuzz client of another service here would then race its server's keep-alive timeout on a
// pooled socket: a dropped connection that says nothing about the service under test.
for (const service of SERVICES) {
  test.serial(`${service.name}: 300 generated requests get only declared answers and no 5xx`, async (t) => {
    await fuzzService(t, await service.start(t), service, { requests: 300 });
  });
}
