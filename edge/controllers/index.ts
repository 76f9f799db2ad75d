/**
 * Every controller profile, keyed by the id a registry entry names in `profile`.
 * Adding a controller is adding its module here (STYLE habit 11). The order is the order in
 * which an arrival's parameters are recognised.
 */
import { ciscoWlc } from './cisco-wlc.js';
import { coovachilli } from './coovachilli.js';
import { mikrotik } from './mikrotik.js';
import { opennds } from './opennds.js';
import { opnsense } from './opnsense.js';
import { pfsense } from './pfsense.js';
import type { ControllerProfile } from './types.js';

export const CONTROLLER_PROFILES = {
  coovachilli,
  'cisco-wlc': ciscoWlc,
  mikrotik,
  pfsense,
  opennds,
  opnsense,
} as const satisfies Record<string, ControllerProfile>;

export type ProfileId = keyof typeof CONTROLLER_PROFILES;
export const PROFILE_IDS = Object.keys(CONTROLLER_PROFILES) as [ProfileId, ...ProfileId[]];

/** How a device behind this profile's controller is let through once signed in (`ControllerProfile.grant`); undefined for an unknown profile. */
export function grantOf(profile: string): ControllerProfile['grant'] | undefined {
  return Object.hasOwn(CONTROLLER_PROFILES, profile) ? CONTROLLER_PROFILES[profile as ProfileId].grant : undefined;
}

/** The profile whose parameters an arrival's query carries, if any. */
export function profileOfArrival(query: Readonly<Record<string, unknown>>): ProfileId | undefined {
  return PROFILE_IDS.find((id) => CONTROLLER_PROFILES[id].arrival.recognises(query));
}

export type {
  ArrivalContext,
  ArrivalIntegrity,
  ArrivalParse,
  ArrivalState,
  ChapScheme,
  ControllerProfile,
  IssuedCredential,
  SessionAttribute,
  SessionLimits,
} from './types.js';
