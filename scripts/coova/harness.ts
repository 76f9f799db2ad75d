// A real CoovaChilli (1.8 or 1.9, built by scripts/ensure-coova.sh into .cache/coova/<release>/)
// in network namespaces named `cvt-<tag>-*` (never openNDS's `ndst-`): a client namespace whose
// eth0 gets its DHCP lease from chilli, chilli's namespace routing to an "internet" namespace
// with the web server of the openNDS harness, and the platform outside the namespaces reached
// through relays: RADIUS and Disconnect/CoA by radius-relay.py (FreeRADIUS sees the gateway at
// its registry address on loopback), the portal through a Unix socket to a relay listening on
// the client's own loopback at the portal's public port, so the client's browser opens the very
// URL chilli redirects to and signs (HS_UAMFORMAT = the portal's public URL + /gateway).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../child-process.js';
import { must, run, waitFor, withoutMacs } from '../opennds/command.js';
import { bridgeToTcp } from '../opennds/fas-relay.js';
import { startInternet, type RunningInternet } from '../opennds/internet.js';
import { chilliConf, type ChilliSettings } from './chilli-config.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
export const PREFIX = 'cvt-';
export const RELEASES = ['1.8', '1.9'] as const;
export type Release = (typeof RELEASES)[number];

/** Where ensure-coova.sh puts a release. */
export const chilliBinary = (release: Release, program = 'chilli') => join(ROOT, '.cache', 'coova', release, 'sbin', program);

/** The programs a chilli test runs; the test fails at once naming what is missing. */
export const COOVA_TOOLS = ['/usr/bin/ip', '/usr/bin/curl', '/usr/sbin/udhcpc', '/usr/bin/python3', '/usr/sbin/ethtool'] as const;

const WAN = '198.51.100'; // TEST-NET-2 (RFC 5737): stands for the public side
/** The address chilli's namespace knows its RADIUS server by (the relay listens there). */
const RADIUS_IP = '10.99.0.1';

export interface ChilliClient {
  ns: string;
  /** The leased address; empty until `lease()`. */
  ip: string;
  /** Locally administered; kept out of logs. */
  mac: string;
}

export interface RunningChilli {
  release: Release;
  settings: ChilliSettings;
  conf: string;
  client: ChilliClient;
  /** The client's leased address (after `lease()`). */
  clientIp(): string | undefined;
  internetUrl: string;
  /** chilli's own pages: http://uamlisten:uamport */
  uamOrigin: string;
  /** DHCP from chilli: resolves with the leased address. */
  lease(): Promise<string>;
  /** chilli's output so far (MACs removed). */
  output(): string;
  /** `chilli_query list`: chilli's view of its sessions. */
  query(...args: string[]): Promise<string>;
  folder: string;
  internet: RunningInternet;
  stop(): Promise<void>;
}

export interface ChilliOptions {
  release: Release;
  nasId: string;
  uamSecret: string;
  radiusSecret: string;
  /** The gateway's registry address (loopback): FreeRADIUS sees chilli there; Disconnects go there. */
  nasIp: string;
  /** The registry's coaPort: the relay takes the gateway service's Disconnects there. */
  coaPort: number;
  /** Third octet of the client network 10.71.<n>.0/24 (the registry's login URL names its .1). */
  subnet: number;
  portal: string;
  radius: { server: string; auth: number; acct: number };
  homepage?: boolean;
  macAuth?: boolean;
}

