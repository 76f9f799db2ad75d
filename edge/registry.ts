import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { NAME_PATTERN, NAS_ID_PATTERN } from '../contract/ids.js';
import { CONTROLLER_PROFILES, PROFILE_IDS, type ControllerProfile, type ProfileId } from './controllers/index.js';
import type { Sealer } from '../services/kit/sealing.js';

const sealed = z.string().startsWith('v1.');

/** One line of the gateways file: a NAS that may send devices to the portal and ask RADIUS. */
const GatewayEntry = z
  .strictObject({
    nasId: z.string().regex(NAS_ID_PATTERN).describe('The NAS id; also the FreeRADIUS client name and part of deviceRef.'),
    profile: z.enum(PROFILE_IDS).describe('The controller (edge/controllers): what it sends, how it logs in, what its Disconnect needs.'),
    address: z.union([z.ipv4(), z.ipv6()]).describe('Where its RADIUS packets come from and where Disconnect-Requests go.'),
    secret: sealed
      .optional()
      .describe('The RADIUS shared secret, sealed (scripts/seal-secret.ts); required for every RADIUS controller, absent for openNDS (it speaks no RADIUS).'),
    outsideAddresses: z
      .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))
      .min(1)
      .max(16)
      .optional()
      .describe(
        "Where its captive devices (and, for openNDS, authmon) reach the portal from: the router's outside address(es) behind NAT, or its clients' prefix without NAT (default: `address`). Arrivals that carry no signature are taken only from here.",
      ),
    coaPort: z.number().int().min(1).max(65535).default(3799),
    uamSecret: sealed.optional().describe("CoovaChilli-style UAM secret, sealed: checks the arrival's `md` and keys the CHAP answer."),
    faskey: sealed
      .optional()
      .describe("openNDS only, and required there: the router's `faskey`, sealed. Decrypts its FAS query (AES-256-CBC) and keys rhid = sha256(hid + faskey)."),
    venue: z
      .string()
      .regex(NAME_PATTERN)
      .optional()
      .describe(
        'Venue group: a device signed in at one gateway of the group is let back in by MAC authentication at any of them that enables it (default: the gateway alone).',
      ),
    macAuthentication: z
      .boolean()
      .default(false)
      .describe(
        "Whether this gateway's MAC authentication (a returning device, no typing) may be accepted at all; off unless set: anyone can present a copied MAC.",
      ),
    loginUrls: z
      .array(z.url({ protocol: /^https?$/ }).max(512))
      .min(1)
      .max(16)
      .describe(
        "The only addresses the page may hand this gateway's credentials to (CoovaChilli http://uamip:uamport/logon, Cisco switch_url, ...); for openNDS `http://<gatewayaddress>/`, the router's LAN address and GatewayPort its FAS query names.",
      ),
  })
  .superRefine((entry, ctx) => {
    // openNDS has no RADIUS secret and needs its faskey; every other controller the reverse.
    if (entry.profile === 'opennds') {
      if (entry.faskey === undefined) ctx.addIssue({ code: 'custom', path: ['faskey'], message: 'an openNDS gateway needs its sealed faskey' });
      if (entry.secret !== undefined || entry.uamSecret !== undefined)
        ctx.addIssue({ code: 'custom', path: ['secret'], message: 'an openNDS gateway speaks no RADIUS: no secret or uamSecret' });
    } else {
      if (entry.secret === undefined) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'a RADIUS controller needs its sealed secret' });
      if (entry.faskey !== undefined) ctx.addIssue({ code: 'custom', path: ['faskey'], message: 'faskey is for openNDS gateways only' });
    }
  });

const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
const domain = (what: string) => z.string().toLowerCase().regex(DOMAIN, `${what} must be a domain name (letters, digits, dashes, dots)`);

/**
 * What a device is told to join at a venue with its 802.1X credential: the SSID of the
 * WPA2/3-Enterprise network and the Passpoint (Hotspot 2.0) identifiers its access points advertise
 * over ANQP, which let a phone join any venue of the operator by itself.
 */
export const WifiIdentifiers = z.strictObject({
  ssid: z
    .string()
    .min(1)
    // 802.11 caps an SSID at 32 octets; wpa_supplicant's quoted strings have no escapes.
    .refine((ssid) => Buffer.byteLength(ssid) <= 32, 'an SSID is at most 32 bytes')
    .refine((ssid) => ![...ssid].some((c) => c === '"' || c === '\\' || c.charCodeAt(0) < 0x20), 'an SSID here holds no quote, backslash or control character')
    .describe("The SSID of the WPA2/3-Enterprise network pointing at the platform's RADIUS."),
  homeDomain: domain('homeDomain').describe("Passpoint home service provider's FQDN (the PPS-MO's HomeSP/FQDN, Apple's DomainName)."),
  roamingConsortiumOIs: z
    .array(
      z
        .string()
        .regex(/^([0-9A-Fa-f]{6}|[0-9A-Fa-f]{10})$/, 'a roaming consortium OI is 3 or 5 octets in hex')
        .transform((oi) => oi.toUpperCase()),
    )
    .max(3)
    .default([])
    .describe('Roaming consortium OIs the access points advertise (3 or 5 octets, hex); at most 3, as ANQP beacons carry.'),
  naiRealm: domain('naiRealm').optional().describe('The NAI realm the access points advertise (default: homeDomain).'),
  friendlyName: z.string().trim().min(1).max(64).optional().describe("The provider's name a device shows (default: the SSID)."),
});
export type WifiIdentifiersInput = z.input<typeof WifiIdentifiers>;

