import test from 'ava';
import { z } from 'zod';
import { ConfigError, commonSettings, envFlag, loadConfig } from '../../../services/kit/index.js';

const Schema = z.object({ ...commonSettings, FEATURE: envFlag(false), SECRET_KEY: z.string().min(8).default('dev-secret-key') });

test('every setting has a working default', (t) => {
  const config = loadConfig(Schema, {});
  t.is(config.PORT, undefined, 'unset: the service uses its spec port');
  t.like(config, { HOST: '127.0.0.1', LOG_LEVEL: 'info', TEST_HARNESS: false, FEATURE: false, SECRET_KEY: 'dev-secret-key' });
});

test('PORT=0 means any free port and is kept as 0; an empty PORT is unset', (t) => {
  t.is(loadConfig(Schema, { PORT: '0' }).PORT, 0);
  t.is(loadConfig(Schema, { PORT: '3999' }).PORT, 3999);
  t.is(loadConfig(Schema, { PORT: '' }).PORT, undefined);
});

test('flags read "false" as false and "1" as true', (t) => {
  t.false(loadConfig(Schema, { FEATURE: 'false' }).FEATURE);
  t.true(loadConfig(Schema, { FEATURE: '1' }).FEATURE);
});

test('a bad setting fails at start-up naming the setting but not its value', (t) => {
  const error = t.throws(() => loadConfig(Schema, { PORT: 'http', SECRET_KEY: 'short' }), { instanceOf: ConfigError });
  t.true(error?.message.includes('PORT'));
  t.true(error?.message.includes('SECRET_KEY'));
  t.false(error?.message.includes('short'));
});

test('with NODE_ENV=production a secret still at its development default refuses to start, naming the setting, never the value', (t) => {
  const error = t.throws(() => loadConfig(Schema, { NODE_ENV: 'production' }), { instanceOf: ConfigError });
  t.regex(error?.message ?? '', /SECRET_KEY: still the development default/);
  t.notRegex(error?.message ?? '', /dev-secret-key/);
  t.is(loadConfig(Schema, { NODE_ENV: 'production', SECRET_KEY: 'a-real-secret-value' }).SECRET_KEY, 'a-real-secret-value');
  t.is(loadConfig(Schema, {}).SECRET_KEY, 'dev-secret-key', 'development keeps working on the defaults');
});
