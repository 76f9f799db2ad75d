import { Router } from 'express';
import { escapeHtml, sendCatcherPage as page } from '../kit/catcher-page.js';
import type { SmsInbox } from './inbox.js';

/** The inbox in the browser: `GET /` lists the texts (they are short: shown whole), `GET /messages/<id>` one of them. */
export function smsPages(inbox: SmsInbox): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    const rows = inbox
      .list()
      .map(
        (sms) =>
          `<tr><td><a href="/messages/${escapeHtml(sms.id)}">${escapeHtml(sms.receivedAt)}</a></td><td>${escapeHtml(sms.to)}</td><td>${escapeHtml(sms.text)}</td></tr>`,
      )
      .join('');
    const table =
      rows === '' ? '<p>No text messages yet.</p>' : `<table><thead><tr><th>Received</th><th>To</th><th>Text</th></tr></thead><tbody>${rows}</tbody></table>`;
    page(
      res,
      200,
      'SMS catcher',
      `<h1>SMS catcher</h1><p>Development only: every text message sent here is kept in memory, newest first. JSON: <a href="/api/v1/messages">/api/v1/messages</a>.</p>${table}`,
    );
  });
  router.get('/messages/:id', (req, res) => {
    const sms = inbox.get(req.params.id);
    if (sms === undefined) {
      page(res, 404, 'Not found', '<p>No such message. <a href="/">Back to the inbox</a></p>');
      return;
    }
    page(
      res,
      200,
      `Text to ${sms.to}`,
      `<p><a href="/">Back to the inbox</a></p><h1>Text to ${escapeHtml(sms.to)}</h1><p>From ${escapeHtml(sms.from || '(no sender name)')}, ${escapeHtml(sms.receivedAt)}</p><pre>${escapeHtml(sms.text)}</pre>`,
    );
  });
  return router;
}
