import type { Response } from 'express';
import type { UiLanguage } from './ui/language.js';

/**
 * What an arrival from a gateway tells the person, in their language, as a small page
 * of its own (no script, nothing from elsewhere): every controller state, and every refusal,
 * before any password is typed. Text from a controller (CoovaChilli's `reply`) is escaped.
 */
export type ArrivalPage =
  | { kind: 'connected'; timeLeftSeconds: number | null; returnUrl: string | null }
  | { kind: 'failed'; reason: string | null; canRetry: boolean }
  | { kind: 'logoff' }
  | { kind: 'already' }
  | { kind: 'malformed'; names: string[] }
  | { kind: 'unknown-gateway' }
  | { kind: 'unregistered-login-address' }
  | { kind: 'unverified' }
  | { kind: 'off-network' }
  | { kind: 'replayed' }
  | { kind: 'insecure-level' }
  | { kind: 'not-polling' }
  | { kind: 'gateway-unavailable' }
  | { kind: 'rate-limited' };

const TEXT = {
  en: {
    connected: 'You are connected',
    connectedBody: 'Your device is online.',
    reconnects:
      'If your phone sleeps or you walk to another access point of this venue, it reconnects by itself while your sign-in lasts: no need to sign in again.',
    timeLeft: 'Time left: {minutes} min',
    continueTo: 'Continue to {host}',
    failed: 'The Wi-Fi did not let you in',
    gatewaySaid: 'The Wi-Fi gateway said: {reason}',
    retry: 'Try again',
    reopen: 'Open any web page to come back to the sign-in, then try again.',
    logoff: 'You are logged off',
    logoffBody: 'Open any web page to sign in again.',
    already: 'You are already connected',
    alreadyBody: 'Your device is online; there is nothing more to do.',
    refused: 'This sign-in link cannot be used',
    malformed: 'The Wi-Fi gateway sent details this portal cannot read ({names}). Nothing was kept: reconnect to the Wi-Fi and open any web page.',
    'unknown-gateway': "This Wi-Fi gateway is not registered with this portal. Do not enter a password here; ask the venue's staff.",
    'unregistered-login-address':
      "This link would send your sign-in to an address that is not the venue's gateway. Do not enter a password; reconnect to the venue's Wi-Fi and open any web page.",
    unverified: "This link was not signed by the venue's gateway. Do not enter a password; reconnect to the venue's Wi-Fi and open any web page.",
    'off-network':
      "This sign-in link works only on the Wi-Fi network that made it. Do not enter a password here; connect to the venue's Wi-Fi and open any web page there.",
    replayed: "This sign-in link was used already. Do not enter a password here; open any web page to get a fresh sign-in link from the venue's Wi-Fi.",
    'insecure-level':
      "This Wi-Fi gateway sends its sign-in link unprotected (openNDS FAS level 1), which anyone could forge: this portal does not accept it. Do not enter a password here; ask the venue's staff (the gateway needs fas_secure_enabled 3).",
    'not-polling':
      "This Wi-Fi gateway is not connected to the sign-in service (openNDS needs FAS level 3 with authmon), so signing in here could not open the network. Do not enter a password; try again in a minute or ask the venue's staff.",
    'gateway-unavailable': 'The sign-in service cannot check this Wi-Fi gateway right now. Nothing was kept: try again in a minute.',
    'rate-limited': 'Too many sign-in links from your network right now. Wait a minute, then try again.',
    reasons: {
      'already-logged-in': 'You are already logged in.',
      'not-configured-for-web-auth': 'This Wi-Fi is not set up for sign-in through this page.',
      'user-name-in-use': 'This sign-in is already in use.',
      excluded: 'The Wi-Fi has blocked this device.',
      'wrong-user-name-or-password': 'The one-time sign-in code was not accepted.',
    } as Record<string, string>,
  },
  vi: {
    connected: 'Bạn đã kết nối',
    connectedBody: 'Thiết bị của bạn đã vào mạng.',
    reconnects:
      'Nếu điện thoại của bạn ở chế độ ngủ hoặc bạn chuyển sang điểm truy cập khác của địa điểm này, thiết bị sẽ tự kết nối lại trong thời gian đăng nhập còn hiệu lực: không cần đăng nhập lại.',
    timeLeft: 'Thời gian còn lại: {minutes} phút',
    continueTo: 'Tiếp tục tới {host}',
    failed: 'Mạng Wi-Fi chưa cho bạn vào',
    gatewaySaid: 'Thiết bị mạng báo: {reason}',
    retry: 'Thử lại',
    reopen: 'Hãy mở một trang web bất kỳ để quay lại trang đăng nhập, rồi thử lại.',
    logoff: 'Bạn đã đăng xuất',
    logoffBody: 'Mở một trang web bất kỳ để đăng nhập lại.',
    already: 'Bạn đã được kết nối',
    alreadyBody: 'Thiết bị của bạn đã vào mạng; bạn không cần làm gì thêm.',
    refused: 'Không thể dùng liên kết đăng nhập này',
    malformed:
      'Thiết bị mạng gửi thông tin mà cổng đăng nhập không đọc được ({names}). Không có gì được lưu: hãy kết nối lại Wi-Fi và mở một trang web bất kỳ.',
    'unknown-gateway': 'Thiết bị mạng này chưa được đăng ký với cổng đăng nhập. Đừng nhập mật khẩu ở đây; hãy hỏi nhân viên tại địa điểm.',
    'unregistered-login-address':
      'Liên kết này sẽ gửi thông tin đăng nhập tới một địa chỉ không phải thiết bị mạng của địa điểm. Đừng nhập mật khẩu; hãy kết nối lại Wi-Fi của địa điểm và mở một trang web bất kỳ.',
    unverified:
      'Liên kết này không được thiết bị mạng của địa điểm xác nhận. Đừng nhập mật khẩu; hãy kết nối lại Wi-Fi của địa điểm và mở một trang web bất kỳ.',
    'off-network':
      'Liên kết đăng nhập này chỉ dùng được trên mạng Wi-Fi đã tạo ra nó. Đừng nhập mật khẩu ở đây; hãy kết nối Wi-Fi của địa điểm và mở một trang web bất kỳ tại đó.',
    replayed:
      'Liên kết đăng nhập này đã được dùng rồi. Đừng nhập mật khẩu ở đây; hãy mở một trang web bất kỳ để nhận liên kết đăng nhập mới từ Wi-Fi của địa điểm.',
    'insecure-level':
      'Thiết bị mạng này gửi liên kết đăng nhập không được bảo vệ (openNDS FAS cấp 1), ai cũng có thể giả mạo: cổng đăng nhập không chấp nhận. Đừng nhập mật khẩu ở đây; hãy báo nhân viên tại địa điểm (thiết bị cần đặt fas_secure_enabled 3).',
    'not-polling':
      'Thiết bị mạng này chưa kết nối với dịch vụ đăng nhập (openNDS cần FAS cấp 3 với authmon), nên đăng nhập ở đây không thể mở mạng. Đừng nhập mật khẩu; hãy thử lại sau một phút hoặc hỏi nhân viên tại địa điểm.',
    'gateway-unavailable': 'Dịch vụ đăng nhập tạm thời không kiểm tra được thiết bị mạng này. Không có gì được lưu: hãy thử lại sau một phút.',
    'rate-limited': 'Có quá nhiều liên kết đăng nhập từ mạng của bạn lúc này. Hãy đợi một phút rồi thử lại.',
    reasons: {
      'already-logged-in': 'Bạn đã đăng nhập rồi.',
      'not-configured-for-web-auth': 'Mạng Wi-Fi này chưa được thiết lập để đăng nhập qua trang này.',
      'user-name-in-use': 'Lượt đăng nhập này đang được dùng.',
      excluded: 'Mạng Wi-Fi đã chặn thiết bị này.',
      'wrong-user-name-or-password': 'Mã đăng nhập dùng một lần không được chấp nhận.',
    } as Record<string, string>,
  },
} as const;

