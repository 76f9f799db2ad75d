import { z } from 'zod';
import { NAS_ID_PATTERN, PATH_ID_PATTERN } from '../../contract/ids.js';

const dateTime = z.iso.datetime({ offset: true });

export const CredentialRequest = z.strictObject({
  sessionId: z.string().regex(PATH_ID_PATTERN).describe('The GRANTED network session the device signs in under.'),
  deviceRef: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\x21-\x7e]+$/)
    .describe("The session's deviceRef: HMAC(nasId, MAC) with DEVICE_REF_KEY."),
  nasId: z.string().regex(NAS_ID_PATTERN).optional().describe("The gateway of the device's captive redirect; may be left out when only one is configured."),
  challenge: z
    .string()
    .regex(/^([0-9a-fA-F]{2}){8,64}$/)
    .optional()
    .describe('CHAP challenge of the arrival (CoovaChilli `challenge`, MikroTik `chap-challenge`), hex: the answer then carries chapResponse.'),
  chapId: z
    .string()
    .regex(/^[0-9a-fA-F]{2}$/)
    .optional()
    .describe('MikroTik `chap-id`, hex (one octet).'),
});

export const Credential = z.object({
  username: z.string().describe('One-time user name; submit it to the gateway as is.'),
  password: z.string().describe('One-time password (PAP); never stored by the platform.'),
  chapResponse: z.string().optional().describe("The CHAP answer (hex) the controller's login expects for the given challenge (its profile's scheme)."),
  nasId: z.string(),
  expiresAt: dateTime.describe('Unused after this it is refused; at most 120 s after issue.'),
});

/** The connection view is the contract's (the portal reads it with the same schema). */
export { GatewayConnection as Connection } from '../../contract/gateway.js';
