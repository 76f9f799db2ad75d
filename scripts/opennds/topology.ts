// The network of the openNDS harness, all in network namespaces named `ndst-<tag>-*` (nothing in
// the root namespace): clients on the gateway's LAN bridge `br-lan` (openNDS's default interface
// name), the gateway routing to an "internet" namespace. Every link is created inside its
// namespaces, so removing the namespaces removes everything this module made.
import { randomBytes } from 'node:crypto';
import { must, run } from './command.js';

export const PREFIX = 'ndst-';
export const LAN_INTERFACE = 'br-lan';

export interface ClientHost {
  ns: string;
  ip: string;
  /** Locally administered, so it never names a real device; still kept out of logs. */
  mac: string;
}

export interface Topology {
  tag: string;
  gateway: { ns: string; lanIp: string; wanIp: string };
  internet: { ns: string; ip: string };
  clients: ClientHost[];
}

const LAN = '192.168.77';
const WAN = '203.0.113'; // TEST-NET-3 (RFC 5737): stands for a public address

const ip = (...args: string[]) => must('ip', args);

/** The namespaces a topology holds, gateway first. */
export function namespacesOf(topology: Topology): string[] {
  return [topology.gateway.ns, topology.internet.ns, ...topology.clients.map((c) => c.ns)];
}

async function addClient(gatewayNs: string, ns: string, index: number): Promise<ClientHost> {
  const host: ClientHost = { ns, ip: `${LAN}.${10 + index}`, mac: `02:6e:64:73:00:${(0x10 + index).toString(16)}` };
  await ip('-n', ns, 'link', 'add', 'eth0', 'address', host.mac, 'type', 'veth', 'peer', 'name', `lan${index}`, 'netns', gatewayNs);
  await ip('-n', gatewayNs, 'link', 'set', `lan${index}`, 'master', LAN_INTERFACE, 'up');
  await ip('-n', ns, 'addr', 'add', `${host.ip}/24`, 'dev', 'eth0');
  await ip('-n', ns, 'link', 'set', 'eth0', 'up');
  await ip('-n', ns, 'route', 'add', 'default', 'via', `${LAN}.1`);
  return host;
}

/**
 * Builds the namespaces and links; on any failure removes what it made and rethrows.
 * `tag` (default: random) keeps runs on one machine apart.
 */
export async function createTopology(options: { clients: number; tag?: string }): Promise<Topology> {
  const tag = options.tag ?? randomBytes(3).toString('hex');
  const name = (role: string) => `${PREFIX}${tag}-${role}`;
  const topology: Topology = {
    tag,
    gateway: { ns: name('gw'), lanIp: `${LAN}.1`, wanIp: `${WAN}.1` },
    internet: { ns: name('inet'), ip: `${WAN}.10` },
    clients: [],
  };
  const made: string[] = [];
  try {
    for (const ns of [topology.gateway.ns, topology.internet.ns]) {
      await ip('netns', 'add', ns);
      made.push(ns);
    }
    const gw = topology.gateway.ns;
    const inet = topology.internet.ns;
    for (const ns of [gw, inet]) await ip('-n', ns, 'link', 'set', 'lo', 'up');
    await ip('-n', gw, 'link', 'add', LAN_INTERFACE, 'type', 'bridge', 'forward_delay', '0');
    await ip('-n', gw, 'addr', 'add', `${topology.gateway.lanIp}/24`, 'dev', LAN_INTERFACE);
    await ip('-n', gw, 'link', 'set', LAN_INTERFACE, 'up');
    await ip('-n', gw, 'link', 'add', 'wan', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', inet);
    await ip('-n', gw, 'addr', 'add', `${topology.gateway.wanIp}/24`, 'dev', 'wan');
    await ip('-n', gw, 'link', 'set', 'wan', 'up');
    await ip('-n', inet, 'addr', 'add', `${topology.internet.ip}/24`, 'dev', 'eth0');
    await ip('-n', inet, 'link', 'set', 'eth0', 'up');
    // No NAT on the gateway: the internet routes the LAN back to it, so the server sees client addresses.
    await ip('-n', inet, 'route', 'add', `${LAN}.0/24`, 'via', topology.gateway.wanIp);
    await must('ip', ['netns', 'exec', gw, 'sysctl', '-qw', 'net.ipv4.ip_forward=1']);
    for (let index = 1; index <= options.clients; index += 1) {
      const ns = name(`c${index}`);
      await ip('netns', 'add', ns);
      made.push(ns);
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      topology.clients.push(await addClient(gw, ns, index));
    }
    return topology;
  } catch (error) {
    await removeNamespaces(made);
    throw error;
  }
}

// Processes still inside one of our namespaces (a script openNDS left running in the
// background) were started by this run: they are ended by pid, then the namespaces go.
async function removeNamespaces(names: readonly string[]): Promise<void> {
  const ours = names.filter((ns) => ns.startsWith(PREFIX));
  for (const ns of ours) {
    const pids = (await run('ip', ['netns', 'pids', ns])).stdout.split(/\s+/).filter((pid) => /^\d+$/.test(pid));
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const ns of ours) await run('ip', ['netns', 'del', ns]);
}

/** Deletes the topology's namespaces (their links go with them). Stop processes inside first. */
export function removeTopology(topology: Topology): Promise<void> {
  return removeNamespaces(namespacesOf(topology));
}
