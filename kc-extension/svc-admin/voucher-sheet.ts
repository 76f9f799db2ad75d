import type { StoredBatch } from './voucher-schemas.js';

/** The two files a batch's codes are handed over in, once, at creation. */

/** A CSV field: quoted, quotes doubled, and a leading = + - @ defused so a spreadsheet never reads a formula. */
const csvField = (value: string): string => `"${(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"`;

export function voucherCsv(batch: StoredBatch, codes: readonly string[]): string {
  const header = ['code', 'batch', 'validFrom', 'validUntil', 'durationMinutes', 'deviceSlots', 'shared', 'note'];
  const rows = codes.map((code) =>
    [code, batch.id, batch.validFrom, batch.validUntil, String(batch.durationMinutes), String(batch.deviceSlots), String(batch.shared), batch.note].map(
      csvField,
    ),
  );
  return `${[header.map(csvField), ...rows].map((row) => row.join(',')).join('\r\n')}\r\n`;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Minutes as a person reads them on a card: days, hours or minutes, in both languages. */
function duration(minutes: number): { vi: string; en: string } {
  if (minutes % 1440 === 0) return { vi: `${minutes / 1440} ngày`, en: `${minutes / 1440} day${minutes === 1440 ? '' : 's'}` };
  if (minutes % 60 === 0) return { vi: `${minutes / 60} giờ`, en: `${minutes / 60} hour${minutes === 60 ? '' : 's'}` };
  return { vi: `${minutes} phút`, en: `${minutes} minute${minutes === 1 ? '' : 's'}` };
}

/** The date a card is valid until, as printed (UTC, the date and the minute: the same on every printer). */
const until = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The printable sheet: one card per voucher, Vietnamese first and English beside it, cut lines
 * between cards, no script and nothing loaded (the answer's policy allows inline style only).
 */
export function voucherSheet(batch: StoredBatch, codes: readonly string[]): string {
  const lasts = duration(batch.durationMinutes);
  const devices = batch.shared
    ? { vi: `${batch.deviceSlots} thiết bị`, en: `${batch.deviceSlots} device${batch.deviceSlots === 1 ? '' : 's'}` }
    : { vi: '1 thiết bị', en: '1 device' };
  const cards = codes
    .map(
      (code) => `<article class="card">
<h2 lang="vi">Mã Wi-Fi</h2><p class="en" lang="en">Wi-Fi voucher</p>
<p class="code">${escapeHtml(code)}</p>
<p lang="vi">Dùng trong ${escapeHtml(lasts.vi)} kể từ lần đăng nhập đầu, ${escapeHtml(devices.vi)}. Hạn dùng: ${escapeHtml(until(batch.validUntil))}.</p>
<p class="en" lang="en">Lasts ${escapeHtml(lasts.en)} from the first sign-in, ${escapeHtml(devices.en)}. Use before ${escapeHtml(until(batch.validUntil))}.</p>
<p lang="vi">Kết nối Wi-Fi, chọn “Mã Wi-Fi” và nhập mã.</p><p class="en" lang="en">Join the Wi-Fi, choose “Voucher” and type the code.</p>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="vi"><head><meta charset="utf-8"><title>Wi-Fi vouchers ${escapeHtml(batch.id)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:8mm}
header{margin-bottom:6mm}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(85mm,1fr));gap:0}
.card{border:1px dashed #555;padding:5mm;break-inside:avoid;page-break-inside:avoid}
.card h2{margin:0;font-size:14pt}
.code{font-family:ui-monospace,monospace;font-size:20pt;letter-spacing:.08em;margin:3mm 0;font-weight:bold}
.card p{margin:1mm 0;font-size:9pt}
.en{color:#333}
@media print{header{display:none}body{padding:0}@page{size:A4;margin:10mm}}
</style></head>
<body><header><h1>Wi-Fi vouchers / Mã Wi-Fi</h1><p>${escapeHtml(batch.id)} · ${codes.length} · ${escapeHtml(batch.note)}</p>
<p lang="vi">Các mã chỉ hiện một lần: in hoặc lưu ngay.</p><p lang="en">The codes are shown this once: print or save them now.</p></header>
<main class="cards">
${cards}
</main></body></html>
`;
}
