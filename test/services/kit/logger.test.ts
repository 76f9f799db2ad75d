import test from 'ava';
import { scrub } from '../../../services/kit/index.js';
import { capturingLogger } from '../../helpers/service.js';

const CITIZEN = '079201001234';

test('secrets are redacted at any depth and citizen-number-shaped runs inside any string', (t) => {
  const { logger, lines } = capturingLogger();
  logger.info({ citizenId: CITIZEN, password: 'pw-1', nested: { deeper: { citizenId: CITIZEN, list: [{ password: 'pw-2' }] } } }, 'object fields');
  logger.info({ req: { headers: { authorization: 'Bearer tok', cookie: 'sid=abc', 'x-api-key': 'key-1' } } }, 'headers');
  logger.info({ access_token: 'at', refresh_token: 'rt', client_secret: 'cs' }, 'tokens');
  logger.info(`message mentions ${CITIZEN} in text`);
  logger.warn({ err: new Error(`lookup failed for ${CITIZEN}`) }, 'error object');
  logger.info({ url: `/x?citizenId=${CITIZEN}` }, 'a url');
  const all = lines.join('\n');
  for (const secret of [CITIZEN, 'pw-1', 'pw-2', 'Bearer tok', 'sid=abc', 'key-1', '"at"', '"rt"', '"cs"']) {
    t.false(all.includes(secret), `${secret} must not be logged`);
  }
  t.is(lines.length, 6);
  t.true(all.includes('[REDACTED]'));
});

test('numbers that are not citizen-number-shaped are kept', (t) => {
  t.deepEqual(scrub({ ms: 12.5, port: 3001, epoch: '1732269999000', short: '12345678' }), {
    ms: 12.5,
    port: 3001,
    epoch: '1732269999000',
    short: '12345678',
  });
});

test('scrubbing survives cycles-free deep objects without throwing', (t) => {
  let deep: Record<string, unknown> = { citizenId: CITIZEN };
  for (let i = 0; i < 20; i += 1) deep = { next: deep };
  t.notThrows(() => JSON.stringify(scrub(deep)));
  t.false(JSON.stringify(scrub(deep)).includes(CITIZEN));
});
