import { createSocket } from 'node:dgram';
import { createHash, createHmac, randomInt } from 'node:crypto';
import radius from 'radius';

const DISCONNECT_ACK = 41;
const DISCONNECT_NAK = 42;

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
  const request = signed(
    radius.encode({
      code: 'Disconnect-Request',
      secret: target.secret,
      identifier,
      attributes: [
        ['Acct-Session-Id', acctSessionId],
        ['NAS-Identifier', target.nasId],
      ],
      add_message_authenticator: true,
    }),
    target.secret,
  );
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
      if (message.length < 20 || message.readUInt8(1) !== identifier || !answersRequest(request, message, target.secret)) return;
      const code = message.readUInt8(0);
      if (code === DISCONNECT_ACK) done('ACK');
      else if (code === DISCONNECT_NAK) done('NAK');
    });
    socket.send(request, target.port, target.address, (error) => {
      if (error) done('NO_ANSWER');
    });
  });
}

/**
 * RFC 5176 3.5: a Disconnect-Request's Message-Authenticator is the HMAC-MD5 of the packet with a
 * zero Request Authenticator, which then is MD5(packet + secret) over the result. The `radius`
 * package (1.1.4) computes the Message-Authenticator after the authenticator for every request
 * code, which FreeRADIUS rejects; both are recomputed here. The package appends the
 * Message-Authenticator last, so it is the final 16 bytes.
 */
function signed(packet: Buffer, secret: string): Buffer {
  const out = Buffer.from(packet);
  out.fill(0, 4, 20);
  out.fill(0, out.length - 16);
  createHmac('md5', secret).update(out).digest().copy(out, out.length - 16);
  createHash('md5').update(out).update(secret).digest().copy(out, 4);
  return out;
}

/** RFC 2865 3 / RFC 5176 3.5: Response Authenticator = MD5(code + id + length + Request Authenticator + attributes + secret). */
function answersRequest(request: Buffer, response: Buffer, secret: string): boolean {
  const length = response.readUInt16BE(2);
  if (length < 20 || length > response.length) return false;
  const copy = Buffer.from(response.subarray(0, length));
  request.copy(copy, 4, 4, 20);
  return createHash('md5').update(copy).update(secret).digest().equals(response.subarray(4, 20));
}
