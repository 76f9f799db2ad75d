/// <reference lib="dom" />

const PKCE_KEY = 'svc-admin-pkce';
const CLIENT_ID = 'svc-admin';

/** `/realms/{realm}/svc-admin/`, whatever form of it the page was opened with. */
export const moduleBase = (): string => `${location.pathname.replace(/\/+$/, '')}/`;
const realm = (): string => moduleBase().split('/')[2] ?? '';
const oidc = (): string => `${location.origin}/realms/${realm()}/protocol/openid-connect`;
const redirectUri = (): string => location.origin + moduleBase();

const b64url = (bytes: ArrayBuffer | Uint8Array): string =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** spec 5: Authorization Code + PKCE S256 with the realm's public client `svc-admin`. */
export async function startSignIn(): Promise<void> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state }));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  location.assign(
    `${oidc()}/auth?${new URLSearchParams({
      client_id: CLIENT_ID,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: redirectUri(),
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    }).toString()}`,
  );
}

/** Exchanges the code of the redirect back for an access token. */
export async function finishSignIn(params: URLSearchParams): Promise<string> {
  const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) ?? '{}') as { verifier?: string; state?: string };
  sessionStorage.removeItem(PKCE_KEY);
  history.replaceState(null, '', moduleBase());
  if (params.has('error')) throw new Error(`SIGN_IN_FAILED: ${params.get('error_description') ?? params.get('error') ?? 'refused'}. Try again.`);
  if (saved.verifier === undefined || params.get('state') !== saved.state)
    throw new Error('SIGN_IN_FAILED: the answer does not belong to this page. Try again.');
  const response = await fetch(`${oidc()}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: CLIENT_ID,
      code: params.get('code') ?? '',
      redirect_uri: redirectUri(),
      code_verifier: saved.verifier,
    }),
  });
  if (!response.ok) throw new Error(`SIGN_IN_FAILED: Keycloak answered HTTP ${response.status}. Try again.`);
  return ((await response.json()) as { access_token: string }).access_token;
}
