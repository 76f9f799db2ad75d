import test from 'ava';
import { pino } from 'pino';
import { ApiError } from '../../../services/kit/index.js';
import { openDatabase } from '../../../services/kit/store/index.js';
import { MIGRATIONS } from '../../../services/entitlement/app.js';
import type { DecisionClient, DecisionOutcome, DecisionOutputs } from '../../../services/entitlement/decision-client.js';
import { createEntitlementStore } from '../../../services/entitlement/entitlement-store.js';
import { evaluateEntitlement, type EvaluateDeps } from '../../../services/entitlement/evaluate-entitlement.js';
import type { LoyaltyClient } from '../../../services/entitlement/loyalty-client.js';
import type { TokenFacts } from '../../../services/entitlement/token-verifier.js';
import { countingStatements } from '../../helpers/databases.js';

// On PGlite (this process the store's only writer) a key's claim is kept in memory and
// its row written settled by the statement that stores the outcome: one statement per evaluation.
// A key settled before still answers its original outcome, whatever the decision says now and
// also when the decision cannot be had.

const log = pino({ level: 'silent' });
const facts: TokenFacts = {
  subjectId: 'sub-alone',
  userType: 'CUSTOMER',
  employeeVerified: null,
  verifiedPhone: null,
  company: null,
  email: null,
  emailVerified: false,
  employeeRef: null,
  wifiEligible: null,
};
const GRANT: DecisionOutputs = {
  eligible: true,
  entitlementType: 'CUSTOMER_BASELINE',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  deviceSlots: 1,
  sourceType: 'PLAIN_LOGIN',
  ttlSeconds: 3600,
  reason: null,
  dataAllowanceMb: null,
  timeAllowanceMinutes: null,
  allowancePeriod: null,
};
const DENY: DecisionOutputs = {
  eligible: false,
  entitlementType: null,
  tier: null,
  qosClass: null,
  deviceSlots: null,
  sourceType: null,
  ttlSeconds: null,
  reason: 'UNKNOWN_USER_TYPE',
  dataAllowanceMb: null,
  timeAllowanceMinutes: null,
  allowancePeriod: null,
};
const loyalty: LoyaltyClient = {
  lookup: async () => ({ source: 'skipped', memberTier: null, wifiBenefit: null, memberRef: null }),
  breakerState: () => 'closed',
};

async function setUp(decide: () => DecisionOutcome) {
  const db = countingStatements(await openDatabase('entitlement', { DATABASE_URL: 'memory:', DATA_DIR: '.data', DATABASE_POOL_SIZE: 1 }, MIGRATIONS));
  const decisions: DecisionClient = { decide: async () => decide() };
  const deps: EvaluateDeps = { store: createEntitlementStore(db, () => new Date()), loyalty, decisions, now: () => new Date() };
  const evaluate = (key: string, who: TokenFacts = facts) => evaluateEntitlement(deps, who, {}, key, 'corr-test', log);
  return { db, evaluate };
}

const codeOf = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return error instanceof ApiError ? error.code : String(error);
};

test('PGlite: an evaluation with a key runs one statement, a granted one as a denied one', async (t) => {
  let outputs = GRANT;
  const { db, evaluate } = await setUp(() => ({ kind: 'evaluated', outputs, by: 'service' }));
  t.teardown(() => db.close());
  const before = db.statements();
  const granted = await evaluate('key-grant');
  t.is(granted.status, 201);
  t.is(db.statements() - before, 1);
  outputs = DENY;
  const beforeDenial = db.statements();
  t.is(await codeOf(evaluate('key-deny')), 'ENTITLEMENT_DENIED');
  t.is(db.statements() - beforeDenial, 1);
});

test('PGlite: a key settled before answers its original outcome, not what the decision says now', async (t) => {
  let outputs = DENY;
  const { db, evaluate } = await setUp(() => ({ kind: 'evaluated', outputs, by: 'service' }));
  t.teardown(() => db.close());
  t.is(await codeOf(evaluate('key-1')), 'ENTITLEMENT_DENIED');
  outputs = GRANT;
  t.is(await codeOf(evaluate('key-1')), 'ENTITLEMENT_DENIED', 'the denial stands for its key');
  t.is((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM entitlements'))[0]?.n, '0', 'and nothing was stored for it');

  const first = await evaluate('key-2');
  t.is(first.status, 201);
  outputs = DENY;
  const again = await evaluate('key-2');
  t.like(again, { status: 200, replayed: true });
  t.is(again.entitlement.entitlementId, first.entitlement.entitlementId);
  t.deepEqual(
    await db.query("SELECT denial_reason FROM entitlement_requests WHERE idempotency_key = 'key-2'"),
    [{ denial_reason: null }],
    'the later denial changed nothing',
  );
  t.is(await codeOf(evaluate('key-2', { ...facts, subjectId: 'sub-other' })), 'IDEMPOTENCY_KEY_REUSED');
});

test('PGlite: with the decision service down, a key settled before still replays', async (t) => {
  let up = true;
  const { db, evaluate } = await setUp(() => (up ? { kind: 'evaluated', outputs: GRANT, by: 'service' } : { kind: 'unavailable' }));
  t.teardown(() => db.close());
  const first = await evaluate('key-down');
  up = false;
  const replay = await evaluate('key-down');
  t.like(replay, { status: 200, replayed: true });
  t.is(replay.entitlement.entitlementId, first.entitlement.entitlementId);
  t.is(await codeOf(evaluate('key-new')), 'DMN_UNAVAILABLE', 'a new key fails closed');
  up = true;
  t.is((await evaluate('key-new')).status, 201, 'and its claim was given up');
});
