import { createSocket } from 'node:dgram';
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import radius from 'radius';
import { sourceDir } from '../kit/store/index.js';

/** RFC 5176's two requests and the codes of their answers. */
const KINDS = {
  Disconnect: { request: 'Disconnect-Request', ack: 41, nak: 42 },
  CoA: { request: 'CoA-Request', ack: 44, nak: 45 },
} as const;
export type ChangeKind = keyof typeof KINDS;

// The vendors' attributes a CoA-Request may carry (the package knows only the RFC ones); each is
// sent inside a Vendor-Specific attribute of its vendor.
radius.add_dictionary(sourceDir(new URL('./dictionaries/dictionary.controllers', import.meta.url)));
const VENDOR_OF: Readonly<Record<string, number>> = {
  'WISPr-Bandwidth-Max-Up': 14122,
  'WISPr-Bandwidth-Max-Down': 14122,
  'Mikrotik-Rate-Limit': 14988,
  'ChilliSpot-Max-Total-Octets': 14559,
};
const MESSAGE_AUTHENTICATOR = 80;
const ERROR_CAUSE = 101;

export type DisconnectAnswer = 'ACK' | 'NAK' | 'NO_ANSWER';

/** What came back: the answer, and a NAK's Error-Cause (RFC 5176 3.6) when it carried one. */
export interface DisconnectReply {
  answer: DisconnectAnswer;
  errorCause?: number;
}

/** RFC 5176 3.6: Error-Cause 503, the NAS has no session matching the request. */
export const SESSION_CONTEXT_NOT_FOUND = 503;

export interface DisconnectTarget {
  address: string;
  port: number;
  secret: string;
}

/** A Disconnect- or CoA-Request's attributes in the `radius` package's form (name, value); vendor attributes by their name. */
export type DisconnectAttributes = [string, string | number | Date][];

/** The package's form: a vendor's attribute goes inside Vendor-Specific. */
function encoded(attributes: DisconnectAttributes): unknown[] {
  return attributes.map(([name, value]) => (VENDOR_OF[name] === undefined ? [name, value] : ['Vendor-Specific', VENDOR_OF[name], [[name, value]]]));
}

/**
 * Sends one RFC 5176 Disconnect-Request (with Message-Authenticator) naming a gateway session by
 * `attributes` and waits up to `timeoutMs` for a Disconnect-ACK or -NAK that carries our
 * identifier and verifies under the NAS's secret (Response Authenticator, and its
 * Message-Authenticator when it has one); anything else is ignored, silence is NO_ANSWER.
 */
export function sendDisconnect(target: DisconnectTarget, attributes: DisconnectAttributes, timeoutMs: number): Promise<DisconnectReply> {
  return sendChange('Disconnect', target, attributes, timeoutMs);
}

/** The same for a CoA-Request (new limits for a running session); CoA-ACK/-NAK. */
export function sendCoa(target: DisconnectTarget, attributes: DisconnectAttributes, timeoutMs: number): Promise<DisconnectReply> {
  return sendChange('CoA', target, attributes, timeoutMs);
}

function sendChange(kind: ChangeKind, target: DisconnectTarget, attributes: DisconnectAttributes, timeoutMs: number): Promise<DisconnectReply> {
  const codes = KINDS[kind];
  const identifier = randomInt(256);
  const request = signed(
    radius.encode({ code: codes.request, secret: target.secret, identifier, attributes: encoded(attributes), add_message_authenticator: true }),
    target.secret,
  );
  const socket = createSocket(target.address.includes(':') ? 'udp6' : 'udp4');
  return new Promise<DisconnectReply>((resolve) => {
    const done = (reply: DisconnectReply) => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const timer = setTimeout(() => done({ answer: 'NO_ANSWER' }), timeoutMs);
    socket.on('error', () => done({ answer: 'NO_ANSWER' }));
    socket.on('message', (message) => {
      if (message.length < 20 || message.readUInt8(1) !== identifier || !answersRequest(request, message, target.secret)) return;
      const code = message.readUInt8(0);
      const errorCause = attributeOf(message, ERROR_CAUSE);
      if (code === codes.ack) done({ answer: 'ACK' });
      else if (code === codes.nak) done({ answer: 'NAK', ...(errorCause?.length === 4 ? { errorCause: errorCause.readUInt32BE(0) } : {}) });
    });
    socket.send(request, target.port, target.address, (error) => {
      if (error) done({ answer: 'NO_ANSWER' });
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
  createHmac('md5', secret)
    .update(out)
    .digest()
    .copy(out, out.length - 16);
  createHash('md5').update(out).update(secret).digest().copy(out, 4);
  return out;
}

/** The value of the first attribute of `type` in a packet, or undefined (also when the attributes are malformed). */
function attributeOf(packet: Buffer, type: number): Buffer | undefined {
  const length = Math.min(packet.readUInt16BE(2), packet.length);
  for (let at = 20; at + 2 <= length; ) {
    const size = packet.readUInt8(at + 1);
    if (size < 2 || at + size > length) return undefined;
    if (packet.readUInt8(at) === type) return packet.subarray(at + 2, at + size);
    at += size;
  }
  return undefined;
}

/**
 * RFC 2865 3 / RFC 5176 3.5: Response Authenticator = MD5(code + id + length + Request
 * Authenticator + attributes + secret); a Message-Authenticator in the answer (RFC 3579 3.2) is
 * HMAC-MD5 over the answer with the Request Authenticator in place and itself zeroed.
 */
function answersRequest(request: Buffer, response: Buffer, secret: string): boolean {
  const length = response.readUInt16BE(2);
  if (length < 20 || length > response.length) return false;
  const copy = Buffer.from(response.subarray(0, length));
  request.copy(copy, 4, 4, 20);
  if (!createHash('md5').update(copy).update(secret).digest().equals(response.subarray(4, 20))) return false;
  const given = attributeOf(copy, MESSAGE_AUTHENTICATOR);
  if (given === undefined) return true;
  if (given.length !== 16) return false;
  const presented = Buffer.from(given);
  given.fill(0);
  return timingSafeEqual(createHmac('md5', secret).update(copy).digest(), presented);
}
