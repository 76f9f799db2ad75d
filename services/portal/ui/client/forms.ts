/// <reference lib="dom" />
import { callApi, type ApiFailure } from './api.js';
import { errorText, type FormName } from './error-text.js';
import { checkCitizenId, checkEmail, checkEmployeeId, checkNewPassword, checkPassword, checkVoucherCode } from './form-validation.js';
import { setText, type MessageKey } from './i18n.js';
import type { PortalSession } from './portal-session.js';
import { termsVersion } from './terms.js';

/** A refusal that has a page of its own (nothing left of the allowance); true when it was shown there. */
export type Refused = (failure: ApiFailure) => boolean;

interface Field {
  id: string;
  check?: (value: string) => MessageKey | null;
  trim?: boolean;
}

interface FormSpec {
  name: FormName;
  path: string;
  fields: Record<string, Field>;
  /** Inputs emptied after every submit, whatever the answer. */
  clearAfter: string[];
}

// Spec 2.3 request bodies, field by field.
const FORMS: FormSpec[] = [
  {
    name: 'signin',
    path: '/api/v1/auth/login',
    fields: { username: { id: 'signin-email', check: checkEmail, trim: true }, password: { id: 'signin-password', check: checkPassword } },
    clearAfter: ['signin-password'],
  },
  {
    name: 'register',
    path: '/api/v1/auth/register',
    fields: {
      email: { id: 'register-email', check: checkEmail, trim: true },
      password: { id: 'register-password', check: checkNewPassword },
      displayName: { id: 'register-name', trim: true },
    },
    clearAfter: ['register-password'],
  },
  {
    name: 'employee',
    path: '/api/v1/auth/employee',
    fields: {
      employeeId: { id: 'employee-id', check: checkEmployeeId, trim: true },
      citizenId: { id: 'employee-citizen', check: checkCitizenId, trim: true },
    },
    // The citizen number lives only in this input until it is sent, never in storage or the URL.
    clearAfter: ['employee-citizen'],
  },
  {
    name: 'voucher',
    path: '/api/v1/auth/voucher',
    fields: { code: { id: 'voucher-code', check: checkVoucherCode, trim: true } },
    // A voucher code is a credential: gone from the page once sent.
    clearAfter: ['voucher-code'],
  },
];

function input(id: string): HTMLInputElement {
  return document.getElementById(id) as HTMLInputElement;
}

export function showFieldError(id: string, key: MessageKey | null): void {
  const element = input(id);
  setText(document.getElementById(`${id}-error`) as HTMLElement, key);
  if (key === null) element.removeAttribute('aria-invalid');
  else element.setAttribute('aria-invalid', 'true');
}

/** Reads and checks a form; marks each bad field and answers the body, or null when a field is bad. */
function collect(spec: FormSpec): Record<string, string> | null {
  const body: Record<string, string> = {};
  let firstBad: HTMLInputElement | null = null;
  for (const [key, field] of Object.entries(spec.fields)) {
    const element = input(field.id);
    const value = field.trim ? element.value.trim() : element.value;
    const problem = field.check ? field.check(value) : null;
    if (field.check) showFieldError(field.id, problem);
    if (problem !== null) firstBad ??= element;
    if (value !== '') body[key] = value;
  }
  const box = termsTick(spec.name, body);
  firstBad ??= box;
  if (firstBad === null) return body;
  firstBad.focus();
  return null;
}

/**
 * While a version is in force, the form's tick accepts it (`acceptedTerms` in `body`); an unticked
 * box is marked and answered, so the form is not sent.
 */
export function termsTick(form: string, body: Record<string, string>): HTMLInputElement | null {
  const version = termsVersion();
  if (version === null) return null;
  const box = input(`${form}-terms`);
  showFieldError(box.id, box.checked ? null : 'terms.required');
  if (!box.checked) return box;
  body['acceptedTerms'] = version;
  return null;
}

export function clearFormMessages(): void {
  for (const spec of FORMS) {
    setText(document.getElementById(`${spec.name}-error`) as HTMLElement, null);
    for (const field of Object.values(spec.fields)) if (field.check) showFieldError(field.id, null);
    showFieldError(`${spec.name}-terms`, null);
  }
}

/**
 * Runs one request for a form: a second submit while it runs is ignored, and the form is marked
 * busy (aria-disabled rather than disabled: the button keeps focus while the request runs).
 */
export function busyWhile(form: HTMLFormElement): <T>(work: () => Promise<T>) => Promise<T | undefined> {
  let busy = false;
  return async (work) => {
    if (busy) return undefined;
    busy = true;
    const buttons = [...form.querySelectorAll('button[type="submit"]')];
    for (const button of buttons) button.setAttribute('aria-disabled', 'true');
    form.setAttribute('aria-busy', 'true');
    try {
      return await work();
    } finally {
      busy = false;
      for (const button of buttons) button.removeAttribute('aria-disabled');
      form.removeAttribute('aria-busy');
    }
  };
}

/** Wires the single-step sign-in forms to the portal; `onSignedIn` gets the PortalSession of a success. */
export function wireForms(onSignedIn: (session: PortalSession, serverTime: number) => void, onRefused: Refused): void {
  for (const spec of FORMS) {
    const form = document.getElementById(`form-${spec.name}`) as HTMLFormElement;
    const alert = document.getElementById(`${spec.name}-error`) as HTMLElement;
    const sending = busyWhile(form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void sending(async () => {
        const body = collect(spec);
        if (body === null) {
          setText(alert, 'invalid.summary');
          return;
        }
        setText(alert, null);
        const answer = await callApi<PortalSession>('POST', spec.path, body);
        for (const id of spec.clearAfter) input(id).value = '';
        if (!answer.ok) {
          if (!onRefused(answer)) setText(alert, errorText(spec.name, answer));
        } else if (answer.data.authenticated === true) onSignedIn(answer.data, answer.serverTime);
        else setText(alert, 'error.unknown');
      });
    });
  }
}
