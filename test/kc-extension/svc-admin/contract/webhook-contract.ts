import { randomUUID } from 'node:crypto';
import type { TestFn } from 'ava';
import { putCompany, uniqueCode } from './companies-contract.js';
import type { Driver, DriverReply } from './driver.js';
import { EventList, WebhookReply } from './response-schemas.js';
import { signedHeaders } from './webhook-signing.js';

const SECRET = 'contract-webhook-secret-0123456789';
const CANARY = '987650001234';

interface Setup {
  d: Driver;
  code: string;
  post(body: unknown, options?: { secret?: string; timestampSeconds?: number; eventId?: string; raw?: Buffer }): Promise<DriverReply>;
}

const setup = async (driver: () => Promise<Driver>, secret: string | null = SECRET): Promise<Setup> => companyOn(await driver(), secret);

/** A company of its own, with the webhook secret, on the driver's realm. */
async function companyOn(d: Driver, secret: string | null = SECRET): Promise<Setup> {
  const code = uniqueCode('WH');
  await putCompany(d, code, secret === null ? { name: 'Webhook company' } : { name: 'Webhook company', secret });
  const post: Setup['post'] = (body, options = {}) => {
    const raw = options.raw ?? Buffer.from(JSON.stringify(body), 'utf8');
    const timestamp = options.timestampSeconds ?? Math.floor(d.nowMs() / 1000);
    return d.send({
      method: 'POST',
      path: `/webhook/${code}`,
      body: raw,
      headers: signedHeaders(options.secret ?? secret ?? SECRET, raw, timestamp, options.eventId),
    });
  };
  return { d, code, post };
}

const result = (reply: DriverReply): string => WebhookReply.parse(reply.body).result;

const MAX_SKEW_MS = 5 * 60 * 1000;

/**
 * Posts with a timestamp `skewSeconds` away from the server clock and says whether spec 6 lets it
 * in. The server reads its clock somewhere between the send and the reply; a timestamp is whole
 * seconds, so a request near the 5-minute boundary could be judged either way by the time it
 * arrives. The window is measured and the request repeated until the verdict at its start and
 * at its end agree: the test depends on the rule, not on how busy the machine is.
 */
async function postWithSkew(d: Driver, post: Setup['post'], body: unknown, skewSeconds: number): Promise<{ reply: DriverReply; accepted: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const startMs = d.nowMs();
    const timestampMs = Math.round(startMs / 1000 + skewSeconds) * 1000;
    // A fresh body per attempt: the same signed bytes again would be a replay (DUPLICATE).
    const reply = await post({ ...(body as object), attempt: randomUUID() }, { timestampSeconds: timestampMs / 1000 });
    const endMs = d.nowMs();
    const within = (nowMs: number): boolean => Math.abs(nowMs - timestampMs) <= MAX_SKEW_MS;
    if (within(startMs) === within(endMs)) return { reply, accepted: within(startMs) };
    if (attempt === 5) throw new Error(`skew ${skewSeconds} s straddled the boundary on ${attempt} attempts`);
  }
}

