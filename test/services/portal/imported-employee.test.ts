import test from 'ava';
import { isImportedEmployee, isVoucherAccount } from '../../../services/portal/account-admin.js';

// An account HR's import made is its company's HR's to remove, not its holder's: Keycloak's
// attributes (as the admin API answers them, lists of strings) say so.
const CASES: Array<[string, Record<string, unknown> | undefined, boolean]> = [
  ['an account with an employee reference', { employee_ref: ['E-1001'], company: ['ACME'] }, true],
  ['an account of user type EMPLOYEE', { user_type: ['EMPLOYEE'] }, true],
  ['a customer', { user_type: ['CUSTOMER'] }, false],
  ['a customer whose employee reference is empty', { user_type: ['CUSTOMER'], employee_ref: [''] }, false],
  ['an account without attributes', undefined, false],
];

for (const [name, attributes, employee] of CASES) {
  test(`${name}: ${employee ? "left to the company's HR" : 'its holder may delete it'}`, (t) => {
    t.is(isImportedEmployee(attributes), employee);
  });
}

test("a voucher's account (user type VOUCHER) is the venue's; a customer's and an employee's are not", (t) => {
  t.true(isVoucherAccount({ user_type: ['VOUCHER'], voucher_batch: ['b-1'] }));
  t.false(isVoucherAccount({ user_type: ['CUSTOMER'] }));
  t.false(isVoucherAccount({ user_type: ['EMPLOYEE'] }));
  t.false(isVoucherAccount(undefined));
});