/** A venue's Wi-Fi identifiers with their defaults filled in. */
export interface VenueWifi {
  ssid: string;
  homeDomain: string;
  roamingConsortiumOIs: string[];
  naiRealm: string;
  friendlyName: string;
}

export const GatewaysFile = z.strictObject({
  gateways: z.array(GatewayEntry).min(1),
  wifi: WifiIdentifiers.optional().describe('The Wi-Fi identifiers of every venue the file names none for, and of a sign-in that came through no gateway.'),
  venues: z
    .record(z.string().regex(NAME_PATTERN), WifiIdentifiers)
    .default({})
    .describe("Wi-Fi identifiers per venue group (a gateway's `venue`, else its NAS id)."),
});
export type GatewaysFileEntry = z.input<typeof GatewayEntry>;

/** A registered gateway, secrets opened. */
export interface Gateway {
  nasId: string;
  profile: ProfileId;
  address: string;
  /** Addresses or CIDR ranges its devices and its authmon reach the portal from (`address` unless the file lists them). */
  outsideAddresses: string[];
  /** The RADIUS shared secret; undefined for openNDS, which speaks no RADIUS. */
  secret: string | undefined;
  coaPort: number;
  uamSecret: string | undefined;
  /** openNDS's faskey; undefined for the RADIUS controllers. */
  faskey: string | undefined;
  /** Its venue group (its own NAS id when the file names none). */
  venue: string;
  /** Whether a returning device's MAC authentication may be accepted here (off unless the entry says so). */
  macAuthentication: boolean;
  /** Normalised (`new URL(...).href`). */
  loginUrls: string[];
  /** What its devices join by 802.1X: its venue's identifiers, else the file's `wifi`; undefined when the file has neither. */
  wifi?: VenueWifi;
}

export type GatewayRegistry = ReadonlyMap<string, Gateway>;

/** A URL as the registry compares it; undefined when it is none. */
export function normalUrl(value: string): string | undefined {
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}

/** A stand-in password: whether a profile's login fields carry the one-time password as it is. */
const PROBE_PASSWORD = 'probe-password-\u0000';

/**
 * Whether the page hands this controller the password itself (no CHAP form: Cisco, pfSense,
 * OPNsense), as its declared login fields show; openNDS's hand-off carries no credential at all.
 */
export function handsOverPassword(profile: ControllerProfile): boolean {
  if (profile.login.chap !== 'none') return false;
  return Object.values(profile.login.fields({ username: 'probe', password: PROBE_PASSWORD }, null, 'https://probe.invalid/?zone=probe')).includes(
    PROBE_PASSWORD,
  );
}

/**
 * The gateways file, read by the portal and the gateway service alike; a file that does
 * not parse or open, a NAS id twice or one login URL at two gateways stops the service at start;
 * so does a login that would carry a password over plain http, or a CoovaChilli without its UAM
 * secret (its arrival then proves nothing and its CHAP is keyed by a challenge anyone on the air
 * sees).
 */
export function loadGatewayRegistry(file: string, sealer: Sealer): GatewayRegistry {
  const parsed = GatewaysFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const venueNames = new Set(parsed.gateways.map((entry) => entry.venue ?? entry.nasId));
  // A venue named in `venues` that no gateway is in is a typing mistake the operator would not see.
  for (const venue of Object.keys(parsed.venues)) if (!venueNames.has(venue)) throw new Error(`gateways file: venues names ${venue}, which no gateway is in`);
  const gateways = new Map<string, Gateway>();
  const loginUrls = new Set<string>();
  for (const entry of parsed.gateways) {
    if (gateways.has(entry.nasId)) throw new Error(`gateways file: nasId ${entry.nasId} twice`);
    const urls = entry.loginUrls.map((url) => normalUrl(url) as string);
    const profile = CONTROLLER_PROFILES[entry.profile];
    // A one-time password posted over http is anyone's on the venue's air, and a controller that
    // re-authenticates with it (pfSense) keeps a sniffed one valid for the whole session.
    const plain = urls.find((url) => !url.startsWith('https:'));
    if (plain !== undefined && handsOverPassword(profile))
      throw new Error(`gateways file: ${entry.nasId} (${entry.profile}) is handed the password itself: its login URL ${plain} must be https`);
    if ((profile.login.chap === 'coova-uam' || profile.arrival.integrity === 'coova-md') && entry.uamSecret === undefined)
      throw new Error(
        `gateways file: ${entry.nasId} (${entry.profile}) needs its uamSecret: without it the arrival is unsigned and the CHAP answer is keyed by the bare challenge`,
      );
    for (const url of urls) {
      if (loginUrls.has(url)) throw new Error(`gateways file: login URL of ${entry.nasId} registered twice`);
      loginUrls.add(url);
    }
    gateways.set(entry.nasId, {
      nasId: entry.nasId,
      profile: entry.profile,
      address: entry.address,
      outsideAddresses: entry.outsideAddresses ?? [entry.address],
      secret: entry.secret === undefined ? undefined : sealer.open(entry.secret),
      coaPort: entry.coaPort,
      uamSecret: entry.uamSecret === undefined ? undefined : sealer.open(entry.uamSecret),
      faskey: entry.faskey === undefined ? undefined : sealer.open(entry.faskey),
      venue: entry.venue ?? entry.nasId,
      macAuthentication: entry.macAuthentication,
      loginUrls: urls,
      ...wifiField(parsed.venues[entry.venue ?? entry.nasId] ?? parsed.wifi),
    });
  }
  return gateways;
}

