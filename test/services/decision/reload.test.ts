import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import type { Booted } from '../../helpers/service.js';
import { decisionService, evaluatePath, modelDirectory, MODEL_FILE } from './decision-service.js';

const CUSTOMER = { inputs: { userType: 'CUSTOMER', employeeVerified: false, company: null }, decision: 'WifiEntitlement' };

async function customerTtl(service: Booted): Promise<unknown> {
  const answer = await service.request('POST', evaluatePath(), { json: CUSTOMER });
  return answer.status === 200 ? (answer.body.results as Record<string, Record<string, unknown>>).WifiEntitlement?.ttlSeconds : answer.status;
}

// The shipped model with the customer baseline (rule 4) lasting `ttl` seconds.
async function modelWithCustomerTtl(ttl: string): Promise<string> {
  const xml = await readFile(MODEL_FILE, 'utf8');
  return xml.replace(
    '<outputEntry id="WifiEntitlementRule4TtlSeconds"><text>3600</text>',
    `<outputEntry id="WifiEntitlementRule4TtlSeconds"><text>${ttl}</text>`,
  );
}

test('a fixed or edited file is picked up by a reload', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  t.is(await customerTtl(service), 3600);
  const before = await service.request('GET', '/api/v1/decisions');

  await writeFile(join(dir, 'WifiEntitlement.dmn'), await modelWithCustomerTtl('1800'));
  const reload = await service.request('POST', '/api/v1/decisions/reload');
  t.is(reload.status, 200, reload.text);
  t.like(reload.body, { reloaded: true, models: [{ model: 'WifiEntitlement', file: 'WifiEntitlement.dmn' }] });
  t.is(await customerTtl(service), 1800);
  const after = await service.request('GET', '/api/v1/decisions');
  // The list shows exactly the runtime the reload installed, loaded after the first one.
  t.is(after.body.loadedAt, reload.body.loadedAt);
  t.true(Date.parse(String(after.body.loadedAt)) > Date.parse(String(before.body.loadedAt)));
});

const breakages: Array<[string, (xml: string) => string, RegExp]> = [
  [
    'a FEEL syntax error',
    (xml) => xml.replace('<text>"MEMBER_A","MEMBER_B","MEMBER_C"</text>', '<text>"MEMBER_A",,</text>'),
    /WifiEntitlement\.dmn: decision 'WifiEntitlement', rule 1, input 'company': FEEL syntax error/,
  ],
  ['XML that is not well formed', (xml) => xml.replace('</definitions>', ''), /WifiEntitlement\.dmn: .*unparsable content|WifiEntitlement\.dmn: .*unclosed/],
  [
    'an output of the wrong type',
    (xml) => xml.replace('<text>14400</text>', '<text>"four hours"</text>'),
    /WifiEntitlement\.dmn: decision 'WifiEntitlement', rule 1, output 'ttlSeconds': a string does not conform to typeRef 'number'/,
  ],
];

for (const [breakage, edit, message] of breakages) {
  test(`a file with ${breakage} fails the reload, names the file and the problem, and the previous model keeps serving`, async (t) => {
    const dir = await modelDirectory(t);
    const service = await decisionService(t, dir);
    await writeFile(join(dir, 'WifiEntitlement.dmn'), edit(await readFile(MODEL_FILE, 'utf8')));

    const reload = await service.request('POST', '/api/v1/decisions/reload');
    assertError(t, reload, 422, 'DMN_EVALUATION_ERROR');
    t.regex(String(reload.body.message), /the previous models keep serving/);
    t.regex(String(reload.body.message), message);
    t.is(await customerTtl(service), 3600);
    const health = await service.request('GET', '/health');
    t.is(health.status, 200);
    t.regex(String(health.body.lastReloadFailure), message);
  });
}

test('a second file that breaks fails the whole reload, so models never come from a partial directory', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await writeFile(join(dir, 'WifiEntitlement.dmn'), await modelWithCustomerTtl('1800'));
  await writeFile(join(dir, 'Zz-broken.dmn'), '<definitions');
  assertError(t, await service.request('POST', '/api/v1/decisions/reload'), 422, 'DMN_EVALUATION_ERROR');
  t.is(await customerTtl(service), 3600);
});

