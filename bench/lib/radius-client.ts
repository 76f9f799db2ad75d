// A RADIUS client socket as a NAS sends from (npm `radius`), shared by bench:radius and bench:memory.
import { createSocket } from 'node:dgram';
import radius from 'radius';

export type Attributes = [string, string | number | Buffer][];

/** One socket: sends a packet and resolves with the decoded answer's code (one packet at a time). */
export function radiusClient(port: number, secret: string) {
  const socket = createSocket('udp4');
  let pending: ((packet: Buffer) => void) | undefined;
  socket.on('message', (message) => pending?.(message));
  let identifier = 0;
  return {
    send(code: string, attributes: Attributes): Promise<string> {
      identifier = (identifier + 1) % 256;
      // Access-Requests carry a Message-Authenticator (FreeRADIUS drops them otherwise: BlastRADIUS).
      const packet = radius.encode({ code, secret, identifier, attributes, add_message_authenticator: code === 'Access-Request' });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer')), 5000);
        pending = (message) => {
          if (message.readUInt8(1) !== identifier) return;
          clearTimeout(timer);
          resolve(radius.decode({ packet: message, secret }).code);
        };
        socket.send(packet, port, '127.0.0.1');
      });
    },
    close: () => socket.close(),
  };
}
