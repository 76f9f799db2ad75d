import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningService {
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** Waits until `check` resolves true, polling; fails after `timeoutMs` with `what`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
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
    await waitFor(`${service} on ${port}`, async () => {
      if (child.exitCode !== null) throw new Error(`${service} exited: ${output.join('')}`);
      return (await fetch(`${url}/health`)).status === 200;
    }, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, output, stop };
}
