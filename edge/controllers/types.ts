import { z } from 'zod';

/**
 * What a venue's controller does, declared once per controller (one module each in
 * this folder) and read by the portal and the gateway service alike. Pure data and pure
 * functions: the crypto a profile needs (CHAP, the arrival checksum) is named here and done by
 * the services through the kit (`edge/controller-crypto.ts`).
 */

/** What an arrival at the portal means, in every state a controller documents. */
export type ArrivalState =
  /** The device is captive and may sign in (CoovaChilli `notyet`, Cisco and MikroTik first visit). */
  | 'login'
  /** The controller logged the device in and sends it back (CoovaChilli `success`). */
  | 'success'
  /** The controller refused the login (CoovaChilli `failed` with `reply`, Cisco `statusCode`, MikroTik `error`). */
  | 'failed'
  /** The person logged off at the controller (CoovaChilli `logoff`). */
  | 'logoff'
  /** The device is logged in already (CoovaChilli `already`). */
  | 'already';

/**
 * One arrival as every controller's parameters map to it. Nothing here is trusted on its own:
 * the gateway is looked up in the registry (by `nasId` or by `loginUrl`), and `loginUrl` is only
 * ever compared with the registered one, never used.
 */
export interface ArrivalContext {
  state: ArrivalState;
  /** The NAS id the controller sent; null when it sends none (then `loginUrl` finds the gateway). */
  nasId: string | null;
  /** The device's MAC as sent (the services normalise and hash it); null on states without one. */
  mac: string | null;
  /** The login address the arrival claims (CoovaChilli `http://uamip:uamport/logon`, Cisco `switch_url`). */
  loginUrl: string | null;
  /** Hex challenge of a CHAP login (CoovaChilli `challenge`, MikroTik `chap-challenge`), lower case. */
  challenge: string | null;
  /** MikroTik's CHAP id as hex (one octet); null elsewhere. */
  chapId: string | null;
  /** Where the person was going; shown as a plain link after sign-in, never followed by the server. */
  returnUrl: string | null;
  /** The controller's own reason on a failed state (a message or a code), never shown unescaped. */
  reason: string | null;
  /** Seconds of access left, as the controller reported them on `success`/`already`. */
  timeLeft: number | null;
}

/** An arrival that parsed, or the names of the parameters that did not (never their values). */
export type ArrivalParse = { ok: true; arrival: ArrivalContext } | { ok: false; problems: string[] };

/**
 * The checksum a controller signs its redirect with, by name (the kit computes it):
 * `coova-md`: MD5 over the redirect URL up to `&md=` followed by the UAM secret, upper-case hex
 * (coova-chilli `redir.c`, `redir_md_param`).
 */
export type ArrivalIntegrity = 'none' | 'coova-md';

/**
 * How a one-time password is proven at the controller, by name (the kit computes it):
 * `coova-uam`: `response` = MD5(0x00 + password + MD5(challenge + UAM secret)), or the raw
 * challenge without a UAM secret; `mikrotik`: `password` = MD5(chap-id + password + chap-challenge).
 * `none`: the password itself, only where no CHAP form exists (and only over https, see `login`).
 */
export type ChapScheme = 'none' | 'coova-uam' | 'mikrotik';

/** What the gateway service hands over for one login. */
export interface IssuedCredential {
  username: string;
  password: string;
  /** The CHAP answer, when the profile's scheme and the arrival's challenge give one. */
  chapResponse?: string;
}

/** Attributes a Disconnect-Request (RFC 5176) can name a session by. */
export type SessionAttribute =
  | 'User-Name'
  | 'Calling-Station-Id'
  | 'Framed-IP-Address'
  | 'NAS-IP-Address'
  | 'Acct-Session-Id'
  | 'NAS-Identifier'
  | 'Event-Timestamp';

/** A session's limits as the platform decides them; each profile says which attributes carry them. */
export interface SessionLimits {
  /** Seconds until the entitlement ends. */
  sessionSeconds: number;
  /** 0: not sent. */
  idleSeconds: number;
  interimSeconds: number;
  upBitsPerSecond: number;
  downBitsPerSecond: number;
}

