// The signing post-request.php's fields (edge/router/post-request.php) computed in the
// test, for requests a test sends to the FAS as the router would: ts, nonce, sig.
import { createHmac, randomBytes } from 'node:crypto';
import { authmonSignedText } from '../../edge/controllers/opennds-authmon.js';

export interface SigningOptions {
  /** The key signed with (a guest does not know the faskey). */
  key?: string;
  /** The request's time (default: now). */
  at?: Date;
  nonce?: string;
}

export function authmonSignature(
  faskey: string,
  request: { auth_get: string; gatewayhash: string; payload: string },
  options: SigningOptions = {},
): { ts: string; nonce: string; sig: string } {
  const ts = String(Math.floor((options.at ?? new Date()).getTime() / 1000));
  const nonce = options.nonce ?? randomBytes(16).toString('hex');
  const sig = createHmac('sha256', options.key ?? faskey)
    .update(authmonSignedText({ ts, nonce, ...request }))
    .digest('hex');
  return { ts, nonce, sig };
}
