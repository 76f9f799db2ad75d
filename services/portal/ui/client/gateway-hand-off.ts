/**
 * What a controller's JSON login answer means for the person, for a login the page
 * posts from script (`handOff: 'script'`). OPNsense's logon API (opnsense/core
 * AccessController::logonAction) answers `clientState` `AUTHORIZED` (let in, or in already),
 * `NOT_AUTHORIZED` (RADIUS refused the credential) or `UNKNOWN` (no such zone, or the firewall
 * could not let the device in); anything else, or no answer, is a gateway the page could not reach.
 */
export type HandOffOutcome = 'connected' | 'refused' | 'unreachable';

/**
 * `blocked`: the browser sent nothing or let the page read nothing (a network error, a CORS or
 * local-network-access refusal): the page then falls back to the form, a top-level navigation.
 */
export type PostOutcome = HandOffOutcome | 'blocked';

export function readLogonAnswer(status: number, body: unknown): HandOffOutcome {
  if (status !== 200 || typeof body !== 'object' || body === null) return 'unreachable';
  const state = (body as Record<string, unknown>)['clientState'];
  if (state === 'AUTHORIZED') return 'connected';
  if (state === 'NOT_AUTHORIZED' || state === 'UNKNOWN') return 'refused';
  return 'unreachable';
}

/** The login posted from the page: the fields form-encoded (a simple CORS request), no cookies, no referrer. */
export async function postLogin(loginUrl: string, fields: Record<string, string>): Promise<PostOutcome> {
  try {
    const answer = await fetch(loginUrl, {
      method: 'POST',
      body: new URLSearchParams(fields),
      mode: 'cors',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    return readLogonAnswer(answer.status, await answer.json().catch(() => null));
  } catch {
    return 'blocked';
  }
}