export interface ControllerProfile {
  /** The registry's `profile` value. */
  readonly id: string;
  /** As the vendor names it. */
  readonly name: string;
  /** Where its behaviour is documented (source file, manual page). */
  readonly sources: readonly string[];
  readonly arrival: {
    /** Whether a query carries this controller's parameters (checked in the order of CONTROLLER_PROFILES). */
    recognises(query: Readonly<Record<string, unknown>>): boolean;
    /** The query's schema (documentation and tests); `read` applies it. */
    readonly schema: z.ZodType;
    /**
     * The query as parsed (a repeated parameter is an array): a parameter sent empty counts as
     * absent, one the schema does not name is ignored, a named one sent twice is refused.
     */
    read(query: Readonly<Record<string, unknown>>): ArrivalParse;
    readonly integrity: ArrivalIntegrity;
  };
  /**
   * How a signed-in device is let through: `credential`, a one-time credential the page hands to
   * the controller's login URL (the controller then asks RADIUS with it); `queued`, the
   * authorisation waits at the gateway service until the controller collects it (openNDS's authmon
   * poll), and the browser is handed nothing.
   */
  readonly grant: 'credential' | 'queued';
  readonly login: {
    readonly method: 'GET' | 'POST';
    /** `none` with the password among `fields` (Cisco, pfSense, OPNsense): the registry refuses an http login URL for it. */
    readonly chap: ChapScheme;
    /**
     * How the page hands the device over: `form` (default), an auto-submitting form the browser
     * follows to the controller; `script`, a POST of the same fields (form-encoded, no cookies, no
     * referrer) from the page itself to a controller whose login answers JSON and allows any
     * origin (OPNsense's logon API), whose answer the page reads and tells the person.
     */
    readonly handOff?: 'form' | 'script';
    /** The fields the page submits to the registered login URL; `returnUrl` as the arrival gave it. */
    fields(credential: IssuedCredential, returnUrl: string | null, loginUrl: string): Record<string, string>;
  };
  /** The Access-Accept's attributes for these limits (FreeRADIUS names, `reply:` added by the service). */
  replyAttributes(limits: SessionLimits): Record<string, number | string>;
  /**
   * The Access-Accept attribute that caps the session's traffic (input and output together, in
   * octets), with its gigawords companion where the vendor has one; null: the controller has none,
   * and a data allowance ends its sessions by Disconnect when the counters say it is used up.
   */
  readonly volume: VolumeAttribute | null;
  /** What its Disconnect-Request must carry for the controller to find the session. */
  readonly disconnect: readonly SessionAttribute[];
  /**
   * Whether it applies a CoA-Request (RFC 5176) to a running session, with the
   * same identifying attributes as its Disconnect and the reply attributes of the new limits.
   * Without it, new limits reach the device at its next authentication.
   */
  readonly coa: boolean;
  /**
   * False when the controller has no RFC 5176 listener at all (OPNsense): a revoked session ends
   * at its Session-Timeout, and `disconnect` is empty. Absent: it listens.
   */
  readonly disconnectListener?: boolean;
  /**
   * Whether the controller asks RADIUS again for a device it already let in, with the same
   * credential (pfSense "reauthenticate connected users"): accepted from the same NAS and device
   * while the session lives.
   */
  readonly reauthenticates?: boolean;
}

/** A controller's volume cap: a 32-bit octets attribute, and the count of 2^32 octets where the vendor has one. */
export interface VolumeAttribute {
  readonly octets: string;
  readonly gigawords: string | null;
  /**
   * Whether a CoA-Request carrying the attribute lowers the cap of a running session (counted from
   * the session's start). Absent: only an Access-Accept sets it, and a shrunk allowance ends a
   * running session by Disconnect when the counters say it is used up.
   */
  readonly byCoa?: boolean;
}

const GIGAWORD = 2 ** 32;

