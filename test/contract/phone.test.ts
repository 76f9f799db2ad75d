import test from 'ava';
import { normalizePhone, ONE_TIME_CODE_PATTERN } from '../../contract/index.js';

test('Vietnamese mobile numbers in national and international forms become one E.164 number', (t) => {
  for (const typed of [
    '0912345678',
    '0912 345 678',
    '091-234-5678',
    '0912.345.678',
    '+84912345678',
    '+84 912 345 678',
    '0084912345678',
    '+840912345678',
    ' 0912345678 ',
  ])
    t.is(normalizePhone(typed), '+84912345678', typed);
  t.is(normalizePhone('0387654321'), '+84387654321', 'an 03x number');
  for (const prefix of ['3', '5', '7', '8', '9']) t.is(normalizePhone(`0${prefix}12345678`), `+84${prefix}12345678`);
});

test("another country's number is accepted in international form", (t) => {
  t.is(normalizePhone('+44 7700 900123'), '+447700900123');
  t.is(normalizePhone('+1-202-555-0143'), '+12025550143');
});

test('every malformed shape is refused', (t) => {
  const malformed = [
    '',
    ' ',
    '+',
    '091234567', // one digit short
    '09123456789', // one digit long
    '0212345678', // a landline prefix: no SMS
    '0112345678',
    '+8421234567',
    '+84 91234567',
    '84912345678', // international without + or 00
    '912345678', // no leading 0
    '09l2345678', // a letter l for a 1
    '0912345678a',
    '0912_345_678',
    '(091) 2345678',
    '0912  345678', // two separators in a row
    '-0912345678',
    '0912345678-',
    '++84912345678',
    '+0912345678',
    '+1234567', // too short for E.164
    '+1234567890123456', // longer than 15 digits
    '0912345678\n',
    '０９１２３４５６７８', // full-width digits
    `0${'9'.repeat(40)}`,
  ];
  for (const typed of malformed) t.is(normalizePhone(typed), undefined, JSON.stringify(typed));
});

test('a one-time code is six digits and nothing else', (t) => {
  t.true(ONE_TIME_CODE_PATTERN.test('012345'));
  for (const code of ['12345', '1234567', '12 345', '12345a', ' 123456', '１２３４５６', '12345\n'])
    t.false(ONE_TIME_CODE_PATTERN.test(code), JSON.stringify(code));
});
