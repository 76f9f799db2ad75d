import type { AdminReply } from '../host/admin-host.js';
import type { AssetManifest } from './assets.js';

/**
 * Only the module's own origin: scripts and style sheets are files under /assets/, nothing is
 * inline. Two narrow exceptions for styles, both from dmn-js: the one `<style>` element
 * CodeMirror writes carries this response's nonce (gui/style-nonce.ts), and 'unsafe-hashes' with
 * the listed hashes lets exactly the style attributes dmn-js writes as markup through
 * (gui/inline-styles.ts). Styles set from script (CSSOM) need no exception.
 */
export function contentSecurityPolicy(manifest: AssetManifest | undefined, nonce: string): string {
  const hashes = (manifest?.styleHashes ?? []).map((hash) => ` '${hash}'`).join('');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'${hashes === '' ? '' : ` 'unsafe-hashes'${hashes}`}`,
    "font-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Member-company module</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}</head>
<body>
<header><h1>Member-company module</h1><button id="signin" type="button">Sign in</button><button id="signout" type="button" hidden>Sign out</button></header>
${body}
</body></html>
`;
}

const PAGES = `<nav id="nav" hidden aria-label="Pages"><button type="button" data-page="companies">Companies</button><button type="button" data-page="import">Import</button><button type="button" data-page="events">Event log</button><button type="button" data-page="dmn">Decision tables</button><button type="button" data-page="vouchers">Vouchers</button><button type="button" data-page="terms">Terms</button><button type="button" data-page="persons">Persons</button><button type="button" data-page="audit">Audit</button></nav>
<main id="svc-admin">
<div id="message" role="alert" aria-live="assertive" hidden></div>
<section id="page-companies" hidden><h2>Companies</h2><table id="companies" class="plain"></table>
<form id="company-form"><fieldset><legend>Add or replace a company</legend>
<label>Code <input name="code" required pattern="[A-Z0-9-]{2,24}"></label><label>Name <input name="name" required></label>
<label><input type="checkbox" name="enabled"> Enabled</label><label>HR endpoint <input name="hrEndpoint" type="url"></label>
<label>Loyalty endpoint <input name="loyaltyEndpoint" type="url"></label><label>Timeout (ms) <input name="timeoutMs" type="number" min="500" max="15000" value="3000"></label>
<label>Employee id prefix <input name="employeeIdPrefix"></label><label>Webhook secret (write-only; empty keeps the current one) <input name="secret" type="password" autocomplete="new-password"></label>
<button type="submit">Save company</button></fieldset></form><pre id="probe"></pre></section>
<section id="page-import" hidden><h2>Import employees</h2>
<label>Company <select id="import-company"></select></label><label>CSV file (header: employeeId,citizenId,email,fullName) <input id="import-file" type="file" accept=".csv,text/csv"></label>
<button id="import-preview" type="button">Preview</button> <button id="import-commit" type="button" disabled>Commit</button>
<p id="import-counts"></p><table id="import-outcomes" class="plain"></table></section>
<section id="page-vouchers" hidden><h2>Vouchers</h2>
<form id="voucher-form"><fieldset><legend>Create a batch (the codes are shown or downloaded once)</legend>
<label>Count <input name="count" type="number" min="1" max="500" value="10" required></label>
<label>Valid from (empty: now) <input name="validFrom" type="datetime-local"></label><label>Valid until <input name="validUntil" type="datetime-local" required></label>
<label>Lasts after the first sign-in (minutes) <input name="durationMinutes" type="number" min="1" value="120" required></label>
<label><input type="checkbox" name="shared"> Shared by several devices</label><label>Device slots (shared only) <input name="deviceSlots" type="number" min="1" max="16" value="2"></label>
<label>Note <input name="note" maxlength="200"></label>
<button type="submit">Create and show codes</button> <button id="voucher-csv" type="button">Create as CSV</button> <button id="voucher-sheet" type="button">Create as printable sheet</button></fieldset></form>
<ol id="voucher-codes" class="codes" aria-label="Codes of the batch just created"></ol>
<h3>Batches</h3><table id="voucher-batches" class="plain"></table>
<label>Revoke a lost card by its code <input id="voucher-lost-code" autocomplete="off" spellcheck="false"></label> <button id="voucher-revoke-code" type="button">Revoke</button></section>
<section id="page-events" hidden><h2>Event log</h2><button id="events-refresh" type="button">Refresh</button><table id="events" class="plain"></table></section>
<section id="page-terms" hidden><h2>Terms and privacy notice</h2><table id="terms" class="plain"></table>
<form id="terms-form"><fieldset><legend>Publish a new version (in force at once; a published version never changes)</legend>
<label>Version <input name="version" required pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,31}" maxlength="32"></label>
<label>Vietnamese text <textarea name="textVi" required maxlength="20000" rows="8" lang="vi"></textarea></label>
<label>English text <textarea name="textEn" required maxlength="20000" rows="8" lang="en"></textarea></label>
<button type="submit">Publish version</button></fieldset></form></section>
<section id="page-persons" hidden><h2>Persons</h2>
<form id="person-find"><fieldset><legend>Find a person (every find, read and erasure is written to the audit with its reason)</legend>
<label>Find by <select name="by"><option value="email">Email</option><option value="phone">Phone number</option><option value="employeeRef">Employee reference</option></select></label>
<label>Value <input name="value" required autocomplete="off" spellcheck="false"></label>
<label>Reason (the request you are answering; no names or numbers) <input name="reason" required minlength="3" maxlength="200"></label>
<button type="submit">Find</button></fieldset></form>
<table id="persons" class="plain"></table>
<div id="person-record" hidden><h3 id="person-record-title">Records</h3><table id="person-account" class="plain"></table><table id="person-sessions" class="plain"></table>
<table id="person-entitlements" class="plain"></table><table id="person-terms" class="plain"></table>
<button id="person-erase" type="button">Erase this person</button></div></section>
<section id="page-audit" hidden><h2>Audit</h2><p id="audit-window"></p><button id="audit-refresh" type="button">Refresh</button><table id="audit" class="plain"></table></section>
<section id="page-dmn" hidden><h2>Decision tables</h2>
<div class="row"><label>Model <select id="dmn-model"></select></label><label>Decision table <select id="dmn-view"></select></label></div>
<div id="dmn-tabs" role="tablist" aria-label="Editor"><button type="button" role="tab" id="dmn-tab-table" aria-controls="dmn-panel-table" aria-selected="true">Table</button><button type="button" role="tab" id="dmn-tab-source" aria-controls="dmn-panel-source" aria-selected="false" tabindex="-1">Source (XML)</button></div>
<div id="dmn-panel-table" role="tabpanel" aria-labelledby="dmn-tab-table"><div id="dmn-editor" class="dmn-editor"></div></div>
<div id="dmn-panel-source" role="tabpanel" aria-labelledby="dmn-tab-source" hidden><label>Document (DMN 1.3 XML) <textarea id="dmn-xml" rows="18" spellcheck="false"></textarea></label></div>
<p id="dmn-state" aria-live="polite">No unsaved changes.</p>
<button id="dmn-save" type="button">Save and reload</button> <button id="dmn-revert" type="button">Discard changes</button>
<h3>Evaluate (the saved model)</h3><label>Decision <select id="dmn-decision"></select></label>
<label>Inputs (JSON object) <textarea id="dmn-inputs" rows="6" spellcheck="false">{"userType":"EMPLOYEE","employeeVerified":true,"company":"MEMBER_A"}</textarea></label>
<button id="dmn-evaluate" type="button">Evaluate</button><pre id="dmn-result" aria-live="polite"></pre></section>
</main>`;

/**
 * spec 4.7: the shell page is public and carries no data; everything is fetched after sign-in
 * (Authorization Code + PKCE S256 with the realm's public client `svc-admin`, spec 5).
 * `assetBase` is the module's /assets/ path; the names come from the GUI's manifest. `nonce` is
 * fresh for every response (the page is never cached).
 */
export function shellPage(assetBase: string, manifest: AssetManifest | undefined, nonce: string): AdminReply {
  // Keycloak's realm defaults (its own CSP among them) would replace these: the page sends the whole set.
  const headers = {
    'Content-Security-Policy': contentSecurityPolicy(manifest, nonce),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'X-Robots-Tag': 'none',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  };
  const reply = { contentType: 'text/html; charset=utf-8', headers, ownSecurityHeaders: true };
  if (manifest === undefined) {
    const body = '<main><p role="alert">The GUI is missing from this build of the extension: run <code>scripts/kc.sh build</code>.</p></main>';
    return { ...reply, status: 503, body: page('', body) };
  }
  const asset = (name: string): string => escapeAttribute(assetBase + name);
  const head = `<link rel="stylesheet" href="${asset(manifest.style)}">\n<script src="${asset(manifest.script)}" nonce="${escapeAttribute(nonce)}" defer></script>\n`;
  return { ...reply, status: 200, body: page(head, PAGES) };
}
