import type { Response } from 'express';

/** Text made safe inside HTML, attribute values included. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

/**
 * One page of a development catcher's inbox (mail, SMS): no script and no frame may run (the CSP
 * allows only inline style), nothing cached, no referrer. `body` is HTML the caller escaped.
 */
export function sendCatcherPage(res: Response, status: number, title: string, body: string): void {
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
