// The chilli.conf a test CoovaChilli runs with (chilli's own option names, one per line, as its
// `--conf` reads them), and the HS_* names of its init-script configuration (conf/functions.in
// turns each into the option beside it) that the README's CoovaChilli section uses: the test
// compares the two, so the README says what the test ran.

/** HS_* name (the operator's /etc/chilli/config) -> the chilli option it becomes (conf/functions.in). */
export const HS_OPTIONS = {
  HS_LANIF: 'dhcpif',
  HS_UAMLISTEN: 'uamlisten',
  HS_UAMPORT: 'uamport',
  HS_UAMFORMAT: 'uamserver',
  HS_UAMHOMEPAGE: 'uamhomepage',
  HS_UAMSECRET: 'uamsecret',
  // A host name, not the portal's URL: functions.in puts it first in uamallowed (the walled garden).
  HS_UAMSERVER: 'uamallowed',
  HS_RADIUS: 'radiusserver1',
  HS_RADIUS2: 'radiusserver2',
  HS_RADSECRET: 'radiussecret',
  HS_NASID: 'radiusnasid',
  HS_COAPORT: 'coaport',
  HS_MACAUTH: 'macauth',
} as const;

export type HsName = keyof typeof HS_OPTIONS;

export interface ChilliSettings {
  /** The LAN interface chilli serves DHCP on. */
  lanInterface: string;
  /** The client network, e.g. 10.71.19.0/24; chilli takes its .1. */
  network: string;
  uamListen: string;
  uamPort: number;
  /** The portal's arrival URL (HS_UAMFORMAT), which chilli signs its redirect for. */
  portalArrivalUrl: string;
  /** uamhomepage: chilli then sends a device there with `loginurl=` (the signed redirect). */
  homepage?: string;
  uamSecret: string;
  uamAllowed: string;
  radiusServer: string;
  radiusSecret: string;
  nasId: string;
  coaPort: number;
  macAuth: boolean;
  /** Where chilli keeps its state and sockets (per run). */
  stateDir: string;
}

/** The HS_* settings of a chilli as an operator writes them. */
export function hsSettings(s: ChilliSettings): Partial<Record<HsName, string>> {
  return {
    HS_LANIF: s.lanInterface,
    HS_UAMLISTEN: s.uamListen,
    HS_UAMPORT: String(s.uamPort),
    HS_UAMFORMAT: s.portalArrivalUrl,
    ...(s.homepage === undefined ? {} : { HS_UAMHOMEPAGE: s.homepage }),
    HS_UAMSECRET: s.uamSecret,
    HS_UAMSERVER: s.uamAllowed,
    HS_RADIUS: s.radiusServer,
    HS_RADIUS2: s.radiusServer,
    HS_RADSECRET: s.radiusSecret,
    HS_NASID: s.nasId,
    HS_COAPORT: String(s.coaPort),
    ...(s.macAuth ? { HS_MACAUTH: 'on' } : {}),
  };
}

const quoted = (value: string) => (/^[A-Za-z0-9._:/-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '')}"`);

/** chilli.conf text: the HS_* settings as options, and what a run needs besides (network, state files). */
export function chilliConf(s: ChilliSettings): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(hsSettings(s)) as [HsName, string][]) {
    const option = HS_OPTIONS[name];
    lines.push(value === 'on' && name === 'HS_MACAUTH' ? option : `${option} ${quoted(value)}`);
  }
  lines.push(
    `net ${s.network}`,
    `dns1 ${s.uamListen}`,
    `dns2 ${s.uamListen}`,
    `statedir ${s.stateDir}`,
    `pidfile ${s.stateDir}/chilli.pid`,
    `cmdsocket ${s.stateDir}/cmd.sock`,
    `unixipc ${s.stateDir}/chilli.ipc`,
  );
  return `${lines.join('\n')}\n`;
}