test('two files defining the same model fail the reload', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await writeFile(join(dir, 'Copy.dmn'), await readFile(MODEL_FILE, 'utf8'));
  const reload = await service.request('POST', '/api/v1/decisions/reload');
  assertError(t, reload, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(reload.body.message), /model 'WifiEntitlement' is already defined in Copy\.dmn/);
});

test('a model file that cannot be read fails the reload with its name and the error code only', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await mkdir(join(dir, 'Folder.dmn'));
  const reload = await service.request('POST', '/api/v1/decisions/reload');
  assertError(t, reload, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(reload.body.message), /Folder\.dmn: cannot be read \(EISDIR\)/);
  t.false(String(reload.body.message).includes(dir));
});

test('a directory emptied of models fails the reload rather than serve an empty table', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await rm(join(dir, 'WifiEntitlement.dmn'));
  const reload = await service.request('POST', '/api/v1/decisions/reload');
  assertError(t, reload, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(reload.body.message), /DMN_DIR holds no \.dmn file/);
  t.is(await customerTtl(service), 3600);
});

test('evaluations running while the model is reloaded again and again all succeed, and each swap is seen', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  const file = join(dir, 'WifiEntitlement.dmn');
  // Two versions that both differ from the shipped 3600, and one that does not compile.
  const versions: Array<[string, number | 'broken']> = [
    [await modelWithCustomerTtl('1800'), 1800],
    [await modelWithCustomerTtl('2700'), 2700],
    [await readFile(MODEL_FILE, 'utf8').then((xml) => xml.replace('</definitions>', '')), 'broken'],
  ];

  let reloading = true;
  const reloads = (async () => {
    const seen: Array<{ status: number; ttl: unknown; expected: unknown }> = [];
    let serving: unknown = 3600;
    for (let i = 0; i < 12; i++) {
      const [xml, ttl] = versions[i % versions.length]!;
      await writeFile(file, xml);
      const status = (await service.request('POST', '/api/v1/decisions/reload')).status;
      if (ttl !== 'broken') serving = ttl;
      // Right after each reload the service answers with the version it just swapped in (or keeps the previous on failure).
      seen.push({ status, ttl: await customerTtl(service), expected: serving });
    }
    reloading = false;
    return seen;
  })();
  // Waves of concurrent evaluations for as long as the reloads go on.
  const ttls: unknown[] = [];
  while (reloading) ttls.push(...(await Promise.all(Array.from({ length: 25 }, () => customerTtl(service)))));

  const seen = await reloads;
  t.deepEqual(
    seen.map((s) => s.status),
    [200, 200, 422, 200, 200, 422, 200, 200, 422, 200, 200, 422],
  );
  t.deepEqual(
    seen.map((s) => s.ttl),
    seen.map((s) => s.expected),
  );
  t.true(ttls.length > 0);
  t.true(
    ttls.every((ttl) => ttl === 3600 || ttl === 1800 || ttl === 2700),
    `every evaluation answered 200: ${JSON.stringify(ttls.filter((ttl) => ttl !== 1800 && ttl !== 2700 && ttl !== 3600))}`,
  );
});

test('reloads started together all succeed and leave the file on disk serving', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await writeFile(join(dir, 'WifiEntitlement.dmn'), await modelWithCustomerTtl('900'));
  const answers = await Promise.all(Array.from({ length: 5 }, () => service.request('POST', '/api/v1/decisions/reload')));
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 200, 200, 200],
  );
  // The list shows the runtime of the reload that finished last (reloads run one after another: runtime-holder.test.ts).
  const times = answers.map((a) => String(a.body.loadedAt));
  t.is((await service.request('GET', '/api/v1/decisions')).body.loadedAt, times.sort().at(-1));
  t.is(await customerTtl(service), 900);
});
