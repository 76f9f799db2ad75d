// Starts internet-server.ts inside the topology's internet namespace and collects what its FAS
// port received. Stopped by its pid (`ip netns exec` execs node, so the pid is node's).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { stopChild } from '../child-process.js';
import { waitFor } from './command.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

export interface RunningInternet {
  /** Request URLs (path and query) the FAS port received, oldest first. */
  fasRequests: string[];
  stop(): Promise<void>;
}

export async function startInternet(ns: string, ports: { web: number; fas?: number }): Promise<RunningInternet> {
  const args = ['netns', 'exec', ns, process.execPath, '--import', 'tsx', join(HERE, 'internet-server.ts'), String(ports.web)];
  if (ports.fas !== undefined) args.push(String(ports.fas));
  const child = spawn('ip', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const fasRequests: string[] = [];
  let ready = false;
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') ready = true;
    else if (line.startsWith('{')) fasRequests.push((JSON.parse(line) as { fas: string }).fas);
  });
  const stop = () => stopChild(child);
  try {
    await waitFor('internet server ready', async () => {
      if (child.exitCode !== null) throw new Error(`internet server exited ${child.exitCode}: ${errors}`);
      return ready ? true : undefined;
    }, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { fasRequests, stop };
}
