// The stand-in FAS inside internet-server.ts. GET: the redirected browser's arrival, reported to
// the parent. POST: openNDS's authmon (FAS level 3, post-request.php) asking with form fields
// `auth_get`, `gatewayhash` and a base64 `payload`: "clear" on start, then "view" every poll with
// payload "none" (answered with the queued grants, contract authList) or an ack list "* rhid ..."
// of those it authorised (dropped from the queue, answered "ack"); `custom` carries the revocation
// channel of router/revocation-poll.sh. The parent queues grants and revocations by writing
// {"authorise": AuthmonGrant} and {"revoke": rhid} lines to stdin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { ackedRhids, authList, REVOCATIONS_REQUEST, revocationList, revokedRhids, type AuthmonGrant } from '../../edge/controllers/opennds-authmon.js';

const queue: AuthmonGrant[] = [];
const revocations: string[] = [];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { authorise?: AuthmonGrant; revoke?: string };
  if (message.authorise !== undefined) queue.push(message.authorise);
  if (message.revoke !== undefined) revocations.push(message.revoke);
});

// auth_get=custom: the revocation channel of router/revocation-poll.sh.
function answerCustom(payload: string): string {
  if (payload === REVOCATIONS_REQUEST) return revocationList(revocations);
  for (const rhid of revokedRhids(payload) ?? []) {
    const at = revocations.indexOf(rhid);
    if (at >= 0) revocations.splice(at, 1);
  }
  return 'ack';
}

function report(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function answerAuthmon(request: IncomingMessage, body: string): string {
  const form = new URLSearchParams(body);
  const action = form.get('auth_get') ?? '';
  const payload = Buffer.from(form.get('payload') ?? '', 'base64').toString('utf8');
  // The request as sent besides (path, content type, the form body as it came): what
  // scripts/opennds/record-captures.ts keeps of the real openNDS.
  const wire = { path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body };
  report({ authmon: { action, gatewayhash: form.get('gatewayhash') ?? '', payload, wire } });
  if (action === 'clear') {
    queue.length = 0;
    return '';
  }
  if (action === 'custom') return answerCustom(payload);
  if (action !== 'view') return 'ack';
  if (payload === 'none') return authList(queue);
  for (const rhid of ackedRhids(payload) ?? []) {
    const at = queue.findIndex((grant) => grant.rhid === rhid);
    if (at >= 0) queue.splice(at, 1);
  }
  return 'ack';
}

export function fasHandler(request: IncomingMessage, response: ServerResponse): void {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    let answer = 'ndst-fas\n';
    if (request.method === 'POST') answer = answerAuthmon(request, body);
    else report({ fas: request.url ?? '' });
    response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    response.end(answer);
  });
}
