import { normalizePhone, ONE_TIME_CODE_PATTERN } from '../../contract/phone.js';
import { z } from 'zod';
import { Entitlement } from '../../contract/entitlement.js';
import { Session } from '../../contract/session.js';

/**
 * The version of the terms and privacy notice the person ticked, on every sign-in; required only
 * while they have not accepted the version in force (GET /api/v1/terms names it).
 */
const AcceptedTerms = z.string().min(1).max(32).optional();

/** Spec 2.3. Passwords are checked for presence and length only; Keycloak judges them. */
export const LoginRequest = z.strictObject({
  username: z.email(),
  password: z.string().min(1).max(1024),
  acceptedTerms: AcceptedTerms,
});

export const RegisterRequest = z.strictObject({
  email: z.email().max(254),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  displayName: z.string().max(200).optional(),
  acceptedTerms: AcceptedTerms,
});

// Spec 4.1 rule 3: only presence is checked here; a malformed citizen number is Keycloak's
// identical 401, never a portal 400 that would tell it apart.
export const EmployeeVerifyRequest = z.strictObject({
  employeeId: z.string().min(1, 'is required').max(256),
  citizenId: z.string().min(1, 'is required').max(256),
  acceptedTerms: AcceptedTerms,
});

/** A phone number as typed (contract/phone.ts reads it); a malformed one is 400 before any call. */
const TypedPhone = z
  .string()
  .max(32)
  .refine((value) => normalizePhone(value) !== undefined, 'must be a phone number (a Vietnamese mobile number, or + and the country code)')
  .transform((value) => normalizePhone(value) ?? value);

export const PhoneCodeRequest = z.strictObject({ phone: TypedPhone });
export const PhoneSignInRequest = z.strictObject({
  phone: TypedPhone,
  code: z.string().regex(ONE_TIME_CODE_PATTERN, 'must be six digits'),
  acceptedTerms: AcceptedTerms,
});
/**
 * A voucher code as typed: any case, spaces and dashes allowed (Keycloak normalises it). Only an
 * empty or overlong value is 400; a string that is no code is the same 401 as a wrong code.
 */
export const VoucherSignInRequest = z.strictObject({ code: z.string().trim().min(1, 'is required').max(64), acceptedTerms: AcceptedTerms });
export const PhoneCodeSent = z.object({
  sent: z.literal(true),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
  correlationId: z.string(),
});

/** How the page logs the device in at its gateway (only on a sign-in through one). */
export const GatewayLoginSchema = z.object({
  loginUrl: z.string(),
  method: z.enum(['GET', 'POST']),
  fields: z.record(z.string(), z.string()),
  expiresAt: z.string(),
  handOff: z
    .literal('script')
    .optional()
    .describe("The page posts `fields` itself (form-encoded, no cookies) and reads the controller's JSON answer (OPNsense); absent: an auto-submitting form."),
});

/** The gateway's confirmation (accounting Start) and usage, on sign-ins through a gateway. */
export const ConnectionSchema = z.object({
  state: z.enum(['CONNECTING', 'CONNECTED', 'DISCONNECTED', 'UNKNOWN']),
  connected: z.boolean(),
  inputOctets: z.number().int(),
  outputOctets: z.number().int(),
  sessionTime: z.number().int(),
});

/** Spec 2.4, with the gateway fields (hand-off and connection) when a gateway sent the device. */
export const PortalSession = z.object({
  authenticated: z.literal(true),
  correlationId: z.string(),
  client: z.enum(['wifi-portal-api', 'wifi-portal-employee-api', 'wifi-portal-phone-api', 'wifi-portal-voucher-api']),
  claims: z.record(z.string(), z.unknown()),
  entitlement: Entitlement,
  session: Session,
  rawAccessToken: z.string().optional(),
  gateway: GatewayLoginSchema.optional(),
  connection: ConnectionSchema.optional(),
});

export const Unauthenticated = z.object({ authenticated: z.literal(false), correlationId: z.string() });
export const LogoutReply = z.object({ ok: z.boolean(), correlationId: z.string() });
export const MetaReply = z.object({ flight: z.string(), idp: z.string(), mode: z.literal('api'), exposeToken: z.boolean() });

/** RFC 8908 Captive Portal API state. */
export const CaptiveState = z.object({
  captive: z.boolean(),
  'user-portal-url': z.string(),
  'seconds-remaining': z.number().int().optional(),
  'bytes-remaining': z.number().int().optional(),
  'can-extend-session': z.boolean().optional(),
});