const STATUS: Record<ArrivalPage['kind'], number> = {
  connected: 200,
  failed: 200,
  logoff: 200,
  already: 200,
  malformed: 400,
  'unknown-gateway': 403,
  'unregistered-login-address': 403,
  unverified: 403,
  'off-network': 403,
  replayed: 409,
  'insecure-level': 403,
  'not-polling': 403,
  'gateway-unavailable': 503,
  'rate-limited': 429,
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

function content(page: ArrivalPage, text: (typeof TEXT)[UiLanguage]): { title: string; paragraphs: string[] } {
  switch (page.kind) {
    case 'connected': {
      const paragraphs = [escapeHtml(text.connectedBody), escapeHtml(text.reconnects)];
      if (page.timeLeftSeconds !== null) paragraphs.push(escapeHtml(fill(text.timeLeft, { minutes: String(Math.ceil(page.timeLeftSeconds / 60)) })));
      if (page.returnUrl !== null) {
        // A plain link the person may follow, never a redirect.
        paragraphs.push(
          `<a href="${escapeHtml(page.returnUrl)}" rel="noreferrer noopener">${escapeHtml(fill(text.continueTo, { host: new URL(page.returnUrl).host }))}</a>`,
        );
      }
      return { title: text.connected, paragraphs };
    }
    case 'failed': {
      const reason = page.reason === null ? null : (text.reasons[page.reason] ?? fill(text.gatewaySaid, { reason: page.reason }));
      const paragraphs = reason === null ? [] : [escapeHtml(reason)];
      paragraphs.push(page.canRetry ? `<a href="/">${escapeHtml(text.retry)}</a>` : escapeHtml(text.reopen));
      return { title: text.failed, paragraphs };
    }
    case 'logoff':
      return { title: text.logoff, paragraphs: [escapeHtml(text.logoffBody)] };
    case 'already':
      return { title: text.already, paragraphs: [escapeHtml(text.alreadyBody)] };
    case 'malformed':
      return { title: text.refused, paragraphs: [escapeHtml(fill(text.malformed, { names: page.names.join(', ') }))] };
    default:
      return { title: text.refused, paragraphs: [escapeHtml(text[page.kind])] };
  }
}

/** The page as HTML in `language`, with the status it answers with. */
export function renderArrivalPage(page: ArrivalPage, language: UiLanguage): { status: number; html: string } {
  const { title, paragraphs } = content(page, TEXT[language]);
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</main></body></html>
`;
  return { status: STATUS[page.kind], html };
}

/** Sends the page: nothing from elsewhere, never framed, never cached. */
export function sendArrivalPage(res: Response, page: ArrivalPage, language: UiLanguage): void {
  const { status, html } = renderArrivalPage(page, language);
  res.status(status).set({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  res.vary('Accept-Language');
  res.end(html);
}
