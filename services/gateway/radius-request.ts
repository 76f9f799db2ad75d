import { z } from 'zod';

/**
 * The body FreeRADIUS's rest module posts with `body = 'json'`: every request attribute as
 * `{"User-Name": {"type": "string", "value": ["alice"]}}`; octets come as `0x...` hex, integers
 * with named values (Acct-Status-Type) as their names.
 */
export const RadiusAttributes = z.record(
  z.string().max(64),
  z.object({ type: z.string().max(32), value: z.array(z.union([z.string().max(4096), z.number()])).max(16) }).loose(),
);
export type RadiusAttributes = z.output<typeof RadiusAttributes>;

/** The first value of an attribute as text, or undefined. */
export function text(attributes: RadiusAttributes, name: string): string | undefined {
  const value = attributes[name]?.value[0];
  return value === undefined ? undefined : String(value);
}

/** An octets attribute's bytes (`0x...`), or undefined when absent or not hex. */
export function octets(attributes: RadiusAttributes, name: string): Buffer | undefined {
  const value = text(attributes, name);
  if (value === undefined || !/^0x([0-9a-fA-F]{2})+$/.test(value)) return undefined;
  return Buffer.from(value.slice(2), 'hex');
}

/** A non-negative integer attribute, 0 when absent or malformed. */
export function count(attributes: RadiusAttributes, name: string): number {
  const value = Number(text(attributes, name));
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The reply FreeRADIUS turns into Access-Reject with a Reply-Message (HTTP 401). */
export const reject = (message: string) => ({ status: 401, body: { 'reply:Reply-Message': message } });

export const RejectBody = z.object({ 'reply:Reply-Message': z.string() });
/** Session-Timeout and Class always; the limits as the gateway's controller profile names them (edge/controllers). */
export const AcceptBody = z
  .object({
    'reply:Session-Timeout': z.number().int(),
    'reply:Class': z.string(),
  })
  .catchall(z.union([z.number(), z.string()]));
