// `npm run bench:dmn`, in one run:
// (a) WifiEntitlement evaluated in process by the compiled engine;
// (b) the same table evaluated by calling feelin's evaluate/unaryTest on every cell, uncompiled;
// (c) HTTP evaluate against a bare JSON route of the same Express stack, at concurrency 32;
// (d) a model whose literal expression invokes a business knowledge model, in process.
// Targets: (a) >= 1,000,000 evaluations/s and >= 100 x (b); (c) >= 70% of the bare route.
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { dmnEngineBundle } from '../scripts/bundles.js';
import { evaluate as feelEvaluate, unaryTest } from 'feelin';
import type { ParsedTable } from '../dmn/engine/parsed-model.js';
import { compare, machine, startServer, warm, writeResult } from './lib/load.js';

// (a) measures the engine as it ships: the esbuild bundle Keycloak loads (the service runs tsc's
// output, which performs alike). Imported as written by tsx, the engine would carry tsx's
// development transform (a name-keeping wrapper on every function), which ships nowhere.
const ENGINE_BUILD = 'scripts/bundles.ts dmnEngineBundle("esm"): esbuild, neutral platform, es2022, as the Keycloak extension is built';
const engineSource = await dmnEngineBundle('esm');
const { evaluate, loadModel, parseModel }: typeof import('../dmn/engine/index.js') = await import(
  `data:text/javascript;base64,${Buffer.from(engineSource).toString('base64')}`
);

const MODEL_FILE = 'dmn/models/WifiEntitlement.dmn';
const BKM_MODEL_FILE = 'test/dmn/models/bench/Surcharge.dmn';
const DECISION = 'WifiEntitlement';
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

// One input set per rule of spec 4.5, evaluated in turn.
const SAMPLES: Array<Record<string, unknown>> = [
  { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_B' },
  { userType: 'EMPLOYEE', employeeVerified: true, company: 'PARTNER-X' },
  { userType: 'EMPLOYEE', employeeVerified: false, company: 'MEMBER_A' },
  { userType: 'CUSTOMER', employeeVerified: false, company: null },
  { userType: 'CONTRACTOR', employeeVerified: null, company: null },
];

/** (b): the table as an interpreter without compilation runs it, feelin parsing every cell on every call. */
function perCellWithFeelin(table: ParsedTable, inputs: Record<string, unknown>): Record<string, unknown> | null {
  const values = table.inputs.map((clause) => feelEvaluate(clause.expression, inputs).value);
  for (const rule of table.rules) {
    if (rule.inputEntries.every((entry, i) => unaryTest(entry, { ...inputs, '?': values[i] }).value === true)) {
      return Object.fromEntries(table.outputs.map((output, i) => [output.name, feelEvaluate(rule.outputEntries[i] ?? 'null', inputs).value ?? null]));
    }
  }
  return null;
}

/** Evaluations per second of `run`, best of `rounds` rounds of `seconds` each after a short warm-up. */
function perSecond(run: (i: number) => unknown, seconds: number, rounds = 5): number {
  let i = 0;
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) run(i++);
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    let count = 0;
    const start = performance.now();
    const end = start + (seconds * 1000) / rounds;
    while (performance.now() < end) {
      for (let k = 0; k < 100; k++) run(i++);
      count += 100;
    }
    best = Math.max(best, count / ((performance.now() - start) / 1000));
  }
  return Math.round(best);
}

const xml = await readFile(MODEL_FILE, 'utf8');
const compiled = await loadModel(xml);
const parsed = await parseModel(xml);
if (!compiled.ok || !parsed.ok) throw new Error(`${MODEL_FILE} does not load`);
const table = parsed.value.decisions.find((d) => d.name === DECISION)?.table;
if (!table) throw new Error(`${MODEL_FILE} has no ${DECISION} table`);

// Both ways must agree before their speeds are worth comparing.
for (const sample of SAMPLES) {
  const outcome = evaluate(compiled.value, sample, DECISION);
  const expected = outcome.ok ? outcome.results[DECISION] : outcome.error;
  if (!isDeepStrictEqual(expected, perCellWithFeelin(table, sample))) throw new Error(`compiled and per-cell results differ for ${JSON.stringify(sample)}`);
}

const model = compiled.value;
const compiledRate = perSecond((i) => evaluate(model, SAMPLES[i % SAMPLES.length] as Record<string, unknown>, DECISION), SECONDS);
const bkmModel = await loadModel(await readFile(BKM_MODEL_FILE, 'utf8'));
if (!bkmModel.ok) throw new Error(`${BKM_MODEL_FILE} does not load`);
const bkmCheck = evaluate(bkmModel.value, { amount: 100 });
if (!bkmCheck.ok || bkmCheck.results.Total !== 106) throw new Error(`${BKM_MODEL_FILE} evaluates wrongly`);
const bkmRate = perSecond((i) => evaluate(bkmModel.value, { amount: i % 1000 }), SECONDS);
const perCellRate = perSecond((i) => perCellWithFeelin(table, SAMPLES[i % SAMPLES.length] as Record<string, unknown>), SECONDS);

const body = { inputs: SAMPLES[3], decision: DECISION };
const bare = await startServer('bench/servers/bare.ts', 3995);
const decision = await startServer('services/decision/main.ts', 3996, { DMN_DIR: 'dmn/models' });
try {
  const evaluateUrl = `${decision.url}/api/v1/decisions/WifiEntitlement/evaluate`;
  await warm({ url: `${bare.url}/bare`, body, connections: CONNECTIONS });
  await warm({ url: evaluateUrl, body, connections: CONNECTIONS });
  const [bareResult, evaluateResult] = await compare(
    { url: `${bare.url}/bare`, body, connections: CONNECTIONS, seconds: SECONDS },
    { url: evaluateUrl, body, connections: CONNECTIONS, seconds: SECONDS },
  );
  const speedup = compiledRate / perCellRate;
  const httpRatio = evaluateResult.requestsPerSecond / bareResult.requestsPerSecond;
  const met = {
    compiledRate: compiledRate >= 1_000_000,
    speedup: speedup >= 100,
    httpRatio: httpRatio >= 0.7 && evaluateResult.non2xx === 0 && evaluateResult.errors === 0,
  };
  const result = {
    benchmark: 'dmn',
    at: new Date().toISOString(),
    machine: machine(),
    model: MODEL_FILE,
    decision: DECISION,
    inProcess: {
      engine: ENGINE_BUILD,
      method: `best of 5 rounds over ${SECONDS} s, the ${SAMPLES.length} rule samples in turn`,
      compiledEvaluationsPerSecond: compiledRate,
      feelinPerCellEvaluationsPerSecond: perCellRate,
      speedup: Math.round(speedup),
    },
    bkmLiteral: {
      model: BKM_MODEL_FILE,
      what: 'a literal expression invoking a BKM whose body is a literal expression; both in the compiled FEEL subset, no feelin call',
      evaluationsPerSecond: bkmRate,
    },
    http: {
      method: 'best of 3 alternating rounds each',
      connections: CONNECTIONS,
      seconds: SECONDS,
      bare: bareResult,
      evaluate: evaluateResult,
      evaluateToBareRatio: Math.round(httpRatio * 1000) / 1000,
    },
    targets: { compiledEvaluationsPerSecondAtLeast: 1_000_000, speedupAtLeast: 100, evaluateToBareRatioAtLeast: 0.7 },
    met: { ...met, all: met.compiledRate && met.speedup && met.httpRatio },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('dmn', result)}\n`);
} finally {
  await Promise.all([bare.stop(), decision.stop()]);
}
