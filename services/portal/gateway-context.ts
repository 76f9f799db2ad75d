import type { GatewayContext, GatewayLogin } from '../../contract/index.js';
import { CONTROLLER_PROFILES, type ProfileId } from '../../edge/controllers/index.js';

export type { GatewayContext, GatewayLogin };

/**
 * The login request the gateway's controller expects (its profile in
 * edge/controllers), sent to the login URL the registry gave the context.
 */
export function gatewayLogin(
  context: GatewayContext,
  credential: { username: string; password: string; chapResponse?: string; expiresAt: string },
): GatewayLogin {
  const profile = CONTROLLER_PROFILES[context.profile as ProfileId];
  if (profile === undefined) throw new Error('a gateway context names no known controller profile');
  const fields = profile.login.fields(credential, context.returnUrl, context.loginUrl);
  return {
    loginUrl: context.loginUrl,
    method: profile.login.method,
    fields,
    expiresAt: credential.expiresAt,
    ...(profile.login.handOff === 'script' ? { handOff: 'script' as const } : {}),
  };
}
