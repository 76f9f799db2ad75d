// A client's plain-http request from inside its network namespace (curl, as a browser would).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../scripts/opennds/command.js';
import { INTERNET_MARKER } from '../../scripts/opennds/internet-marker.js';
import type { ClientHost } from '../../scripts/opennds/topology.js';

// Generous: openNDS answers a captive request by starting PHP to encrypt the FAS query, slow on a
// loaded machine (the whole suite runs beside these tests).
const TIMEOUT_S = 10;

export interface Answer {
  status: number;
  location: string;
  body: string;
}

/** One GET; a refused or timed-out request is status 0. `insecure` accepts the test FAS's own certificate. */
export async function get(client: ClientHost, url: string, insecure = false): Promise<Answer> {
  const args = ['netns', 'exec', client.ns, 'curl', '-s', '-m', String(TIMEOUT_S), '-w', '\n%{http_code} %{redirect_url}'];
  if (insecure) args.push('-k');
  const result = await run('ip', [...args, url]);
  const end = result.stdout.lastIndexOf('\n');
  const [status = '0', location = ''] = result.stdout.slice(end + 1).split(' ');
  return { status: Number(status), location, body: result.stdout.slice(0, Math.max(end, 0)) };
}

/** A POST of `bytes` bytes (an upload through openNDS); the internet server answers how many it received. */
export async function post(client: ClientHost, url: string, bytes: number): Promise<Answer> {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-upload-'));
  try {
    const file = join(dir, 'body');
    writeFileSync(file, Buffer.alloc(bytes, 0x62));
    const args = ['netns', 'exec', client.ns, 'curl', '-s', '-m', String(TIMEOUT_S), '-w', '\n%{http_code}', '--data-binary', `@${file}`];
    const result = await run('ip', [...args, '-H', 'content-type: application/octet-stream', url]);
    const end = result.stdout.lastIndexOf('\n');
    return { status: Number(result.stdout.slice(end + 1)), location: '', body: result.stdout.slice(0, Math.max(end, 0)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the answer came from the internet server, not from openNDS. */
export const reachesInternet = (answer: Answer) => answer.status === 200 && answer.body.startsWith(INTERNET_MARKER);
