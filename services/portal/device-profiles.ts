import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { androidWifiConfig, appleMobileconfig, windowsWlanProfile, wpaSupplicantConfig, type DeviceProfileInput } from '../../edge/device-profiles.js';
import type { GatewayRegistry, VenueWifi } from '../../edge/index.js';
import { ApiError, route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import { crossSiteGuard } from './cross-site.js';
import { ISSUE_REFUSALS, issueDevice, type DeviceGateway } from './devices.js';
import type { PortalSessions } from './portal-session.js';

/** The kinds of device the page offers, each with the file its Wi-Fi settings install. */
const KINDS = {
  apple: { type: 'application/x-apple-aspen-config', extension: 'mobileconfig' },
  android: { type: 'application/x-wifi-config', extension: undefined },
  windows: { type: 'application/xml', extension: 'xml' },
  linux: { type: 'text/plain', extension: 'conf' },
} as const;
type Kind = keyof typeof KINDS;

export interface ProfileSources {
  registry: GatewayRegistry;
  /** The gateways file's own identifiers, for a sign-in that came through no registered gateway. */
  defaultWifi: VenueWifi | undefined;
}

/** A file name of the venue's SSID: letters, digits and dashes only, so no header can be broken by it. */
const fileName = (ssid: string, extension: string) => `${ssid.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'wifi'}.${extension}`;

function profileOf(kind: Kind, input: DeviceProfileInput & { passpoint: NonNullable<DeviceProfileInput['passpoint']> }): string {
  if (kind === 'apple') return appleMobileconfig(input);
  if (kind === 'android') return androidWifiConfig(input);
  if (kind === 'windows') return windowsWlanProfile(input);
  return wpaSupplicantConfig(input);
}

/**
 * "Connect automatically next time" as a file: a new 802.1X device credential of the signed-in
 * person's sign-in, inside the profile their device installs, for the Wi-Fi of the venue they
 * signed in at. A GET, because Android installs a Passpoint file only from a GET a tap started
 * (decision 0099); SameSite=Strict and the same-origin check keep another site from starting it.
 */
export function deviceProfileRoute(config: PortalConfig, sessions: PortalSessions, gateway: DeviceGateway, sources: ProfileSources): Route {
  const { sameOrigin } = crossSiteGuard(config.PORTAL_PUBLIC_URL);
  const caFile = config.RADIUS_EAP_CA_FILE ?? join(`${config.RADIUS_RUN_DIR}-ca`, 'ca.pem');
  const notSetUp = (message: string) => new ApiError('SERVICE_UNAVAILABLE', { message });
  return route({
    method: 'get',
    path: '/api/v1/me/devices/profile',
    summary:
      "A Wi-Fi profile with a new 802.1X credential for one of the signed-in person's devices, for the venue they signed in at: Apple .mobileconfig, Android Passpoint (application/x-wifi-config), a Windows WLAN profile (netsh wlan add profile) or wpa_supplicant.",
    steps: [sameOrigin],
    query: {
      kind: z
        .enum(['apple', 'android', 'windows', 'linux'])
        .describe('apple: iPhone, iPad, Mac; android: Android 8+ (Passpoint); windows: Windows 10/11 WLAN profile XML; linux: wpa_supplicant.'),
      label: z.string().trim().min(1).max(64).optional().describe('What the person calls the device; shown in their list.'),
    },
    responses: {
      200: {
        description:
          "The profile (Cache-Control: no-store): a download named after the SSID, except Android's, which its installer takes only without Content-Disposition and with Content-Transfer-Encoding: base64.",
        files: Object.values(KINDS).map((kind) => kind.type),
      },
      401: { description: 'UNAUTHORIZED: nobody is signed in.' },
      403: { description: 'FORBIDDEN: a cross-site request.' },
      409: { description: ISSUE_REFUSALS },
      502: { description: 'UPSTREAM_UNAVAILABLE: the gateway service did not answer.' },
      503: { description: 'SERVICE_UNAVAILABLE: no secure Wi-Fi is set up for this venue, or its RADIUS CA cannot be read.' },
    },
    handle: async ({ req, res, query, correlationId }) => {
      res.setHeader('Cache-Control', 'no-store');
      // Express answers HEAD with the GET route: a link checker's or a prefetch's HEAD makes no credential.
      if (req.method === 'HEAD') return { status: 200, body: undefined, raw: '' };
      const found = await sessions.current(req, correlationId);
      if (found === undefined) throw new ApiError('UNAUTHORIZED', { message: 'Sign in to add a device.' });
      const { stored } = found;
      const wifi = (stored.gateway === null ? undefined : sources.registry.get(stored.gateway.nasId)?.wifi) ?? sources.defaultWifi;
      if (wifi === undefined) throw notSetUp('Connecting automatically is not set up at this venue.');
      const caPem = await readFile(caFile, 'utf8').catch(() => undefined);
      if (caPem === undefined) throw notSetUp('Connecting automatically is unavailable just now; try again shortly.');
      // The credential is made only once everything else is known to be there, so a refusal spends no device slot.
      const issued = await issueDevice(gateway, stored, query.label, correlationId);
      const kind = KINDS[query.kind];
      const profile = profileOf(query.kind, {
        ssid: wifi.ssid,
        username: issued.username,
        password: issued.password,
        anonymousIdentity: issued.anonymousIdentity,
        caPem,
        serverName: config.RADIUS_EAP_SERVER_NAME ?? `radius.${issued.realm}`,
        displayName: wifi.friendlyName,
        passpoint: wifi,
      });
      res.setHeader('Content-Type', kind.type);
      if (kind.extension === undefined) res.setHeader('Content-Transfer-Encoding', 'base64');
      else res.setHeader('Content-Disposition', `attachment; filename="${fileName(wifi.ssid, kind.extension)}"`);
      return { status: 200, body: undefined, raw: profile };
    },
  });
}