const withDefaults = (wifi: z.output<typeof WifiIdentifiers>): VenueWifi => ({
  ssid: wifi.ssid,
  homeDomain: wifi.homeDomain,
  roamingConsortiumOIs: wifi.roamingConsortiumOIs,
  naiRealm: wifi.naiRealm ?? wifi.homeDomain,
  friendlyName: wifi.friendlyName ?? wifi.ssid,
});

const wifiField = (wifi: z.output<typeof WifiIdentifiers> | undefined): { wifi?: VenueWifi } => (wifi === undefined ? {} : { wifi: withDefaults(wifi) });

/** The file's own `wifi`: what a sign-in that came through no registered gateway is offered. */
export function loadDefaultWifi(file: string): VenueWifi | undefined {
  const wifi = GatewaysFile.parse(JSON.parse(readFileSync(file, 'utf8'))).wifi;
  return wifi === undefined ? undefined : withDefaults(wifi);
}

const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * Whether a request came from the gateway's own side: from one of its outside addresses or
 * ranges. An arrival nothing signs (openNDS's FAS link, a controller without a redirect
 * signature) could otherwise be copied and opened by anyone anywhere, binding that browser's
 * sign-in to the copier's device.
 */
export function fromGatewayOutside(gateway: Pick<Gateway, 'outsideAddresses'>, caller: string): boolean {
  const address = plainAddress(caller);
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of gateway.outsideAddresses) {
    const [base = '', bits] = entry.split('/');
    const type = isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(bits), type);
  }
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether the gateway's arrivals are taken only from its outside addresses: openNDS's encrypted
 * FAS link carries no time and no binding to a browser (anyone given a copy could open it), and a
 * controller that does not sign its redirect (no `md` with a UAM secret) proves nothing at all.
 */
export function arrivalNeedsOutsideAddress(gateway: Pick<Gateway, 'profile' | 'uamSecret'>): boolean {
  // The registry refuses a CoovaChilli entry without a UAM secret; the last clause only keeps an
  // unsigned entry read some other way from binding devices off the venue.
  return gateway.profile === 'opennds' || CONTROLLER_PROFILES[gateway.profile].arrival.integrity === 'none' || gateway.uamSecret === undefined;
}

/** The gateways of a venue group, where a returning device is let back in. */
export function venueOf(registry: GatewayRegistry, gateway: Gateway): Gateway[] {
  return [...registry.values()].filter((other) => other.venue === gateway.venue);
}

export type GatewayMatch =
  | { kind: 'found'; gateway: Gateway; loginUrl: string }
  | { kind: 'unknown-gateway' }
  | { kind: 'other-controller' }
  | { kind: 'unregistered-login-url' };

/**
 * The registered gateway an arrival names: by its NAS id, or (controllers that send none) by its
 * login URL. Found only when the entry is of the arrival's controller and the login URL the
 * arrival claims is one the entry registered; the answer's `loginUrl` is the registry's own.
 */
export function gatewayForArrival(registry: GatewayRegistry, profile: ProfileId, nasId: string | null, claimedLoginUrl: string | null): GatewayMatch {
  const url = claimedLoginUrl === null ? undefined : normalUrl(claimedLoginUrl);
  const gateway = nasId !== null ? registry.get(nasId) : [...registry.values()].find((g) => url !== undefined && g.loginUrls.includes(url));
  if (gateway === undefined) return { kind: 'unknown-gateway' };
  if (gateway.profile !== profile) return { kind: 'other-controller' };
  const loginUrl = gateway.loginUrls.find((registered) => registered === url);
  if (loginUrl === undefined) return { kind: 'unregistered-login-url' };
  return { kind: 'found', gateway, loginUrl };
}
