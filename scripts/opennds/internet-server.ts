// The "internet" of the openNDS harness, run inside its namespace by internet.ts:
//   node --import tsx internet-server.ts <webPort> [<fasPort>]
// The web port answers every GET with a marker body and the asker's address, so a test can tell
// the real server from openNDS's interception. The optional FAS port stands for a remote FAS: it
// prints each request's URL as a JSON line ({"fas": url}) for the parent and answers 200.
// "ready" on stdout once both listen. A program, not a module: import nothing from it.
import { createServer } from 'node:http';
import { INTERNET_MARKER } from './internet-marker.js';

const [webPort, fasPort] = process.argv.slice(2).map(Number);

function listen(port: number, handler: Parameters<typeof createServer>[1]): Promise<void> {
  const server = createServer(handler);
  server.keepAliveTimeout = 1000;
  return new Promise((resolve) => server.listen(port, '0.0.0.0', resolve));
}

const listening = [
  listen(webPort ?? 80, (request, response) => {
    // /bytes/<n>: n bytes of body, to use up a data quota.
    const size = /^\/bytes\/(\d{1,9})$/.exec(request.url ?? '')?.[1];
    if (size !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', connection: 'close' });
      response.end(Buffer.alloc(Number(size), 0x61));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
    response.end(`${INTERNET_MARKER} ${request.socket.remoteAddress ?? ''} ${request.url ?? ''}\n`);
  }),
];
if (fasPort !== undefined) {
  listening.push(
    listen(fasPort, (request, response) => {
      process.stdout.write(`${JSON.stringify({ fas: request.url ?? '' })}\n`);
      response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      response.end('ndst-fas\n');
    }),
  );
}
await Promise.all(listening);
process.stdout.write('ready\n');
