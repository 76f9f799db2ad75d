/**
 * Address ranges for the connector probe (no Node APIs: this runs in Keycloak's GraalJS). An
 * address is a 128-bit number; IPv4 addresses sit in the IPv4-mapped block (::ffff:0:0/96), so
 * one comparison serves both families and a mapped address is judged as the IPv4 it carries.
 */
interface Range {
  base: bigint;
  bits: number;
}

const MAPPED = 0xffff00000000n;

function ipv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);
}

function ipv6(text: string): bigint | undefined {
  if (text.split('::').length > 2) return undefined;
  let groups = text.split(':');
  const tail = groups[groups.length - 1] ?? '';
  if (tail.includes('.')) {
    const v4 = ipv4(tail);
    if (v4 === undefined) return undefined;
    groups = [...groups.slice(0, -1), (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16)];
  }
  const gap = groups.indexOf('');
  if (text.includes('::')) {
    const head = text.startsWith('::') ? [] : groups.slice(0, gap);
    const rest = groups.slice(groups.lastIndexOf('') + 1);
    if (head.length + rest.length > 7) return undefined;
    groups = [...head, ...new Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  }
  if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** An IPv4 or IPv6 literal (brackets allowed) as a 128-bit number, IPv4 mapped; undefined when it is none. */
export function parseAddress(text: string): bigint | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const v4 = ipv4(bare);
  return v4 !== undefined ? MAPPED | v4 : bare.includes(':') ? ipv6(bare) : undefined;
}

/** `a.b.c.d/n` or `x::y/n` (a bare address is its own /32 or /128); undefined when malformed. */
export function parseRange(text: string): Range | undefined {
  const [address = '', length] = text.trim().split('/');
  const base = parseAddress(address);
  if (base === undefined) return undefined;
  const family = ipv4(address) !== undefined ? 32 : 128;
  const prefix = length === undefined ? family : /^\d{1,3}$/.test(length) ? Number(length) : NaN;
  if (!(prefix >= 0 && prefix <= family)) return undefined;
  return { base, bits: prefix + (128 - family) };
}

export function inRange(address: bigint, range: Range): boolean {
  const shift = BigInt(128 - range.bits);
  return address >> shift === range.base >> shift;
}

/**
 * Targets the probe refuses unless the operator allows them: this host and its neighbours, the
 * private networks and link-local space (cloud metadata services answer there), and addresses
 * that are no single host (unspecified, multicast, broadcast, reserved).
 */
export const INTERNAL_RANGES: readonly Range[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/3',
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
].map((text) => {
  const range = parseRange(text);
  if (range === undefined) throw new Error(`not an address range: ${text}`);
  return range;
});
