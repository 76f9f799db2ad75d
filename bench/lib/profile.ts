// Where a process's CPU went, from the V8 CPU profile Node writes with --cpu-prof
// (BENCH_PROFILE_DIR, bench/lib/load.ts): the samples taken inside a measured window, their time
// grouped by what ran (our code, each npm package, each Node subsystem, the garbage collector,
// PostgreSQL compiled to WebAssembly), per operation. The window is given in the clock V8 stamps
// its samples with (CLOCK_MONOTONIC, microseconds), which `monotonicMicros` reads.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now, in the clock of a V8 profile's timestamps. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** What a frame belongs to: our code by folder, a package by name, Node by subsystem. */
export function categoryOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'V8 and native code outside JavaScript';
  if (functionName === '(idle)') return 'idle';
  if (url === '' && /^(wasm-function|\$|js-to-wasm|wasm-to-js)/.test(functionName)) return 'PGlite (PostgreSQL in WebAssembly)';
  if (url.startsWith('wasm://')) return 'PGlite (PostgreSQL in WebAssembly)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return `npm ${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? '')}`;
  }
  const internal = /^node:(?:internal\/)?([a-z_]+)/.exec(url);
  if (internal !== null) return `node ${internal[1] === 'deps' ? 'deps' : internal[1]}`;
  const ours = /\/(services|contract|dmn)\/([^/]+)/.exec(url);
  if (ours !== null) return `ours ${ours[1]}/${ours[2]}`;
  if (url === '') return `native ${functionName === '' ? '(anonymous)' : functionName}`;
  return 'other';
}

export interface ProfileSummary {
  /** Milliseconds the main thread was busy inside the window (busy samples x the sampling interval). */
  busyMs: number;
  /** Busy milliseconds per operation, by category, largest first. */
  msPerOperation: Record<string, number>;
  /** The functions with the most self time per operation. */
  topFunctions: { name: string; msPerOperation: number }[];
}

/** The busy samples of `file` between `fromMicros` and `toMicros`, per operation. */
export function summarizeProfile(file: string, fromMicros: number, toMicros: number, operations: number, top = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Each busy sample counts one sampling interval (the median gap): a gap longer than that is the
  // process waiting for a CPU (preempted, often right after a socket write woke the peer), which
  // is no CPU of its own and would otherwise be charged to whatever was interrupted.
  const gaps = [...profile.timeDeltas].sort((a, b) => a - b);
  const interval = gaps[Math.floor(gaps.length / 2)] ?? 1000;
  let at = profile.startTime;
  let busy = 0;
  for (let index = 0; index < profile.samples.length; index += 1) {
    at += profile.timeDeltas[index] ?? 0;
    const delta = interval;
    if (at < fromMicros || at > toMicros) continue;
    const frame = byId.get(profile.samples[index] as number);
    if (frame === undefined) continue;
    const category = categoryOf(frame);
    if (category === 'idle') continue;
    busy += delta;
    byCategory.set(category, (byCategory.get(category) ?? 0) + delta);
    const where = frame.url === '' ? '' : ` ${frame.url.replace(/^.*\/(node_modules|services|contract|dmn)\//, '$1/')}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
  }
  const perOperation = (micros: number) => Math.round((micros / 1000 / Math.max(1, operations)) * 1000) / 1000;
  return {
    busyMs: Math.round(busy / 1000),
    msPerOperation: Object.fromEntries([...byCategory].sort((a, b) => b[1] - a[1]).map(([name, micros]) => [name, perOperation(micros)])),
    topFunctions: [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, msPerOperation: perOperation(micros) })),
  };
}
