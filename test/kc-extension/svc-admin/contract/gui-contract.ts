import type { TestFn } from 'ava';
import type { Driver, DriverReply } from './driver.js';
import { ErrorBody } from './response-schemas.js';

const header = (reply: DriverReply, name: string): string | undefined =>
  Object.entries(reply.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

async function shell(d: Driver): Promise<{ reply: DriverReply; script: string; style: string }> {
  const reply = await d.send({ method: 'GET', path: '/' });
  const html = String(reply.body);
  const script = /<script src="\/realms\/wifi\/svc-admin(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const style = /<link rel="stylesheet" href="\/realms\/wifi\/svc-admin(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  if (script === undefined || style === undefined) throw new Error('the shell page names no script or style sheet under /assets/');
  return { reply, script, style };
}

/** The GUI's shell and its files (spec 4.7): public, no data, everything from the module's own origin. */
export function guiContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('the shell page is public, loads its script and styles from /assets/ and allows only its own origin', async (t) => {
    const d = await driver();
    const { reply } = await shell(d);
    t.is(reply.status, 200);
    t.regex(header(reply, 'Content-Type') ?? '', /^text\/html/);
    t.is(header(reply, 'Cache-Control'), 'no-store');
    const csp = header(reply, 'Content-Security-Policy') ?? '';
    t.regex(csp, /default-src 'none'/);
    t.regex(csp, /script-src 'self'(;|$)/);
    t.regex(csp, /connect-src 'self'(;|$)/);
    t.regex(csp, /frame-ancestors 'none'/);
    t.is(header(reply, 'X-Frame-Options'), 'DENY');
    t.false(csp.includes("'unsafe-inline'"), 'no inline script or style wholesale');
    t.false(/https?:|\*/.test(csp), 'no other origin');
    t.false(/<script>|<style>|\sstyle="|\son[a-z]+="/.test(String(reply.body)), 'nothing inline the policy would have to allow');
  });

  test('the GUI files are public, typed and cached for a year; other names under /assets/ are 404', async (t) => {
    const d = await driver();
    const { script, style } = await shell(d);
    for (const [path, type] of [
      [script, /^text\/javascript/],
      [style, /^text\/css/],
    ] as const) {
      const reply = await d.send({ method: 'GET', path });
      t.is(reply.status, 200, path);
      t.regex(header(reply, 'Content-Type') ?? '', type);
      t.is(header(reply, 'Cache-Control'), 'public, max-age=31536000, immutable');
      t.is(header(reply, 'X-Content-Type-Options'), 'nosniff');
    }
    for (const path of ['/assets/manifest.json', '/assets/gui-NOSUCHNAME.js', '/assets/..%2Fmanifest.json', '/assets/']) {
      const reply = await d.send({ method: 'GET', path });
      t.is(reply.status, 404, path);
      t.true(ErrorBody.safeParse(reply.body).success, path);
    }
  });
}