export function webhookContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('EMPLOYEE_TERMINATED disables the account and sets employee_verified false: APPLIED', async (t) => {
    const { d, code, post } = await setup(driver);
    const ref = `REF-${randomUUID()}`;
    const id = await d.createEmployee(ref, code);
    const reply = await post({ type: 'EMPLOYEE_TERMINATED', employeeRef: ref });
    t.like(reply, { status: 200, body: { result: 'APPLIED' } });
    t.like(await d.employee(id), { enabled: false, attributes: { employee_verified: 'false' } });
  });

  test('SUSPENDED disables; REINSTATED enables without restoring verification; COMPANY_CHANGED updates company', async (t) => {
    const { d, code, post } = await setup(driver);
    const ref = `REF-${randomUUID()}`;
    // HR writes '_' where company codes write '-' (MEMBER_A is company MEMBER-A).
    const id = await d.createEmployee(ref, code.replace(/-/g, '_'));
    t.is(result(await post({ type: 'EMPLOYEE_TERMINATED', employeeRef: ref })), 'APPLIED');
    t.is(result(await post({ type: 'EMPLOYEE_REINSTATED', employeeRef: ref })), 'APPLIED');
    t.like(await d.employee(id), { enabled: true, attributes: { employee_verified: 'false' } });
    t.is(result(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref })), 'APPLIED');
    t.like(await d.employee(id), { enabled: false });
    t.is(result(await post({ type: 'EMPLOYEE_COMPANY_CHANGED', employeeRef: ref, company: 'MEMBER_B' })), 'APPLIED');
    t.like(await d.employee(id), { enabled: false, attributes: { company: 'MEMBER_B' } });
    // Moved away: this company's secret reaches the employee no more.
    t.is(result(await post({ type: 'EMPLOYEE_REINSTATED', employeeRef: ref, note: 'after the move' })), 'NO_MATCH');
    t.like(await d.employee(id), { enabled: false });
  });

  test("company B's secret cannot touch company A's employee: NO_MATCH, logged for review", async (t) => {
    const a = await setup(driver);
    const b = await companyOn(a.d, 'company-b-webhook-secret-0123456789');
    const ref = `REF-${randomUUID()}`;
    const id = await a.d.createEmployee(ref, a.code.replace(/-/g, '_'));
    for (const event of [
      { type: 'EMPLOYEE_TERMINATED', employeeRef: ref },
      { type: 'EMPLOYEE_SUSPENDED', employeeRef: ref },
      { type: 'EMPLOYEE_COMPANY_CHANGED', employeeRef: ref, company: b.code },
    ]) {
      t.like(await b.post(event), { status: 200, body: { result: 'NO_MATCH' } }, event.type);
    }
    t.like(await a.d.employee(id), { enabled: true, attributes: { company: a.code.replace(/-/g, '_'), employee_verified: 'true' } });
    const reply = await a.d.send({ method: 'GET', path: '/api/events', token: a.d.tokens.operator, query: { limit: '200' } });
    const review = EventList.parse(reply.body).events.filter((event) => event.company === b.code);
    t.is(review.length, 3);
    t.true(review.every((event) => event.outcome === 'NO_MATCH' && /another company/.test(event.detail)));
    t.like(await a.post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }), { status: 200, body: { result: 'APPLIED' } });
  });

  test('the same signed event re-sent under a new event id is DUPLICATE and not re-applied', async (t) => {
    const { d, code, post } = await setup(driver);
    const ref = `REF-${randomUUID()}`;
    const id = await d.createEmployee(ref, code);
    const raw = Buffer.from(JSON.stringify({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }));
    const timestampSeconds = Math.floor(d.nowMs() / 1000);
    t.is(result(await post(undefined, { raw, timestampSeconds, eventId: randomUUID() })), 'APPLIED');
    t.is(result(await post({ type: 'EMPLOYEE_REINSTATED', employeeRef: ref })), 'APPLIED');
    const replay = await post(undefined, { raw, timestampSeconds, eventId: randomUUID() });
    t.like(replay, { status: 200, body: { result: 'DUPLICATE' } });
    t.like(await d.employee(id), { enabled: true });
  });

  test('a wrong signature, a stale or future timestamp, missing headers and no secret are 401 REJECTED', async (t) => {
    const { d, code, post } = await setup(driver);
    const body = { type: 'LOYALTY_TIER_CHANGED' };
    t.like(await post(body, { secret: 'another-secret-0123456789' }), { status: 401, body: { result: 'REJECTED' } });
    for (const skewSeconds of [-301, 301, -299, 299]) {
      const { reply, accepted } = await postWithSkew(d, post, body, skewSeconds);
      t.like(reply, accepted ? { status: 200, body: { result: 'RECORDED' } } : { status: 401, body: { result: 'REJECTED' } }, `skew ${skewSeconds} s`);
      t.is(accepted, Math.abs(skewSeconds) < 300, `skew ${skewSeconds} s`);
    }
    const unsigned = await d.send({ method: 'POST', path: `/webhook/${code}`, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    t.like(unsigned, { status: 401, body: { result: 'REJECTED' } });
    const bare = await setup(driver, null);
    t.like(await bare.post(body), { status: 401, body: { result: 'REJECTED' } });
  });

  test('an unknown code, an invalid code, a company without a secret and a wrong secret answer alike', async (t) => {
    const { d, post } = await setup(driver);
    const bare = await companyOn(d, null);
    const raw = Buffer.from(JSON.stringify({ type: 'LOYALTY_TIER_CHANGED' }));
    const timestamp = Math.floor(d.nowMs() / 1000);
    const headers = signedHeaders('a-secret-nobody-configured-0123', raw, timestamp);
    const at = async (code: string, sent: Record<string, string> = headers) => {
      const reply = await d.send({ method: 'POST', path: `/webhook/${code}`, body: raw, headers: sent });
      return { status: reply.status, body: reply.body };
    };
    const known = await post(undefined, { raw, secret: 'a-secret-nobody-configured-0123', timestampSeconds: timestamp });
    const refusal = { status: known.status, body: known.body };
    t.like(refusal, { status: 401, body: { result: 'REJECTED' } });
    t.deepEqual(await at(uniqueCode('NO')), refusal, 'unknown code');
    t.deepEqual(await at('not-a-code'), refusal, 'invalid code');
    t.deepEqual(await at(bare.code), refusal, 'company without a secret');
    // Headers missing: the same answer whether or not the code exists.
    const unsigned = { 'Content-Type': 'application/json' };
    t.deepEqual(await at(uniqueCode('NO'), unsigned), await at(bare.code, unsigned));
  });

  test('a code no company has leaves no entry in the event log', async (t) => {
    const d = await driver();
    const unknown = uniqueCode('GHOST');
    const raw = Buffer.from(JSON.stringify({ type: 'PURCHASE' }));
    for (const code of [unknown, 'ghost-code']) {
      await d.send({
        method: 'POST',
        path: `/webhook/${code}`,
        body: raw,
        headers: signedHeaders('ghost-secret-0123456789', raw, Math.floor(d.nowMs() / 1000)),
      });
    }
    const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
    t.false(EventList.parse(reply.body).events.some((event) => event.company === unknown || event.company === 'ghost-code'));
  });

  test('a flood of unsigned posts cannot push handled events out of the log: at most 10 refusals a minute are logged', async (t) => {
    const { d, code, post } = await setup(driver);
    t.like(await post({ type: 'PURCHASE', marker: 'before-the-flood' }), { body: { result: 'RECORDED' } });
    const unsigned = { method: 'POST', path: `/webhook/${code}`, body: '{"type":"PURCHASE"}', headers: { 'Content-Type': 'application/json' } };
    for (let i = 0; i < 60; i += 1) t.like(await d.send(unsigned), { status: 401 });
    const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
    const mine = EventList.parse(reply.body).events.filter((event) => event.company === code);
    t.true(mine.some((event) => event.outcome === 'RECORDED'));
    const refusals = mine.filter((event) => event.outcome === 'REJECTED').length;
    t.true(refusals <= 10, `${refusals} refusals logged`);
  });

  test('the signature is checked over the raw bytes as received', async (t) => {
    const { post } = await setup(driver);
    const raw = Buffer.from('{ "type" :  "PURCHASE",  "note": "caf\u00e9" }\n', 'utf8');
    t.like(await post(undefined, { raw }), { status: 200, body: { result: 'RECORDED' } });
  });

  test('a repeated event id is DUPLICATE and not re-applied', async (t) => {
    const { d, code, post } = await setup(driver);
    const ref = `REF-${randomUUID()}`;
    const id = await d.createEmployee(ref, code);
    const eventId = randomUUID();
    t.is(result(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }, { eventId })), 'APPLIED');
    t.is(result(await post({ type: 'EMPLOYEE_REINSTATED', employeeRef: ref })), 'APPLIED');
    const again = await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }, { eventId });
    t.like(again, { status: 200, body: { result: 'DUPLICATE' } });
    t.like(await d.employee(id), { enabled: true });
  });

  test('NO_MATCH for an unknown employeeRef, CONFLICT 409 when two users carry it', async (t) => {
    const { d, code, post } = await setup(driver);
    t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: `REF-${randomUUID()}` }), { status: 200, body: { result: 'NO_MATCH' } });
    const ref = `REF-${randomUUID()}`;
    await d.createEmployee(ref, code);
    await d.createEmployee(ref, code);
    const eventId = randomUUID();
    t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }, { eventId }), { status: 409, body: { result: 'CONFLICT' } });
    // A CONFLICT was not processed: the sender's retry is judged again, never DUPLICATE.
    t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: ref }, { eventId }), { status: 409, body: { result: 'CONFLICT' } });
  });

  test('other types are RECORDED; an identity event without employeeRef and a non-JSON body are 400 REJECTED', async (t) => {
    const { post } = await setup(driver);
    t.like(await post({ type: 'LOYALTY_TIER_CHANGED', employeeRef: 'x' }), { status: 200, body: { result: 'RECORDED' } });
    t.like(await post({ type: 'EMPLOYEE_TERMINATED' }), { status: 400, body: { result: 'REJECTED' } });
    t.like(await post({ type: 'EMPLOYEE_COMPANY_CHANGED', employeeRef: 'x' }), { status: 400, body: { result: 'REJECTED' } });
    t.like(await post(undefined, { raw: Buffer.from('not json') }), { status: 400, body: { result: 'REJECTED' } });
  });

  test('handled webhooks reach the event log, newest first, without any citizen number', async (t) => {
    const { d, code, post } = await setup(driver);
    await post({ type: 'PURCHASE', employeeRef: `CID-${CANARY}`, citizenId: CANARY });
    await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: `REF-${randomUUID()}` });
    const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
    t.is(reply.status, 200);
    const { events } = EventList.parse(reply.body);
    const mine = events.filter((event) => event.company === code);
    t.deepEqual(
      mine.map((event) => event.outcome),
      ['NO_MATCH', 'RECORDED'],
    );
    t.false(JSON.stringify(reply.body).includes(CANARY));
  });

  test('the event log limit defaults to 50 and must be 1 to 200', async (t) => {
    const d = await driver();
    for (const limit of ['0', '201', 'x']) {
      t.like(await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit } }), {
        status: 400,
        body: { code: 'INVALID_REQUEST' },
      });
    }
    const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator });
    t.true(EventList.parse(reply.body).events.length <= 50);
  });
}
