// The stand-in FAS inside internet-server.ts. GET: the redirected browser's arrival, reported to
// the parent. POST: openNDS's authmon (FAS level 3, post-request.php) asking with form fields
// `auth_get`, `gatewayhash` and a base64 `payload`: "clear" on start, then "view" every poll with
// payload "none" (answered "*" and the queued clients, each percent-encoded
// "rhid minutes upload-kbit/s download-kbit/s upload-kB download-kB custom") or an ack list
// "* rhid ..." of those it authorised (dropped from the queue, answered "ack"). The parent queues
// clients by writing {"authorise": "..."} lines to stdin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';

const queue: string[] = [];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { authorise?: string };
  if (typeof message.authorise === 'string') queue.push(message.authorise);
});

function report(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

// What PHP's rawurlencode leaves alone; authmon turns every %XX back with printf.
const encoded = (entry: string) => encodeURIComponent(entry).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function answerAuthmon(form: URLSearchParams): string {
  const action = form.get('auth_get') ?? '';
  const payload = Buffer.from(form.get('payload') ?? '', 'base64').toString('utf8');
  report({ authmon: { action, gatewayhash: form.get('gatewayhash') ?? '', payload } });
  if (action === 'clear') {
    queue.length = 0;
    return '';
  }
  if (action !== 'view') return 'ack';
  if (payload !== 'none') {
    for (const rhid of payload.replace(/^\*/, '').trim().split(/\s+/)) {
      const at = queue.findIndex((entry) => entry.split(' ')[0] === rhid);
      if (at >= 0) queue.splice(at, 1);
    }
    return 'ack';
  }
  return ['*', ...queue.map(encoded)].join(' ');
}

export function fasHandler(request: IncomingMessage, response: ServerResponse): void {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    let answer = 'ndst-fas\n';
    if (request.method === 'POST') answer = answerAuthmon(new URLSearchParams(body));
    else report({ fas: request.url ?? '' });
    response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    response.end(answer);
  });
}
