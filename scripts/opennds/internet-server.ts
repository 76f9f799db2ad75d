// The "internet" of the openNDS harness, run inside its namespace by internet.ts:
//   node --import tsx internet-server.ts <webPort> [<fasPort> [<tlsCertFile> <tlsKeyFile>]]
// The web port answers every GET with a marker body and the asker's address, so a test can tell
// the real server from openNDS's interception, /bytes/<n> with n bytes, and a POST with the size of
// its body once read. The optional FAS port
// (https with a certificate: level 3) is fas-stub.ts, or, with FAS_RELAY_SOCKET set, a reverse
// proxy to that Unix socket (the real portal, reached from outside the namespaces: fas-relay.ts).
// "ready" on stdout once all listen.
// A program, not a module: import nothing from it.
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { fasHandler } from './fas-stub.js';
import { relayHandler } from './fas-relay.js';
import { INTERNET_MARKER } from './internet-marker.js';

const [webPort = '80', fasPort, certFile, keyFile] = process.argv.slice(2);

function listen(port: number, handler: RequestListener, tls?: { cert: Buffer; key: Buffer }): Promise<void> {
  const server = tls === undefined ? createServer(handler) : createTlsServer(tls, handler);
  server.keepAliveTimeout = 1000;
  return new Promise((resolve) => server.listen(port, '0.0.0.0', resolve));
}

const listening = [
  listen(Number(webPort), (request, response) => {
    // A POST's body is read whole, then its size answered: traffic the client sends (an upload).
    if (request.method === 'POST') {
      let received = 0;
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
        response.end(`${INTERNET_MARKER} received ${received}\n`);
      });
      return;
    }
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
  const tls = certFile !== undefined && keyFile !== undefined ? { cert: readFileSync(certFile), key: readFileSync(keyFile) } : undefined;
  const relaySocket = process.env['FAS_RELAY_SOCKET'];
  listening.push(listen(Number(fasPort), relaySocket === undefined || relaySocket === '' ? fasHandler : relayHandler(relaySocket, tls !== undefined), tls));
}
await Promise.all(listening);
process.stdout.write('ready\n');
