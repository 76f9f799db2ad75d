/// <reference lib="dom" />
import { callApi } from './api.js';
import { setText } from './i18n.js';
import type { PortalSession } from './portal-session.js';

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

/** The confirmation step shown or hidden; focus goes where the person's next step is. */
function confirming(open: boolean): void {
  byId('erase-confirm').hidden = !open;
  byId('erase-start').setAttribute('aria-expanded', String(open));
  (open ? byId('erase-confirm-text') : byId('erase-start')).focus();
}

/**
 * "Delete my account" on the signed-in page: a first button opens a confirmation naming what
 * goes, a second one deletes (Escape or "Keep" closes it). An imported employee's account is
 * their company's HR's to remove: the page says so instead of offering the button.
 */
export function renderErase(session: PortalSession): void {
  const employee = session.claims.user_type === 'EMPLOYEE';
  // A voucher's account is the venue's (shared, no personal data of its own): svc-admin revokes it.
  const voucher = session.claims.user_type === 'VOUCHER';
  byId('erase-employee').hidden = !employee;
  byId('erase-voucher').hidden = !voucher;
  byId('erase-start').hidden = employee || voucher;
  byId('erase-confirm').hidden = true;
  byId('erase-start').setAttribute('aria-expanded', 'false');
  setText(byId('erase-error'), null);
}

export function wireErase(onErased: () => void): void {
  const yes = byId('erase-yes');
  byId('erase-start').addEventListener('click', () => confirming(true));
  byId('erase-no').addEventListener('click', () => confirming(false));
  byId('erase-confirm').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') confirming(false);
  });
  yes.addEventListener('click', () => {
    if (yes.getAttribute('aria-disabled') === 'true') return;
    yes.setAttribute('aria-disabled', 'true');
    void callApi<{ erased: boolean }>('POST', '/api/v1/me/erase', { confirm: true }).then((answer) => {
      yes.removeAttribute('aria-disabled');
      if (answer.ok) {
        onErased();
        return;
      }
      const code = 'code' in answer ? answer.code : undefined;
      const managed = code === 'ACCOUNT_MANAGED_BY_EMPLOYER' ? 'erase.employee' : code === 'ACCOUNT_MANAGED_BY_VENUE' ? 'erase.voucher' : 'error.erase';
      setText(byId('erase-error'), answer.status === 0 ? 'error.network' : managed);
      if (managed !== 'error.erase') byId('erase-start').hidden = true;
      byId('erase-confirm').hidden = true;
      byId('erase-start').setAttribute('aria-expanded', 'false');
      byId('erase-error').focus();
    });
  });
}
