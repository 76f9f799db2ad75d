import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { requireTools } from '../../helpers/host-tools.js';

// Every file that sends RADIUS runs Debian's radclient against Debian's FreeRADIUS.
requireTools(['/usr/bin/radclient', '/usr/sbin/freeradius'], 'scripts/ensure-freeradius.sh installs them (make test runs it)');

/** A free UDP port on loopback, as the kernel hands it out. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

export interface RadiusAnswer {
  /** Access-Accept, Access-Reject, Accounting-Response, ... or 'none' when nothing came back. */
  code: string;
  attributes: Record<string, string>;
}

/** What every controller puts in an Access-Request since BlastRADIUS (radclient computes it for 0x00). */
export const MESSAGE_AUTHENTICATOR = 'Message-Authenticator = 0x00';

/**
 * Sends one packet with Debian's radclient (the gateway's side of RADIUS) and parses what came
 * back. `attributes` are radclient's input lines (`User-Name = "x"`); an Access-Request gets a
 * Message-Authenticator unless `attributes` says `Message-Authenticator` itself (or `!` to omit).
 * One try with a long wait by default (`-r` counts tries): a retransmission of a one-time
 * credential's request, sent while a loaded machine was still answering the first, is a second
 * use of it, which a test of single use must not make by accident.
 */
export function radclient(
  port: number,
  type: 'auth' | 'acct' | 'disconnect',
  secret: string,
  attributes: string[],
  timeoutSeconds = 15,
  retries = 1,
): Promise<RadiusAnswer> {
  const lines =
    type === 'auth' && !attributes.some((line) => line.includes('Message-Authenticator'))
      ? [...attributes, MESSAGE_AUTHENTICATOR]
      : attributes.filter((line) => line !== '!Message-Authenticator');
  return new Promise((resolve, reject) => {
    const child = spawn('radclient', ['-x', '-r', String(retries), '-t', String(timeoutSeconds), `127.0.0.1:${port}`, type, secret], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    // radclient may exit before reading its input (a line it cannot parse): its answer is then 'none'.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${lines.join('\n')}\n`);
    child.once('close', () => {
      const received = /^Received (\S+) Id \d+/m.exec(output);
      const answer: RadiusAnswer = { code: received?.[1] ?? 'none', attributes: {} };
      if (received) {
        for (const line of output.slice(received.index).split('\n').slice(1)) {
          const match = /^\s+([A-Za-z0-9-]+) = (.*)$/.exec(line);
          if (match) answer.attributes[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
        }
      }
      resolve(answer);
    });
  });
}

/** The bytes of a hex attribute value as radclient prints it (`0x...`), as text. */
export const hexText = (value: string | undefined): string => Buffer.from((value ?? '').replace(/^0x/, ''), 'hex').toString('utf8');
