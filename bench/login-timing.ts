// `npm run bench:login-timing`: how long the portal takes to answer a refused customer sign-in
// (401 INVALID_CREDENTIALS) for a known account with a wrong password, an unknown account and a
// locked account, against a running platform (`make up`; PORTAL_URL, default
// http://localhost:3000). Spec 4.1 rule 4 asks that the three be told apart neither by body nor by
// time: the portal holds every refusal to one pace (services/portal/refusal-pace.ts). Writes p50,
// p95, mean and the spread of each kind, and the largest difference of medians, to
// bench/results/login-timing.json. Two accounts of its own are registered per run: one it locks
// (six wrong passwords), one whose failures it resets by a correct sign-in every third attempt
// (the realm locks after five).
import { randomUUID } from 'node:crypto';
import { machine, writeResult } from './lib/load.js';

const PORTAL = process.env['PORTAL_URL'] ?? 'http://localhost:3000';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 30);
const PASSWORD = `bench-${randomUUID()}`;

async function post(path: string, body: unknown): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const reply = await fetch(`${PORTAL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: PORTAL },
    body: JSON.stringify(body),
  });
  await reply.arrayBuffer();
  return { status: reply.status, ms: performance.now() - started };
}

async function register(): Promise<string> {
  const email = `bench-timing-${randomUUID()}@example.com`;
  const reply = await post('/api/v1/auth/register', { email, password: PASSWORD });
  if (reply.status !== 200) throw new Error(`registering ${email} answered ${reply.status}`);
  return email;
}

async function refusal(username: string, password: string): Promise<number> {
  const reply = await post('/api/v1/auth/login', { username, password });
  if (reply.status !== 401) throw new Error(`a refused sign-in answered ${reply.status}`);
  return reply.ms;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  return { n: samples.length, p50: at(0.5), p95: at(0.95), min: at(0), max: at(1), mean: Number(mean.toFixed(1)) };
}

const known = await register();
const locked = await register();
for (let i = 0; i < 6; i += 1) await refusal(locked, 'wrong-password');

const times: Record<'known' | 'unknown' | 'locked', number[]> = { known: [], unknown: [], locked: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  // Interleaved, so drift of the machine's load falls on all three alike.
  times.known.push(await refusal(known, 'wrong-password'));
  times.unknown.push(await refusal(`nobody-${randomUUID()}@example.com`, 'wrong-password'));
  times.locked.push(await refusal(locked, 'wrong-password'));
  if (round % 3 === 2 && (await post('/api/v1/auth/login', { username: known, password: PASSWORD })).status !== 200)
    throw new Error('the known account could not sign in');
}

const kinds = { known: summary(times.known), unknown: summary(times.unknown), locked: summary(times.locked) };
const medians = Object.values(kinds).map((kind) => kind.p50);
const result = {
  machine: machine(),
  portal: PORTAL,
  rounds: ROUNDS,
  kinds,
  largestMedianDifferenceMs: Number((Math.max(...medians) - Math.min(...medians)).toFixed(1)),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`written to ${writeResult('login-timing', result)}\n`);
