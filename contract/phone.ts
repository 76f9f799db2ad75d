/**
 * Phone numbers as the phone sign-in reads them: normalised to E.164 (`+` and 8-15 digits) before
 * anything is asked, so the portal refuses a malformed number with 400 before any call, and the
 * authenticator, the SMS sender and the loyalty lookup all key on one spelling of a number.
 *
 * Accepted: a Vietnamese mobile number in the national form a person types (`0` and nine digits
 * whose first is 3, 5, 7, 8 or 9: `0912 345 678`), the same after `+84` or `0084`, and any other
 * country's number in international form (`+` and country code). Spaces, dots and hyphens between
 * digits are read as grouping. Anything else (letters, other signs, a landline-shaped Vietnamese
 * number, too few or too many digits) is not a phone number.
 */
export const E164_PATTERN = /^\+[1-9][0-9]{7,14}$/;

const GROUPING = /^\+?[0-9]+(?:[ .-][0-9]+)*$/;
const VN_MOBILE_NATIONAL = /^0([35789][0-9]{8})$/;
const VN_MOBILE_SUBSCRIBER = /^[35789][0-9]{8}$/;

/** The number in E.164, or undefined when `input` is not a phone number this platform accepts. */
export function normalizePhone(input: string): string | undefined {
  const typed = input.replace(/^ +| +$/g, '');
  if (typed.length > 32 || !GROUPING.test(typed)) return undefined;
  const digits = typed.replace(/[ .-]/g, '');
  const national = VN_MOBILE_NATIONAL.exec(digits);
  if (national) return `+84${national[1]}`;
  const international = digits.startsWith('+') ? digits.slice(1) : digits.startsWith('00') ? digits.slice(2) : undefined;
  if (international === undefined) return undefined;
  if (international.startsWith('84')) {
    // A Vietnamese number must be a mobile one (a code by SMS needs one); a `0` kept after +84 is a common slip.
    const subscriber = international.slice(2).replace(/^0/, '');
    return VN_MOBILE_SUBSCRIBER.test(subscriber) ? `+84${subscriber}` : undefined;
  }
  const e164 = `+${international}`;
  return E164_PATTERN.test(e164) ? e164 : undefined;
}

/** A one-time code as a person types it: six digits, nothing else (spaces are not trimmed away). */
export const ONE_TIME_CODE_PATTERN = /^[0-9]{6}$/;
