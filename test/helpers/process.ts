import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopChild, waitHealthy } from '../../scripts/child-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningService {
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

// Children still running when this test worker ends (a test that threw before its teardown was
// registered) are killed with it, so a failing test never leaves a service behind.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a service's main.ts as its own process (tsx) with this environment; resolves once
 * /health answers 200 (a first PGlite start on a busy machine may take a while).
 */
export async function startServiceProcess(service: string, port: number, env: Record<string, string>): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 180_000).catch(async (error: Error) => {
    await stopChild(child);
    throw new Error(`${service}: ${error.message} ${output.join('')}`);
  });
  return { url, child, output, stop: () => stopChild(child) };
}
