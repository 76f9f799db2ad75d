import { Router } from 'express';
import { escapeHtml, sendCatcherPage as page } from '../kit/catcher-page.js';
import type { CaughtMail, Inbox } from './inbox.js';

// Mail is shown as text and links, never as its own HTML: no script, style or frame of a message runs here.

const links = (mail: CaughtMail) =>
  mail.links.length === 0
    ? '<p>No links.</p>'
    : `<ul>${mail.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('')}</ul>`;

/** The inbox in the browser: `GET /` lists the messages, `GET /messages/<id>` shows one as text with its links. */
export function inboxPages(inbox: Inbox): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    const rows = inbox
      .list()
      .map(
        (mail) =>
          `<tr><td>${escapeHtml(mail.receivedAt)}</td><td>${escapeHtml(mail.to.join(', '))}</td><td><a href="/messages/${escapeHtml(mail.id)}">${escapeHtml(mail.subject || '(no subject)')}</a></td></tr>`,
      )
      .join('');
    const table =
      rows === '' ? '<p>No mail yet.</p>' : `<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`;
    page(
      res,
      200,
      'Mail catcher',
      `<h1>Mail catcher</h1><p>Development only: every message sent here is kept in memory, newest first. JSON: <a href="/api/v1/messages">/api/v1/messages</a>.</p>${table}`,
    );
  });
  router.get('/messages/:id', (req, res) => {
    const mail = inbox.get(req.params.id);
    if (mail === undefined) {
      page(res, 404, 'Not found', '<p>No such message. <a href="/">Back to the inbox</a></p>');
      return;
    }
    page(
      res,
      200,
      mail.subject || '(no subject)',
      `<p><a href="/">Back to the inbox</a></p><h1>${escapeHtml(mail.subject || '(no subject)')}</h1><p>From ${escapeHtml(mail.from)} to ${escapeHtml(mail.to.join(', '))}, ${escapeHtml(mail.receivedAt)}</p><h2>Links</h2>${links(mail)}<h2>Text</h2><pre>${escapeHtml(mail.text)}</pre>`,
    );
  });
  return router;
}
