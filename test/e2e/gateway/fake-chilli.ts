import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { radclient } from '../../services/gateway/radclient.js';
import { coovaArrival } from './coova-arrival.js';

/**
 * A CoovaChilli stand-in for the browser test (CoovaChilli is not packaged for Debian), as strict
 * as the real one (coova-chilli redir.c): any page of a captive device is a 302 to the portal with
 * `res=notyet`, a fresh challenge and `md`; `/logon` needs `username` and a 32-hex `response` to
 * the challenge it issued, turns it into the CHAP it sends (CHAP-Challenge = MD5(challenge + UAM
 * secret), CHAP-Password = ident 0 + response) through the platform's real FreeRADIUS, and sends
 * the browser back with `res=success` (and `timeleft`) or `res=failed` (the Reply-Message and a new
 * challenge). Anything else at `/logon` is refused as chilli does: back to `res=failed`.
 */
export interface FakeChilli {
  /** What the stand-in sent to RADIUS and got back, in order. */
  logins: { code: string }[];
  close(): Promise<void>;
}

export async function startFakeChilli(options: {
  port: number;
  portalUrl: string;
  uamSecret: string;
  nasId: string;
  nasSecret: string;
  authPort: number;
  mac: string;
  userurl: string;
}): Promise<FakeChilli> {
  let challenge = randomBytes(16).toString('hex');
  const logins: { code: string }[] = [];
  const base = { uamip: '127.0.0.1', uamport: String(options.port), mac: options.mac, nasid: options.nasId, userurl: options.userurl };
  const toPortal = (params: Record<string, string>) => `${new URL(options.portalUrl).origin}${coovaArrival({ ...params, ...base }, options.uamSecret)}`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${options.port}`);
      const redirect = (location: string) => res.writeHead(302, { location, 'cache-control': 'no-store' }).end();
      if (url.pathname !== '/logon') return redirect(toPortal({ res: 'notyet', challenge }));
      const username = url.searchParams.get('username') ?? '';
      const response = url.searchParams.get('response') ?? '';
      const refused = (reply: string) => {
        challenge = randomBytes(16).toString('hex');
        redirect(toPortal({ res: 'failed', reply, challenge }));
      };
      if (username === '' || !/^[0-9a-f]{32}$/i.test(response)) return refused('Login failed');
      const chapChallenge = createHash('md5').update(Buffer.from(challenge, 'hex')).update(options.uamSecret).digest('hex');
      const answer = await radclient(options.authPort, 'auth', options.nasSecret, [
        `User-Name = "${username}"`,
        `CHAP-Challenge = 0x${chapChallenge}`,
        `CHAP-Password = 0x00${response}`,
        `Calling-Station-Id = "${options.mac}"`,
        `NAS-Identifier = "${options.nasId}"`,
      ]);
      logins.push({ code: answer.code });
      if (answer.code !== 'Access-Accept') return refused(answer.attributes['Reply-Message'] ?? 'Login failed');
      return redirect(toPortal({ res: 'success', timeleft: answer.attributes['Session-Timeout'] ?? '0' }));
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return { logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
