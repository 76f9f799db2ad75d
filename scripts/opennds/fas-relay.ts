// The real portal as openNDS's FAS in the harness. The portal runs outside the
// namespaces (on 127.0.0.1, as `make up` or the test run starts it) and the namespaces have no
// route there, so the FAS port in the internet namespace is a reverse proxy to a Unix socket
// (paths, unlike ports, are seen from every network namespace), and `bridgeToTcp`, in the root
// namespace, joins that socket to the portal's port. The proxy adds X-Forwarded-For (the
// router's or client's address) and X-Forwarded-Proto, as a venue's TLS front end would.
import { request as httpRequest, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { connect, createServer, type Server } from 'node:net';

/** The internet namespace's side: each request to the FAS port, sent on over `socketPath`. */
export function relayHandler(socketPath: string, https: boolean): RequestListener {
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const headers = {
      ...incoming.headers,
      'x-forwarded-for': incoming.socket.remoteAddress ?? '',
      'x-forwarded-proto': https ? 'https' : 'http',
      connection: 'close',
    };
    const upstream = httpRequest({ socketPath, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain', connection: 'close' });
      outgoing.end('fas relay: the portal did not answer\n');
    });
    incoming.pipe(upstream);
  };
}

/** The root namespace's side: the Unix socket joined to `host:port` (the portal). Close it to stop. */
export function bridgeToTcp(socketPath: string, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((inbound) => {
    const outbound = connect(port, host);
    inbound.pipe(outbound).pipe(inbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end);
    outbound.on('error', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}
