import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import radius from 'radius';

export type DisconnectAnswer = 'ACK' | 'NAK' | 'NO_ANSWER';

export interface DisconnectTarget {
  address: string;
  port: number;
  secret: string;
  nasId: string;
}

/**
 * Sends one RFC 5176 Disconnect-Request (with Message-Authenticator) for a gateway session and
 * waits up to `timeoutMs` for a Disconnect-ACK or -NAK that carries our identifier and verifies
 * under the NAS's secret; anything else is ignored, silence is NO_ANSWER.
 */
export function sendDisconnect(target: DisconnectTarget, acctSessionId: string, timeoutMs: number): Promise<DisconnectAnswer> {
  const identifier = randomInt(256);
  const request = radius.encode({
    code: 'Disconnect-Request',
    secret: target.secret,
    identifier,
    attributes: [
      ['Acct-Session-Id', acctSessionId],
      ['NAS-Identifier', target.nasId],
    ],
    add_message_authenticator: true,
  });
  const socket = createSocket(target.address.includes(':') ? 'udp6' : 'udp4');
  return new Promise<DisconnectAnswer>((resolve) => {
    const done = (answer: DisconnectAnswer) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done('NO_ANSWER'), timeoutMs);
    socket.on('error', () => done('NO_ANSWER'));
    socket.on('message', (message) => {
      try {
        if (message.length < 20 || message.readUInt8(1) !== identifier) return;
        if (!radius.verify_response({ request: Buffer.from(request), response: Buffer.from(message), secret: target.secret })) return;
        const code = radius.decode({ packet: message, secret: target.secret }).code;
        if (code === 'Disconnect-ACK') done('ACK');
        else if (code === 'Disconnect-NAK') done('NAK');
      } catch {
        // not an answer of ours
      }
    });
    socket.send(request, target.port, target.address, (error) => {
      if (error) done('NO_ANSWER');
    });
  });
}
