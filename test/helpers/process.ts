import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningService {
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** Starts a service's main.ts as its own process (tsx) with this environment; resolves once /health answers 200. */
export async function startServiceProcess(service: string, port: number, env: Record<string, string>): Promise<RunningService> {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${service} exited: ${output.join('')}`);
        return (await fetch(`${url}/health`).catch(() => undefined))?.status;
      },
      (status) => status === 200,
      { timeoutMs: 180_000, intervalMs: 100 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, output, stop };
}
