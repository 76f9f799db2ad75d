// Whether this machine can run the real openNDS enforcement test, and why not: root with
// CAP_NET_ADMIN (network namespaces, iptables), Debian's openNDS and the tools the harness uses.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { run } from '../../scripts/opennds/command.js';
import { PREFIX } from '../../scripts/opennds/topology.js';
import { requireTools } from '../helpers/host-tools.js';

const CAP_NET_ADMIN = 12n;
// What the harness and openNDS's own scripts run: the daemon, its control, the firewall it drives,
// the PHP of its FAS channel (authmon, BinAuth, router/revocation-poll.sh), the shell tools its
// library calls (pgrep, logger, df, awk) and the namespace tools.
const TOOLS = [
  '/usr/bin/opennds',
  '/usr/bin/ndsctl',
  '/usr/sbin/iptables-legacy',
  '/usr/bin/php',
  '/usr/bin/curl',
  '/usr/bin/nsenter',
  '/usr/bin/unshare',
  '/usr/bin/pgrep',
  '/usr/bin/logger',
  '/usr/bin/df',
  '/usr/bin/awk',
  '/usr/sbin/ip',
];

function hasNetAdmin(): boolean {
  const line = readFileSync('/proc/self/status', 'utf8').match(/^CapEff:\s*([0-9a-f]+)$/m);
  return line?.[1] !== undefined && ((BigInt(`0x${line[1]}`) >> CAP_NET_ADMIN) & 1n) === 1n;
}

/** Undefined when the test can run; otherwise the reason it is skipped. */
export async function enforcementSkipReason(): Promise<string | undefined> {
  if (process.platform !== 'linux') return `needs Linux network namespaces (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'needs root (network namespaces, iptables)';
  if (!hasNetAdmin()) return 'needs CAP_NET_ADMIN';
  // As root nothing stops the install (make test runs scripts/ensure-opennds.sh): a missing tool is
  // a failure that names it, not a skip.
  requireTools(TOOLS, 'scripts/ensure-opennds.sh installs it (make test runs it)');
  const probe = `${PREFIX}probe-${randomBytes(3).toString('hex')}`;
  const added = await run('ip', ['netns', 'add', probe]);
  if (added.code !== 0) return `ip netns add fails here: ${added.stderr.trim()}`;
  await run('ip', ['netns', 'del', probe]);
  return undefined;
}
