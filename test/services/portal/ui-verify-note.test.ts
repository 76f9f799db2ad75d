import test from 'ava';
import { needsEmailVerification } from '../../../services/portal/ui/client/portal-session.js';

// The signed-in page tells a customer with an unverified email to check their mail.
const CASES: Array<[string, Parameters<typeof needsEmailVerification>[0], boolean]> = [
  ['a customer whose email is not verified', { user_type: 'CUSTOMER', email: 'new@example.com', email_verified: false }, true],
  ['a freshly registered account without user_type', { email: 'new@example.com', email_verified: false }, true],
  ['a customer whose email is verified', { user_type: 'CUSTOMER', email: 'gold@demo.example', email_verified: true }, false],
  ['an employee', { user_type: 'EMPLOYEE', email: 'emp@example.com', email_verified: false }, false],
  ['an account without email', { user_type: 'CUSTOMER', email_verified: false }, false],
  ['claims that do not say', { user_type: 'CUSTOMER', email: 'x@example.com' }, false],
];

for (const [name, claims, shown] of CASES) {
  test(`${name}: the check-your-mail note is ${shown ? 'shown' : 'hidden'}`, (t) => {
    t.is(needsEmailVerification(claims), shown);
  });
}
