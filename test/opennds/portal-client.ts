// A client in its namespace signing in through the portal as openNDS's FAS, the way a browser
// would (curl with its own cookie jar; the test FAS's own certificate accepted): used by
// portal-fas.test.ts and bench/opennds.ts.
import { join } from 'node:path';
import { run } from '../../scripts/opennds/command.js';
import type { ClientHost } from '../../scripts/opennds/topology.js';
import { get } from './client-http.js';

export interface Reply {
  status: number;
  location: string;
  body: string;
}

/** One request from inside the client's namespace, with its cookie jar in `folder`; JSON is POSTed. */
export async function browse(folder: string, host: ClientHost, url: string, json?: unknown): Promise<Reply> {
  const jar = join(folder, `${host.ns}.cookies`);
  const args = ['netns', 'exec', host.ns, 'curl', '-s', '-k', '-m', '20', '-b', jar, '-c', jar, '-w', '\n%{http_code} %{redirect_url}'];
  if (json !== undefined) args.push('-H', 'content-type: application/json', '--data-binary', JSON.stringify(json));
  const result = await run('ip', [...args, url]);
  const end = result.stdout.lastIndexOf('\n');
  const [status = '0', location = ''] = result.stdout.slice(end + 1).split(' ');
  return { status: Number(status), location, body: result.stdout.slice(0, Math.max(end, 0)) };
}

/**
 * The captive request, its redirect to the portal's `fasOrigin/opennds/<nasId>`, the arrival (303
 * to the page, cookie gw), and the sign-in the page posts: the network session's id and the
 * FAS URL openNDS gave.
 */
export async function signInThroughPortal(
  folder: string,
  host: ClientHost,
  internetUrl: string,
  fasOrigin: string,
  nasId: string,
): Promise<{ sessionId: string; fasUrl: string }> {
  const captive = await get(host, internetUrl);
  if (captive.status !== 307 || !captive.location.startsWith(`${fasOrigin}/opennds/${nasId}?fas=`))
    throw new Error(`not sent to the portal: ${captive.status} ${captive.location.slice(0, 80)}`);
  const arrival = await browse(folder, host, captive.location);
  if (arrival.status !== 303 || arrival.location !== `${fasOrigin}/`) throw new Error(`arrival: ${arrival.status} ${arrival.body.slice(0, 300)}`);
  // The page's own request (its script posts the form as JSON).
  const login = await browse(folder, host, `${fasOrigin}/api/v1/auth/login`, { username: 'bob@example.com', password: 'bob-demo-pass' });
  const sessionId = /"(sess-[0-9a-f-]{36})"/.exec(login.body)?.[1];
  if (login.status !== 200 || sessionId === undefined) throw new Error(`sign-in: ${login.status} ${login.body.slice(0, 300)}`);
  return { sessionId, fasUrl: captive.location };
}
