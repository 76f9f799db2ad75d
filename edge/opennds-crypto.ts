import { createDecipheriv, createHash } from 'node:crypto';
import { fasBase64, isFasIv, parseFasFields, type OpenndsFasQuery } from './controllers/opennds.js';

/**
 * openNDS's return hash id (src/client_list.c): hex SHA-256 of `hid` followed by the gateway's
 * `faskey`. A FAS proves it holds the key by sending this back as `tok` (levels 1/2) or
 * `rhid` (level 3, through authmon).
 */
export function rhidOf(hid: string, faskey: string): string {
  return createHash('sha256').update(`${hid}${faskey}`).digest('hex');
}

/**
 * openNDS's hid of a client (src/client_list.c): hex SHA-256 of its 8-hex-digit token, no key.
 * A BinAuth deauthentication notice names the token: this finds the session that arrived with
 * that hid.
 */
export function hidOfToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// openNDS encrypts with PHP's openssl_encrypt and the faskey as the key: PHP pads a short key
// with NUL bytes and cuts a long one to the cipher's 32 bytes.
function phpAesKey(faskey: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(faskey, 'utf8').copy(key, 0, 0, 32);
  return key;
}

/**
 * Levels 2/3: the `fas` parameter is base64 of openssl_encrypt's own base64 output of
 * AES-256-CBC (PKCS#7) over the query text. Undefined for anything that does not decrypt to an
 * openNDS query: another key, a tampered value, a malformed iv.
 */
export function decryptFasQuery(fas: string, iv: string, faskey: string): OpenndsFasQuery | undefined {
  const outer = fasBase64(fas);
  if (outer === undefined || !isFasIv(iv)) return undefined;
  const inner = fasBase64(Buffer.from(outer, 'base64').toString('latin1'));
  if (inner === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-cbc', phpAesKey(faskey), Buffer.from(iv, 'latin1'));
    const text = Buffer.concat([decipher.update(Buffer.from(inner, 'base64')), decipher.final()]).toString('utf8');
    return parseFasFields(text);
  } catch {
    return undefined; // bad padding: another key or a changed ciphertext
  }
}
