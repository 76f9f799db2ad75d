// Starts internet-server.ts inside the topology's internet namespace and collects what its FAS
// port received. Stopped by its pid (`ip netns exec` execs node, so the pid is node's).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { AuthmonGrant } from '../../edge/controllers/opennds-authmon.js';
import { stopChild } from '../child-process.js';
import { waitFor } from './command.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

/** One authmon call as the FAS received it (payload base64-decoded). */
export interface AuthmonRequest {
  action: string;
  gatewayhash: string;
  payload: string;
  /** The POST as it came: its path, content type and form body (payload still base64). */
  wire: { path: string; contentType: string; body: string };
}

export interface RunningInternet {
  /** Request URLs (path and query) the FAS port received from browsers, oldest first. */
  fasRequests: string[];
  authmonRequests: AuthmonRequest[];
  /** Queues a grant for the gateway's next authmon poll. */
  authorise(grant: AuthmonGrant): void;
  /** Lists an rhid for router/revocation-poll.sh's next poll. */
  revoke(rhid: string): void;
  stop(): Promise<void>;
}

export interface InternetOptions {
  web: number;
  fas?: number;
  /** PEM files: the FAS port speaks https (FAS level 3). */
  fasTls?: { certFile: string; keyFile: string };
  /** The FAS port relays to this Unix socket (fas-relay.ts) instead of answering as fas-stub.ts. */
  fasRelaySocket?: string;
}

export async function startInternet(ns: string, options: InternetOptions): Promise<RunningInternet> {
  const args = ['netns', 'exec', ns, process.execPath, '--import', 'tsx', join(HERE, 'internet-server.ts'), String(options.web)];
  if (options.fas !== undefined) args.push(String(options.fas));
  if (options.fas !== undefined && options.fasTls !== undefined) args.push(options.fasTls.certFile, options.fasTls.keyFile);
  const child = spawn('ip', args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FAS_RELAY_SOCKET: options.fasRelaySocket ?? '' } });
  const fasRequests: string[] = [];
  const authmonRequests: AuthmonRequest[] = [];
  let ready = false;
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') ready = true;
    if (!line.startsWith('{')) return;
    const message = JSON.parse(line) as { fas?: string; authmon?: AuthmonRequest };
    if (message.fas !== undefined) fasRequests.push(message.fas);
    if (message.authmon !== undefined) authmonRequests.push(message.authmon);
  });
  const stop = () => stopChild(child);
  try {
    await waitFor(
      'internet server ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`internet server exited ${child.exitCode}: ${errors}`);
        return ready ? true : undefined;
      },
      20_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    fasRequests,
    authmonRequests,
    authorise: (grant) => child.stdin.write(`${JSON.stringify({ authorise: grant })}\n`),
    revoke: (rhid) => child.stdin.write(`${JSON.stringify({ revoke: rhid })}\n`),
    stop,
  };
}
