// Debian's openNDS run inside a gateway network namespace, in private mount and PID namespaces of its
// own, so that nothing it writes outlives the run:
// - /etc is an overlay whose upper layer is this run's folder: openNDS's scripts read the config
//   from the fixed /etc/opennds/opennds.conf and edit /etc/hosts and /etc/dnsmasq.conf;
// - /tmp and /run are private tmpfs (its client database, logs, ndsctl socket and lock);
// - PATH starts with this run's bin/: `iptables` is iptables-legacy, the variant openNDS 9.10
//   is said to need (DESIGN.md; Debian's default alternative, iptables-nft, passed the same
//   tests once too; the system alternative stays as it is), and `systemctl` does nothing (its
//   dnsconfig.sh restarts the host's dnsmasq otherwise);
// - /usr/lib/opennds/post-request.php is router/post-request.php, the signing one an operator
//   installs (docs/operate/opennds.md): every request to the FAS carries the faskey's HMAC.
// ndsctl runs in the same namespaces through nsenter. Stopped by its pid, then the folder goes.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../child-process.js';
import { run, waitFor, withoutMacs, type CommandResult } from './command.js';
import { dnsmasqLeases, openndsConfig, type Lease, type OpenndsOptions } from './opennds-config.js';

export const OPENNDS = '/usr/bin/opennds';
const SIGNING_POST_REQUEST = fileURLToPath(new URL('../../edge/router/post-request.php', import.meta.url));

// openNDS and its scripts run with the system's PATH only: under npm or npx, PATH starts with
// node_modules/.bin, whose `nft` is @vercel/nft's CLI, and openNDS probes `nft` (nftables) on
// every check: each probe then started Node (17 s of start-up under load instead of 1).
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

// Runs as `sh -c SCRIPT sh <folder>` after `ip netns exec` and `unshare --mount`.
const LAUNCH = `set -e
D="$1"
mount -t overlay ndst-etc -o "lowerdir=/etc,upperdir=$D/etc-upper,workdir=$D/etc-work" /etc
mount -t tmpfs ndst-run /run
mkdir -p /run/tmpfiles.d /run/ndst
mount --bind "$D" /run/ndst
mount -t tmpfs ndst-tmp /tmp
mount --bind /run/ndst/post-request.php /usr/lib/opennds/post-request.php
ln -s /run/ndst/dhcp.leases /tmp/dhcp.leases
export PATH="/run/ndst/bin:${SYSTEM_PATH}"
if [ -e /run/ndst/ca.pem ]; then export SSL_CERT_FILE=/run/ndst/ca.pem; fi
exec ${OPENNDS} -f -c /etc/opennds/opennds.conf
`;

export interface RunningGateway {
  pid: number;
  /** openNDS's output so far, MAC addresses replaced. */
  output(): string;
  /** `ndsctl <args>` inside the gateway's network and mount namespaces. */
  ndsctl(...args: string[]): Promise<CommandResult>;
  /**
   * Starts a router-side shell script inside the gateway's namespaces; stop it by its pid. The
   * script is copied into the gateway's folder first: inside, /tmp is a tmpfs of its own, so a
   * checkout under /tmp (a fresh clone there) would be out of the router's sight.
   */
  runScript(hostPath: string, args: readonly string[]): ChildProcess;
  /** Replaces the DHCP lease file openNDS consults. */
  setLeases(leases: readonly Lease[]): void;
  stop(): Promise<void>;
}

function prepareFolder(options: OpenndsOptions, leases: readonly Lease[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-'));
  for (const sub of ['etc-upper/opennds', 'etc-work', 'bin']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'etc-upper', 'opennds', 'opennds.conf'), openndsConfig(options), { mode: 0o600 });
  copyFileSync(SIGNING_POST_REQUEST, join(dir, 'post-request.php'));
  symlinkSync('/usr/sbin/iptables-legacy', join(dir, 'bin', 'iptables'));
  symlinkSync('/usr/sbin/ip6tables-legacy', join(dir, 'bin', 'ip6tables'));
  writeFileSync(join(dir, 'bin', 'systemctl'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(dir, 'dhcp.leases'), dnsmasqLeases(leases, Math.floor(Date.now() / 1000) + 86_400));
  return dir;
}

/** Starts openNDS in `ns`; resolves once ndsctl answers and its web server listens. */
export interface GatewayRunOptions {
  /** A PEM file the gateway's PHP (authmon, level 3) trusts, through SSL_CERT_FILE: a test FAS's certificate. */
  trustCaFile?: string;
}

export async function startGateway(ns: string, options: OpenndsOptions, leases: readonly Lease[], extra: GatewayRunOptions = {}): Promise<RunningGateway> {
  const dir = prepareFolder(options, leases);
  if (extra.trustCaFile !== undefined) copyFileSync(extra.trustCaFile, join(dir, 'ca.pem'));
  // A PID namespace too: openNDS runs `kill $(pgrep -f usr/lib/opennds/authmon.sh)` on start and
  // stop (main.c), which on a shared PID space ends every other openNDS's authmon on the machine.
  // openNDS is PID 1 there, so when it exits the kernel ends what it left running; it gets
  // SIGTERM when unshare (the pid we hold) is stopped.
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns,
      'unshare',
      '--mount',
      '--propagation',
      'private',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child=SIGTERM',
      '--',
      '/bin/sh',
      '-c',
      LAUNCH,
      'sh',
      dir,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += withoutMacs(chunk.toString());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const pid = child.pid;
  // The environment openNDS's own children get: a script run here calls the FAS as authmon does.
  const environment = [`PATH=${SYSTEM_PATH}`, ...(extra.trustCaFile === undefined ? [] : ['SSL_CERT_FILE=/run/ndst/ca.pem'])];
  const inside = (file: string, args: readonly string[]) => [
    '-t',
    String(pid),
    '-n',
    '-m',
    `--pid=/proc/${pid}/ns/pid_for_children`,
    'env',
    ...environment,
    file,
    ...args,
  ];
  const ndsctl = (...args: string[]) => run('nsenter', inside('ndsctl', args));
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (pid === undefined) throw new Error('opennds did not start');
    // openNDS opens the ndsctl socket after its firewall rules (main.c): until then the gateway
    // forwards everything, so ready is ndsctl answering.
    await waitFor(
      'openNDS ready (ndsctl status)',
      async () => {
        if (child.exitCode !== null) throw new Error(`opennds exited ${child.exitCode}:\n${output}`);
        const status = await ndsctl('status');
        return status.code === 0 && /openNDS Status/i.test(status.stdout) ? true : undefined;
      },
      30_000,
      200,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid,
    output: () => output,
    ndsctl,
    // A router script's complaints (no list from the FAS, ndsctl refused) join openNDS's output,
    // which a failing test prints: a revocation that never lands names its reason, not a timeout.
    runScript: (hostPath, args) => {
      const name = basename(hostPath);
      copyFileSync(hostPath, join(dir, name));
      const script = spawn('nsenter', inside('/bin/sh', [`/run/ndst/${name}`, ...args]), { stdio: ['ignore', 'ignore', 'pipe'] });
      script.stderr?.on('data', (chunk: Buffer) => collect(Buffer.from(chunk.toString().replace(/^(?=.)/gm, `[${name}] `))));
      return script;
    },
    setLeases: (next) => writeFileSync(join(dir, 'dhcp.leases'), dnsmasqLeases(next, Math.floor(Date.now() / 1000) + 86_400)),
    stop,
  };
}