/**
 * A volume cap of `bytes` in the controller's attributes. Without a gigawords attribute a cap
 * past 4 GiB is sent as the largest 32-bit value: the controller ends the session early, never late.
 */
/** The octets a volume cap of `bytes` carries in the controller's attributes (`volumeAttributes`). */
export const volumeCapOf = (volume: VolumeAttribute, bytes: number): number => (volume.gigawords === null ? Math.min(bytes, GIGAWORD - 1) : bytes);

export function volumeAttributes(volume: VolumeAttribute | null, bytes: number): Record<string, number> {
  if (volume === null) return {};
  if (volume.gigawords === null) return { [volume.octets]: Math.min(bytes, GIGAWORD - 1) };
  const gigawords = Math.floor(bytes / GIGAWORD);
  return { [volume.octets]: bytes % GIGAWORD, ...(gigawords > 0 ? { [volume.gigawords]: gigawords } : {}) };
}

export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * A MAC address as controllers spell it: six pairs with `-` or `:` (CoovaChilli `AA-BB-...`),
 * Cisco's dotted `aabb.ccdd.eeff`, pfSense's single dash `aabbcc-ddeeff`, or bare hex.
 */
export const MAC_TEXT =
  /^(?:[0-9A-Fa-f]{2}([-:]?)(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}-[0-9A-Fa-f]{6})$/;

/** An absolute http(s) URL of at most 2048 characters (a return address; never followed by the server). */
export const WEB_URL = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/**
 * A return address as controllers that drop the scheme send it (Cisco `redirect`, OPNsense
 * `redirurl` = `<host><path>`): read as http, as their own pages do; a full URL as it is.
 */
export const SCHEMELESS_RETURN_URL = z
  .string()
  .max(2048)
  .transform((value) => (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) ? value : `http://${value}`))
  .pipe(WEB_URL);

/**
 * A query without its empty parameters. Real controllers send a parameter they have no value for
 * as `name=` (CoovaChilli's `userurl=` on a device's first redirect in 1.9, and from its own
 * `/prelogin` page in 1.8 and 1.9): that is the parameter's absence, not a bad value.
 */
export function withoutEmpty(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

/** A profile's arrival: its query read with `schema` and mapped by `map`; the problems of a parse name the parameter, never its value. */
export function arrivalOf<T>(
  recognises: ControllerProfile['arrival']['recognises'],
  schema: z.ZodType<T>,
  map: (query: T) => ArrivalContext,
  integrity: ArrivalIntegrity = 'none',
): ControllerProfile['arrival'] {
  return {
    recognises,
    schema,
    read(query) {
      // Parameters the schema does not name are dropped by it (zod strips unknown keys), so a
      // controller's extra ones are ignored; a named one sent twice is an array and refused.
      const parsed = schema.safeParse(withoutEmpty(query));
      if (!parsed.success) return { ok: false, problems: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'query')))] };
      return { ok: true, arrival: map(parsed.data) };
    },
    integrity,
  };
}

/** A credential's CHAP answer; a profile that logs in by CHAP never falls back to the password. */
export function chapAnswer(credential: IssuedCredential): string {
  if (credential.chapResponse === undefined) throw new Error("a CHAP login needs the credential's chapResponse");
  return credential.chapResponse;
}

/** RFC 2865/2869 limits every controller reads: session length, accounting interval, idle time (0: not sent). */
export function sessionAttributes(limits: SessionLimits): Record<string, number> {
  return {
    'Session-Timeout': limits.sessionSeconds,
    'Acct-Interim-Interval': limits.interimSeconds,
    ...(limits.idleSeconds > 0 ? { 'Idle-Timeout': limits.idleSeconds } : {}),
  };
}

/** The limits every WISPr-speaking controller reads (vendor 14122, bit/s). */
export function wisprAttributes(limits: SessionLimits): Record<string, number> {
  return { ...sessionAttributes(limits), 'WISPr-Bandwidth-Max-Up': limits.upBitsPerSecond, 'WISPr-Bandwidth-Max-Down': limits.downBitsPerSecond };
}
