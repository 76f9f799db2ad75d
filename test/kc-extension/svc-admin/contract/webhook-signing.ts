import { createHmac, randomUUID } from 'node:crypto';

/** spec 6: base64 HMAC-SHA256 over `<timestamp>.<raw body bytes>`. */
export function signedHeaders(secret: string, body: Buffer, timestampSeconds: number, eventId: string = randomUUID()): Record<string, string> {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestampSeconds}.`);
  mac.update(body);
  return {
    'Content-Type': 'application/json',
    'X-SVC-Timestamp': String(timestampSeconds),
    'X-SVC-Signature': mac.digest('base64'),
    'X-SVC-Event-Id': eventId,
  };
}