/** The settings a release runs with (also what the README's chilli.conf is compared with). */
export function settingsFor(
  options: Pick<ChilliOptions, 'subnet' | 'portal' | 'uamSecret' | 'radiusSecret' | 'nasId' | 'homepage' | 'macAuth'>,
  stateDir: string,
): ChilliSettings {
  const uamListen = `10.71.${options.subnet}.1`;
  return {
    lanInterface: 'lan0',
    network: `10.71.${options.subnet}.0/24`,
    uamListen,
    uamPort: 3990,
    portalArrivalUrl: `${options.portal}/gateway`,
    ...(options.homepage === true ? { homepage: `${options.portal}/gateway` } : {}),
    uamSecret: options.uamSecret,
    uamAllowed: new URL(options.portal).hostname,
    radiusServer: RADIUS_IP,
    radiusSecret: options.radiusSecret,
    nasId: options.nasId,
    coaPort: 3799,
    macAuth: options.macAuth === true,
    stateDir,
  };
}

const ip = (...args: string[]) => must('ip', args);

function lines(child: ChildProcess, into: string[]): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream !== null) createInterface({ input: stream }).on('line', (line) => into.push(withoutMacs(line)));
  }
}

export async function startChilli(options: ChilliOptions): Promise<RunningChilli> {
  const tag = randomBytes(3).toString('hex');
  const name = (role: string) => `${PREFIX}${tag}-${role}`;
  const gw = name('gw');
  const inet = name('inet');
  const client: ChilliClient = { ns: name('c1'), ip: '', mac: `02:63:76:00:${options.subnet.toString(16).padStart(2, '0')}:11` };
  const folder = mkdtempSync(join(tmpdir(), 'cvt-'));
  const stateDir = join(folder, 'state');
  mkdirSync(stateDir);
  const stops: Array<() => Promise<void>> = [];
  const namespaces: string[] = [];
  const stop = async () => {
    for (const part of stops.reverse()) await part().catch(() => undefined);
    stops.length = 0;
    for (const ns of namespaces) {
      for (const pid of (await run('ip', ['netns', 'pids', ns])).stdout.split(/\s+/).filter((p) => /^\d+$/.test(p))) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await run('ip', ['netns', 'del', ns]);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const output: string[] = [];
  try {
    for (const ns of [gw, inet, client.ns]) {
      await ip('netns', 'add', ns);
      namespaces.push(ns);
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    await ip('-n', client.ns, 'link', 'add', 'eth0', 'address', client.mac, 'type', 'veth', 'peer', 'name', 'lan0', 'netns', gw);
    await ip('-n', gw, 'link', 'set', 'lan0', 'up');
    await ip('-n', client.ns, 'link', 'set', 'eth0', 'up');
    // A veth leaves the TCP/UDP checksum of what the client sends for the receiving kernel to
    // fill in (checksum offload). chilli reads lan0 with a raw socket and writes each packet to
    // its tun device as it came, so without this the internet namespace drops every packet of the
    // client's as a checksum error (TcpInCsumErrors) and nothing passes chilli. A real device's
    // NIC or Wi-Fi chip puts the checksum in before the packet is on the air.
    await must('ip', ['netns', 'exec', client.ns, 'ethtool', '-K', 'eth0', 'tx', 'off']);
    await ip('-n', gw, 'link', 'add', 'wan', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', inet);
    await ip('-n', gw, 'addr', 'add', `${WAN}.1/24`, 'dev', 'wan');
    await ip('-n', gw, 'link', 'set', 'wan', 'up');
    await ip('-n', gw, 'addr', 'add', `${RADIUS_IP}/32`, 'dev', 'lo');
    await ip('-n', inet, 'addr', 'add', `${WAN}.10/24`, 'dev', 'eth0');
    await ip('-n', inet, 'link', 'set', 'eth0', 'up');
    await ip('-n', inet, 'route', 'add', `10.71.${options.subnet}.0/24`, 'via', `${WAN}.1`);
    await must('ip', ['netns', 'exec', gw, 'sysctl', '-qw', 'net.ipv4.ip_forward=1']);
    // chilli reads the LAN itself (a raw socket on lan0): the kernel must not also route what
    // arrives there, or a captive device's packets pass chilli by (chilli's own ipup.sh drops
    // FORWARD from the LAN interface with iptables for the same reason).
    await must('ip', ['netns', 'exec', gw, 'sysctl', '-qw', 'net.ipv4.conf.lan0.forwarding=0']);

    const internet = await startInternet(inet, { web: 80 });
    stops.push(() => internet.stop());
    // The portal on the client's loopback at its public port, through a Unix socket.
    const socket = join(folder, 'portal.sock');
    const portalUrl = new URL(options.portal);
    const bridge: Server = await bridgeToTcp(socket, Number(portalUrl.port || 80), portalUrl.hostname === 'localhost' ? '127.0.0.1' : portalUrl.hostname);
    stops.push(() => new Promise<void>((resolve) => bridge.close(() => resolve())));
    const portalRelay = await startInternet(client.ns, { web: 8079, fas: Number(portalUrl.port || 80), fasRelaySocket: socket });
    stops.push(() => portalRelay.stop());

    const relay = spawn(
      '/usr/bin/python3',
      [
        join(HERE, 'radius-relay.py'),
        `/run/netns/${gw}`,
        RADIUS_IP,
        options.nasIp,
        options.radius.server,
        String(options.radius.auth),
        String(options.radius.acct),
        String(options.coaPort),
        '3799',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    stops.push(() => stopChild(relay));
    const relayOut: string[] = [];
    lines(relay, relayOut);
    await waitFor(
      'the RADIUS relay listens',
      async () => {
        if (relay.exitCode !== null) throw new Error(`radius-relay.py exited ${relay.exitCode}: ${relayOut.join('\n')}`);
        return relayOut.includes('ready') ? true : undefined;
      },
      10_000,
    );

    const settings = settingsFor(options, stateDir);
    const conf = chilliConf(settings);
    const confFile = join(folder, 'chilli.conf');
    writeFileSync(confFile, conf);
    const chilli = spawn('ip', ['netns', 'exec', gw, chilliBinary(options.release), '--fg', '--debug', '--conf', confFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(() => stopChild(chilli));
    lines(chilli, output);
    await waitFor(
      `chilli ${options.release} has its tun device up`,
      async () => {
        if (chilli.exitCode !== null) throw new Error(`chilli exited ${chilli.exitCode}: ${output.slice(-30).join('\n')}`);
        const shown = await run('ip', ['-n', gw, '-br', 'addr', 'show', 'dev', 'tun0']);
        return shown.code === 0 && shown.stdout.includes(settings.uamListen) ? true : undefined;
      },
      20_000,
    );

    const dhcpScript = join(folder, 'udhcpc.sh');
    writeFileSync(
      dhcpScript,
      '#!/bin/sh\n[ "$1" = bound ] || [ "$1" = renew ] || exit 0\nip addr flush dev "$interface"\nip addr add "$ip/${mask:-24}" dev "$interface"\n[ -n "$router" ] && ip route replace default via "${router%% *}" dev "$interface"\necho "leased $ip"\n',
    );
    chmodSync(dhcpScript, 0o755);
    let leased: string | undefined;
    return {
      release: options.release,
      settings,
      conf,
      client,
      clientIp: () => leased,
      internetUrl: `http://${WAN}.10/news`,
      uamOrigin: `http://${settings.uamListen}:${settings.uamPort}`,
      async lease() {
        const answer = await must(
          'ip',
          ['netns', 'exec', client.ns, 'udhcpc', '-i', 'eth0', '-n', '-q', '-f', '-t', '10', '-T', '1', '-s', dhcpScript],
          30_000,
        );
        leased = /leased (\S+)/.exec(answer)?.[1];
        if (leased === undefined) throw new Error(`no lease: ${answer}`);
        client.ip = leased;
        return leased;
      },
      output: () => output.join('\n'),
      query: (...args) => must('ip', ['netns', 'exec', gw, chilliBinary(options.release, 'chilli_query'), '-s', join(stateDir, 'cmd.sock'), ...args]),
      folder,
      internet,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
