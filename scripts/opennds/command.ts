// Running the system tools the openNDS harness needs (ip, nsenter, curl, ndsctl) and waiting on
// conditions. Output that may reach a log passes through `withoutMacs` first: openNDS and ip print
// client MAC addresses, and a MAC never goes to a log.
import { execFile } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

const MAC = /\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b/gi;

/** The text with every colon-separated MAC address replaced by a placeholder. */
export function withoutMacs(text: string): string {
  return text.replace(MAC, '<mac>');
}

/** Runs a program without a shell; resolves with its exit code and output, never rejects on a non-zero exit. */
export function run(file: string, args: readonly string[], timeoutMs = 15_000): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });
}

/** Runs a program and fails, with its (MAC-free) output, unless it exits 0. */
export async function must(file: string, args: readonly string[], timeoutMs?: number): Promise<string> {
  const result = await run(file, args, timeoutMs);
  // The arguments too: `ip link add ... address <mac>` names a client's MAC.
  if (result.code !== 0) throw new Error(withoutMacs(`${file} ${args.join(' ')} exited ${result.code}: ${result.stderr.trim() || result.stdout.trim()}`));
  return result.stdout;
}

/**
 * Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs` with
 * `what` and the last value seen: tests wait on conditions, never on fixed sleeps.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
