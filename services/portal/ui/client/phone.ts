/// <reference lib="dom" />
import { normalizePhone } from '../../../../contract/phone.js';
import { callApi } from './api.js';
import { errorText } from './error-text.js';
import { busyWhile, showFieldError, termsTick, type Refused } from './forms.js';
import { checkPhone, checkPhoneCode } from './form-validation.js';
import { setText } from './i18n.js';
import { resendWait } from './resend-wait.js';
import type { PortalSession } from './portal-session.js';

/** What `POST /api/v1/auth/phone/code` answers when a code went out. */
interface CodeSent {
  sent: true;
  expiresInSeconds: number;
  resendAfterSeconds: number;
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** The number a code was sent to (E.164), kept in this module only while step two is shown. */
let sentTo: string | null = null;
/** The version the tick accepted on step one, sent with the code (the code is spent by the try). */
let acceptedTerms: string | undefined;
let resendTimer: ReturnType<typeof setTimeout> | undefined;

function stopResendTimer(): void {
  if (resendTimer !== undefined) clearTimeout(resendTimer);
  resendTimer = undefined;
}

/** "Send again" stays unavailable until resendAfterSeconds passed; the wait is shown (not announced each second). */
function countResend(sentAtMs: number, resendAfterSeconds: number): void {
  stopResendTimer();
  const button = byId<HTMLButtonElement>('phone-resend');
  const hint = byId('phone-resend-wait');
  const tick = () => {
    const wait = resendWait(sentAtMs, resendAfterSeconds, Date.now());
    button.disabled = wait > 0;
    if (wait > 0) {
      setText(hint, 'phone.resendIn', { seconds: String(wait) });
      resendTimer = setTimeout(tick, 1000);
    } else setText(hint, null);
  };
  tick();
}

/** Step two: the code field, the step's change announced and focus moved to the field. */
function showCodeStep(phone: string, sent: CodeSent): void {
  sentTo = phone;
  byId('form-phone').hidden = true;
  byId('form-phone-code').hidden = false;
  setText(byId('phone-code-form-error'), null);
  // Emptied first so that a second "sent" (send again) is announced again.
  setText(byId('phone-step'), null);
  setText(byId('phone-step'), 'phone.sent', { number: phone });
  countResend(Date.now(), sent.resendAfterSeconds);
  byId('phone-code').focus();
}

/** Back to step one (another number, or after signing in): nothing of the last try is kept. */
export function resetPhone(): void {
  stopResendTimer();
  sentTo = null;
  acceptedTerms = undefined;
  byId<HTMLInputElement>('phone-code').value = '';
  byId('form-phone').hidden = false;
  byId('form-phone-code').hidden = true;
  clearPhoneMessages();
}

export function clearPhoneMessages(): void {
  for (const id of ['phone-step', 'phone-error', 'phone-code-form-error', 'phone-resend-wait']) setText(byId(id), null);
  for (const id of ['phone-number', 'phone-code', 'phone-terms']) showFieldError(id, null);
}

/** Asks the portal for a code; answers whether one was sent (else the refusal is shown in `alert`). */
async function askForCode(phone: string, alert: HTMLElement): Promise<boolean> {
  const answer = await callApi<CodeSent>('POST', '/api/v1/auth/phone/code', { phone });
  if (!answer.ok) {
    setText(alert, errorText('phoneCode', answer));
    return false;
  }
  showCodeStep(phone, answer.data);
  return true;
}

function wireNumberStep(): void {
  const form = byId<HTMLFormElement>('form-phone');
  const alert = byId('phone-error');
  const sending = busyWhile(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void sending(async () => {
      const number = byId<HTMLInputElement>('phone-number');
      const problem = checkPhone(number.value);
      showFieldError(number.id, problem);
      const body: Record<string, string> = {};
      const box = termsTick('phone', body);
      const firstBad = problem === null ? box : number;
      if (firstBad !== null) {
        setText(alert, 'invalid.summary');
        firstBad.focus();
        return;
      }
      setText(alert, null);
      acceptedTerms = body['acceptedTerms'];
      await askForCode(normalizePhone(number.value) ?? number.value, alert);
    });
  });
}

function wireCodeStep(onSignedIn: (session: PortalSession, serverTime: number) => void, onRefused: Refused): void {
  const form = byId<HTMLFormElement>('form-phone-code');
  const alert = byId('phone-code-form-error');
  const code = byId<HTMLInputElement>('phone-code');
  const sending = busyWhile(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void sending(async () => {
      const value = code.value.trim();
      const problem = checkPhoneCode(value);
      showFieldError(code.id, problem);
      if (problem !== null || sentTo === null) {
        code.focus();
        return;
      }
      setText(alert, null);
      const body: Record<string, string> = { phone: sentTo, code: value };
      if (acceptedTerms !== undefined) body['acceptedTerms'] = acceptedTerms;
      const answer = await callApi<PortalSession>('POST', '/api/v1/auth/phone', body);
      // A code is a credential and is spent (or counted) by the try: gone from the page whatever the answer.
      code.value = '';
      if (answer.ok && answer.data.authenticated === true) {
        resetPhone();
        byId<HTMLInputElement>('phone-number').value = '';
        onSignedIn(answer.data, answer.serverTime);
      } else if (answer.ok) setText(alert, 'error.unknown');
      else if (!onRefused(answer)) {
        setText(alert, errorText('phone', answer));
        code.focus();
      }
    });
  });
  byId('phone-resend').addEventListener('click', () => {
    if (sentTo !== null) void sending(() => askForCode(sentTo ?? '', alert));
  });
  byId('phone-change').addEventListener('click', () => {
    resetPhone();
    byId('phone-number').focus();
  });
}

/** The phone tab: step one asks the number (and the terms tick), step two the code sent by SMS. */
export function wirePhone(onSignedIn: (session: PortalSession, serverTime: number) => void, onRefused: Refused): void {
  wireNumberStep();
  wireCodeStep(onSignedIn, onRefused);
}
