import { Router, type Response } from 'express';
import type { CaughtMail, Inbox } from './inbox.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

function page(res: Response, status: number, title: string, body: string): void {
  // Mail is shown as text and links, never as its own HTML: no script, style or frame of a message runs here.
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
        '<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}td,th{padding:.3rem .6rem;text-align:left;border-bottom:1px solid #ccc}pre{white-space:pre-wrap;background:#f4f4f4;padding:1rem}</style>' +
        `</head><body>${body}</body></html>`,
    );
}

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
