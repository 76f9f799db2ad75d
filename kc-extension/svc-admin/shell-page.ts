import { GUI_SCRIPT } from './gui-script.js';

// spec 4.7: the shell page is public and carries no data; everything is fetched after sign-in
// (Authorization Code + PKCE S256 with the realm's public client `svc-admin`, spec 5).
export const SHELL_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Member-company module</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#1b1b1b}header{background:#23395d;color:#fff;padding:.6rem 1rem;display:flex;gap:1rem;align-items:center}
header h1{font-size:1.1rem;margin:0;flex:1}nav button{margin-right:.3rem}main{padding:1rem}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #bbb;padding:.2rem .5rem;text-align:left;font-size:.9rem}label{display:block;margin:.3rem 0}
#message{padding:.5rem;margin:.5rem 0;border-radius:4px}#message.error{background:#fde2e2;border:1px solid #b00}#message.ok{background:#e2f5e2;border:1px solid #070}
textarea{width:100%;font-family:monospace}section[hidden]{display:none}button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #f7b500}
</style></head>
<body>
<header><h1>Member-company module</h1><span id="who"></span><button id="signin" type="button">Sign in</button><button id="signout" type="button" hidden>Sign out</button></header>
<nav id="nav" hidden aria-label="Pages"><button type="button" data-page="companies">Companies</button><button type="button" data-page="import">Import</button><button type="button" data-page="events">Event log</button><button type="button" data-page="dmn">Decision tables</button></nav>
<main id="svc-admin">
<div id="message" role="alert" aria-live="assertive" hidden></div>
<section id="page-companies" hidden><h2>Companies</h2><table id="companies"></table>
<form id="company-form"><fieldset><legend>Add or replace a company</legend>
<label>Code <input name="code" required pattern="[A-Z0-9-]{2,24}"></label><label>Name <input name="name" required></label>
<label><input type="checkbox" name="enabled"> Enabled</label><label>HR endpoint <input name="hrEndpoint" type="url"></label>
<label>Loyalty endpoint <input name="loyaltyEndpoint" type="url"></label><label>Timeout (ms) <input name="timeoutMs" type="number" min="500" max="15000" value="3000"></label>
<label>Employee id prefix <input name="employeeIdPrefix"></label><label>Webhook secret (write-only; empty keeps the current one) <input name="secret" type="password" autocomplete="new-password"></label>
<button type="submit">Save company</button></fieldset></form><pre id="probe"></pre></section>
<section id="page-import" hidden><h2>Import employees</h2>
<label>Company <select id="import-company"></select></label><label>CSV file (header: employeeId,citizenId,email,fullName) <input id="import-file" type="file" accept=".csv,text/csv"></label>
<button id="import-preview" type="button">Preview</button> <button id="import-commit" type="button" disabled>Commit</button>
<p id="import-counts"></p><table id="import-outcomes"></table></section>
<section id="page-events" hidden><h2>Event log</h2><button id="events-refresh" type="button">Refresh</button><table id="events"></table></section>
<section id="page-dmn" hidden><h2>Decision tables</h2><label>Model <select id="dmn-model"></select></label>
<label>Document (DMN 1.3 XML) <textarea id="dmn-xml" rows="18"></textarea></label><button id="dmn-save" type="button">Save and reload</button>
<h3>Evaluate</h3><label>Decision <input id="dmn-decision" value="WifiEntitlement"></label>
<label>Inputs (JSON) <textarea id="dmn-inputs" rows="4">{"userType":"EMPLOYEE","employeeVerified":true,"company":"MEMBER_A"}</textarea></label>
<button id="dmn-evaluate" type="button">Evaluate</button><pre id="dmn-result"></pre></section>
</main>
<script>${GUI_SCRIPT}</script>
</body></html>
`;
