import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM for secrets at rest: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

const TAG_BYTES = 16;

/** A sealer under a 32-byte key given in base64; `open` throws on a wrong key or a changed value. */
export function createSealer(base64Key: string): Sealer {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== 32) throw new Error('seal key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed value');
      // Node takes any GCM tag of 4..16 bytes unless told its length: a cut tag must not open.
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
