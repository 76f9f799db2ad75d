import test from 'ava';
import { mailCatcherService } from './catcher-service.js';

const VERIFY_LINK = 'http://localhost:8080/realms/wifi/login-actions/action-token?key=eyJhbGciOiJIUzUxMiJ9.secret-part&client_id=wifi-portal-api';
const SMTP_PASSWORD = 'smtp-password-never-logged';

test('a message sent over SMTP is in the JSON inbox with its links, newest first, filtered by recipient', async (t) => {
  const { service, send } = await mailCatcherService(t);
  await send({ from: 'wifi@localhost', to: 'first@example.com', subject: 'Other', text: 'no link here' });
  await send({
    from: 'wifi@localhost',
    to: 'new.customer@example.com',
    subject: 'Verify email',
    text: `Someone has created an account.\n\n${VERIFY_LINK}\n\nThis link will expire within 12 hours.`,
    html: `<a href="${VERIFY_LINK.replace('&', '&amp;')}">Link</a>`,
  });
  const all = await service.request('GET', '/api/v1/messages');
  t.is(all.status, 200);
  const messages = all.body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(
    messages.map((mail) => mail['subject']),
    ['Verify email', 'Other'],
  );
  const mine = await service.request('GET', '/api/v1/messages?to=New.Customer@example.com');
  const [mail] = mine.body['messages'] as Array<Record<string, unknown>>;
  t.like(mail, { from: 'wifi@localhost', to: ['new.customer@example.com'], subject: 'Verify email', links: [VERIFY_LINK] });
  t.false('text' in (mail ?? {}), 'the list leaves the text out');
  const one = await service.request('GET', `/api/v1/messages/${String(mail?.['id'])}`);
  t.is(one.status, 200);
  t.regex(String(one.body['text']), /This link will expire/);
});

test('the links come from the HTML part when the text part has none', async (t) => {
  const { service, send } = await mailCatcherService(t);
  await send({
    from: 'wifi@localhost',
    to: 'html.only@example.com',
    subject: 'HTML',
    html: `<p><a href="${VERIFY_LINK.replace('&', '&amp;')}">Verify</a></p>`,
  });
  const [mail] = (await service.request('GET', '/api/v1/messages?to=html.only@example.com')).body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(mail?.['links'], [VERIFY_LINK]);
});

test('the inbox pages list the messages and show one as escaped text with its links', async (t) => {
  const { service, send } = await mailCatcherService(t);
  await send({ from: 'wifi@localhost', to: 'page@example.com', subject: 'Verify <email>', text: `Open ${VERIFY_LINK}\n<script>alert(1)</script>` });
  const list = await fetch(`${service.url}/`);
  t.is(list.status, 200);
  t.regex(String(list.headers.get('content-type')), /^text\/html/);
  const html = await list.text();
  t.true(html.includes('Verify &lt;email&gt;'));
  const id = /href="\/messages\/(mail-[0-9a-f-]+)"/.exec(html)?.[1];
  t.truthy(id, 'the list links to the message');
  const page = await (await fetch(`${service.url}/messages/${String(id)}`)).text();
  t.true(page.includes(`<a href="${VERIFY_LINK.replace('&', '&amp;')}">`), 'the link is clickable');
  t.false(page.includes('<script>'), 'the message text is escaped');
  t.is((await fetch(`${service.url}/messages/mail-00000000-0000-0000-0000-000000000000`)).status, 404);
  t.is((await service.request('GET', '/api/v1/messages/mail-00000000-0000-0000-0000-000000000000')).status, 404);
});

test('the catcher never logs an AUTH password, an address, the subject or a link of a message', async (t) => {
  const { service, send, lines } = await mailCatcherService(t);
  await send(
    { from: 'wifi@localhost', to: 'private.person@example.com', subject: 'Private subject', text: `Verify: ${VERIFY_LINK}` },
    { user: 'keycloak', pass: SMTP_PASSWORD },
  );
  t.is(((await service.request('GET', '/api/v1/messages')).body['messages'] as unknown[]).length, 1);
  const log = lines.join('\n');
  t.true(log.includes('mail caught'), 'the catch itself is logged');
  for (const secret of [SMTP_PASSWORD, 'secret-part', 'action-token', 'private.person', 'Private subject'])
    t.false(log.includes(secret), `the log holds ${secret}`);
});

test('only the newest MAIL_KEEP messages are kept', async (t) => {
  const { service, send } = await mailCatcherService(t, { MAIL_KEEP: '2' });
  for (const n of [1, 2, 3]) await send({ from: 'wifi@localhost', to: 'keep@example.com', subject: `n${n}`, text: 'x' });
  const messages = (await service.request('GET', '/api/v1/messages')).body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(
    messages.map((mail) => mail['subject']),
    ['n3', 'n2'],
  );
});
