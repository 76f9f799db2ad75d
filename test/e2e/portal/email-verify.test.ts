import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { adminApi, adminToken, IDP_URL, userIdOf } from '../keycloak/kc-client.js';
import { PortalBrowser } from './portal-client.js';

// Against the running platform: Keycloak mails its own verify-email link
// through the mail catcher (realm smtpServer, SMTP 1025), the link verifies, and the next
// sign-in asks loyalty. gold.verify@demo.example is a GOLD member with the Wi-Fi benefit and no
// account before this test (fixtures/loyalty-members.json).
const MAIL_URL = process.env['MAIL_URL'] ?? 'http://127.0.0.1:8025';
const MEMBER = 'gold.verify@demo.example';
// The verify link leads back to the portal's public origin (PORTAL_PUBLIC_URL, the client's redirect URI).
const PORTAL_ORIGIN = 'http://localhost:3000';

interface CaughtMail {
  id: string;
  subject: string;
  links: string[];
}

const inboxOf = async (address: string): Promise<CaughtMail[]> =>
  ((await (await fetch(`${MAIL_URL}/api/v1/messages?to=${encodeURIComponent(address)}`)).json()) as { messages: CaughtMail[] }).messages;

/** Opens a Keycloak link as a browser would: cookies kept, redirects within Keycloak followed; the last answer. */
async function openInBrowser(start: string, jar: Map<string, string>): Promise<{ status: number; url: string; html: string; location?: string }> {
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: jar.size === 0 ? {} : { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const set of response.headers.getSetCookie()) {
      const [name, value = ''] = (set.split(';')[0] ?? '').split('=');
      if (name !== undefined && name !== '') jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return { status: response.status, url, html: await response.text() };
    const next = new URL(location, url).toString();
    // A redirect out of Keycloak (back to the portal) ends the walk: that is where the browser goes.
    if (!next.startsWith(IDP_URL)) return { status: response.status, url, html: '', location: next };
    url = next;
  }
  throw new Error('too many redirects');
}

const decode = (href: string) => href.replace(/&amp;/g, '&');

test.serial("register, the verify mail arrives in the catcher, its link verifies the email, and the next sign-in gets the member's package", async (t) => {
  const registered = await new PortalBrowser().register(MEMBER, 'a-long-password');
  t.is(registered.status, 200, registered.text);
  t.like(registered.body['claims'] as object, { email: MEMBER, email_verified: false });
  t.like(registered.body['entitlement'] as object, { entitlementType: 'WIFI_CUSTOMER_BASIC', permission: { sourceType: 'IDP_ID_LOGIN' } });

  // Polled until it arrives; a mail that never comes fails the assertion below, not a timeout.
  const inbox = await waitFor(
    () => inboxOf(MEMBER),
    (messages) => messages.length > 0,
    { timeoutMs: 15_000, intervalMs: 200 },
  ).catch(() => [] as CaughtMail[]);
  t.is(inbox.length, 1, 'the verify mail arrived in the mail catcher');
  const [mail] = inbox;
  const link = mail?.links.find((candidate) => candidate.startsWith(`${IDP_URL}/realms/wifi/login-actions/action-token?`));
  t.truthy(link, `the mail carries Keycloak's action-token link: ${JSON.stringify(mail?.links.map((l) => l.split('?')[0]))}`);

  // A browser that never signed in at Keycloak: it asks to confirm the address first, then verifies.
  const jar = new Map<string, string>();
  const confirm = await openInBrowser(String(link), jar);
  t.is(confirm.status, 200);
  const proceed = /href="([^"]*login-actions\/action-token[^"]*)"/.exec(confirm.html)?.[1];
  t.truthy(proceed, 'the confirmation page links on');
  const verified = await openInBrowser(new URL(decode(String(proceed)), confirm.url).toString(), jar);
  const said = verified.html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Keycloak's page after the action ("Your account has been updated"), linking back to the portal.
  t.regex(said, /has been (verified|updated)/i, `the link verified the address (status ${verified.status}, page: ${said.slice(0, 400)})`);
  t.true(verified.html.includes(`href="${PORTAL_ORIGIN}/"`), 'the page leads back to the portal');
  const admin = await adminToken();
  t.like(await adminApi(admin, 'GET', `/users/${await userIdOf(admin, MEMBER)}`), { email: MEMBER, emailVerified: true });

  const again = await new PortalBrowser().login(MEMBER, 'a-long-password');
  t.is(again.status, 200, again.text);
  t.like(again.body['claims'] as object, { email: MEMBER, email_verified: true });
  t.like(again.body['entitlement'] as object, {
    entitlementType: 'WIFI_CUSTOMER_PLUS',
    permission: { tier: 'BOOST', deviceSlots: 2, sourceType: 'LOYALTY_TIER', sourceRef: 'LOY-G-0004' },
  });
});
