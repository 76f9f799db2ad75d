/**
 * FEEL numbers are decimals (DMN 1.3 section 10.3.2.3.1); the engine carries them as doubles
 * and reads each as the shortest decimal of 15 significant digits, which every double holds
 * exactly. Rounding (section 10.3.4.4 and DMN 1.4's rounding functions) works on those digits,
 * so `round half up(2.675, 2)` is 2.68 as written, not 2.67 as the double 2.67499... would give.
 */

/** A double as the decimal it stands for: sums, differences and products lose binary noise. */
export const decimal = (n: number): number => (Number.isInteger(n) || !Number.isFinite(n) ? n : Number(n.toPrecision(15)));

export type RoundingMode = 'up' | 'down' | 'half up' | 'half down' | 'half even' | 'floor' | 'ceiling';

// `n` as an integer of digits and a power of ten: n = digits * 10^exponent.
function digitsOf(n: number): { digits: bigint; exponent: number } {
  const text = decimal(n).toExponential();
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return { digits: BigInt(Math.trunc(n)), exponent: 0 };
  const fraction = match[3] ?? '';
  return { digits: BigInt(`${match[1]}${match[2]}${fraction}`), exponent: Number(match[4]) - fraction.length };
}

/** Rounds `n` to `scale` decimal places (a negative scale rounds to tens, hundreds, ...). */
export function roundDecimal(n: number, scale: number, mode: RoundingMode): number {
  const { digits, exponent } = digitsOf(n);
  const drop = -scale - exponent;
  if (drop <= 0) return decimal(n);
  const unit = 10n ** BigInt(drop);
  const negative = digits < 0n;
  const magnitude = negative ? -digits : digits;
  let kept = magnitude / unit;
  const rest = magnitude % unit;
  const twice = rest * 2n;
  const awayFromZero = (() => {
    if (rest === 0n) return false;
    switch (mode) {
      case 'up':
        return true;
      case 'down':
        return false;
      case 'floor':
        return negative;
      case 'ceiling':
        return !negative;
      case 'half up':
        return twice >= unit;
      case 'half down':
        return twice > unit;
      case 'half even':
        return twice > unit || (twice === unit && kept % 2n === 1n);
    }
  })();
  if (awayFromZero) kept += 1n;
  const signed = negative ? -kept : kept;
  return decimal(Number(`${signed}e${-scale}`)) + 0;
}
