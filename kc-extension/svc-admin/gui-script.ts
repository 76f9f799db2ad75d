/**
 * The GUI's browser script, inlined into the shell page: PKCE sign-in with the public client
 * `svc-admin`, then the module's own /api/* only (no other origin is ever contacted).
 */
export const GUI_SCRIPT = String.raw`
(() => {
  const base = location.pathname.replace(/\/+$/, '') + '/';
  const realm = base.split('/')[2];
  const oidc = location.origin + '/realms/' + realm + '/protocol/openid-connect';
  const redirect = location.origin + base;
  const $ = (id) => document.getElementById(id);
  let token = sessionStorage.getItem('svc-admin-token');
  let lastRows = null;

  const show = (text, kind) => { const m = $('message'); m.textContent = text; m.className = kind; m.hidden = false; };
  const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const cell = (v) => { const td = document.createElement('td'); td.textContent = v === undefined || v === null ? '' : String(v); return td; };
  const table = (el, heads, rows) => {
    el.replaceChildren();
    const tr = document.createElement('tr'); heads.forEach((h) => { const th = document.createElement('th'); th.textContent = h; tr.append(th); }); el.append(tr);
    rows.forEach((r) => { const row = document.createElement('tr'); r.forEach((v) => row.append(v instanceof Node ? (() => { const td = document.createElement('td'); td.append(v); return td; })() : cell(v))); el.append(row); });
  };

  async function api(method, path, body) {
    const response = await fetch(base + 'api/' + path, { method, headers: { Authorization: 'Bearer ' + token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await response.json().catch(() => ({}));
    if (response.status === 401) { sessionStorage.removeItem('svc-admin-token'); token = null; render(); throw new Error('Your session has ended: sign in again.'); }
    if (!response.ok) throw new Error((data.code || ('HTTP ' + response.status)) + ': ' + (data.message || 'the request failed'));
    return data;
  }
  const guarded = (fn) => async (...args) => { try { await fn(...args); } catch (e) { show(e.message, 'error'); } };

  async function signIn() {
    const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
    sessionStorage.setItem('svc-admin-pkce', JSON.stringify({ verifier, state }));
    const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    location.assign(oidc + '/auth?' + new URLSearchParams({ client_id: 'svc-admin', response_type: 'code', scope: 'openid', redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state }));
  }

  async function finishSignIn(params) {
    const saved = JSON.parse(sessionStorage.getItem('svc-admin-pkce') || '{}');
    sessionStorage.removeItem('svc-admin-pkce');
    history.replaceState(null, '', base);
    if (params.get('state') !== saved.state) throw new Error('Sign-in failed: the answer does not belong to this page. Try again.');
    const response = await fetch(oidc + '/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'svc-admin', code: params.get('code'), redirect_uri: redirect, code_verifier: saved.verifier }) });
    if (!response.ok) throw new Error('Sign-in failed (' + response.status + '). Try again.');
    token = (await response.json()).access_token;
    sessionStorage.setItem('svc-admin-token', token);
  }

  const pages = ['companies', 'import', 'events', 'dmn'];
  const loaders = {
    companies: async () => {
      const { companies } = await api('GET', 'companies');
      table($('companies'), ['Code', 'Name', 'Enabled', 'HR', 'Loyalty', 'Timeout', 'Secret', 'Updated', ''], companies.map((c) => {
        const actions = document.createElement('span');
        const probe = document.createElement('button'); probe.type = 'button'; probe.textContent = 'Test ' + c.code;
        probe.onclick = guarded(async () => { $('probe').textContent = JSON.stringify(await api('POST', 'companies/' + c.code + '/test'), null, 2); show('Probe of ' + c.code + ' done.', 'ok'); });
        const edit = document.createElement('button'); edit.type = 'button'; edit.textContent = 'Edit ' + c.code;
        edit.onclick = () => { const f = $('company-form'); ['code', 'name', 'hrEndpoint', 'loyaltyEndpoint', 'timeoutMs', 'employeeIdPrefix'].forEach((k) => { f.elements[k].value = c[k] ?? ''; }); f.elements.enabled.checked = c.enabled; f.elements.secret.value = ''; f.elements.name.focus(); };
        const del = document.createElement('button'); del.type = 'button'; del.textContent = 'Delete ' + c.code;
        del.onclick = guarded(async () => { if (!confirm('Delete ' + c.code + '? Users stay.')) return; await api('DELETE', 'companies/' + c.code); show(c.code + ' deleted.', 'ok'); await loaders.companies(); });
        actions.append(edit, ' ', probe, ' ', del);
        return [c.code, c.name, c.enabled ? 'yes' : 'no', c.hrEndpoint, c.loyaltyEndpoint, c.timeoutMs, c.hasSecret ? 'set' : 'none', c.updatedAt + ' by ' + c.updatedBy, actions];
      }));
      // Keep the operator's choice when the list is refreshed.
      const select = $('import-company'); const chosen = select.value;
      select.replaceChildren(...companies.map((c) => new Option(c.code + ' - ' + c.name, c.code)));
      if (companies.some((c) => c.code === chosen)) select.value = chosen;
    },
    import: async () => loaders.companies(),
    events: async () => {
      const { events } = await api('GET', 'events?limit=200');
      table($('events'), ['At', 'Company', 'Type', 'Outcome', 'Detail'], events.map((e) => [e.at, e.company, e.type, e.outcome, e.detail]));
    },
    dmn: async () => {
      const { models } = await api('GET', 'dmn/models');
      const select = $('dmn-model'); select.replaceChildren(...models.map((m) => new Option(m.name, m.name)));
      if (models.length > 0) $('dmn-xml').value = (await api('GET', 'dmn/models/' + encodeURIComponent(select.value))).xml;
    },
  };
  const open = guarded(async (page) => { pages.forEach((p) => { $('page-' + p).hidden = p !== page; }); await loaders[page](); });

  function render() {
    $('signin').hidden = !!token; $('signout').hidden = !token; $('nav').hidden = !token;
    if (!token) pages.forEach((p) => { $('page-' + p).hidden = true; });
  }

  const parseCsv = (text) => {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    const head = lines.shift().split(',').map((h) => h.trim());
    return lines.map((line) => { const cells = line.split(','); const row = {}; head.forEach((h, i) => { const v = (cells[i] || '').trim(); if (v !== '') row[h] = v; }); return row; });
  };
  async function runImport(mode) {
    const file = $('import-file').files[0];
    if (!file) throw new Error('Choose a CSV file first.');
    const rows = parseCsv(await file.text());
    const result = await api('POST', 'import?mode=' + mode, { company: $('import-company').value, rows });
    $('import-counts').textContent = result.mode + ': ' + result.total + ' rows; ' + Object.entries(result.counts).map(([k, v]) => k + ' ' + v).join(', ');
    table($('import-outcomes'), ['Line', 'Action', 'Employee', 'Email', 'Username', 'Note'], result.outcomes.map((o) => [o.line, o.action, o.employeeRef, o.email, o.username, o.note]));
    $('import-commit').disabled = mode !== 'preview';
    show(mode === 'preview' ? 'Preview ready: nothing was written. Check the outcomes, then commit.' : 'Import committed.', 'ok');
  }

  $('signin').onclick = guarded(signIn);
  $('signout').onclick = () => { sessionStorage.removeItem('svc-admin-token'); token = null; render(); };
  document.querySelectorAll('nav button').forEach((b) => { b.onclick = () => open(b.dataset.page); });
  $('company-form').onsubmit = guarded(async (event) => {
    event.preventDefault();
    const f = event.target.elements; const body = { name: f.name.value, enabled: f.enabled.checked, timeoutMs: Number(f.timeoutMs.value || 3000) };
    ['hrEndpoint', 'loyaltyEndpoint', 'employeeIdPrefix', 'secret'].forEach((k) => { if (f[k].value !== '') body[k] = f[k].value; });
    await api('PUT', 'companies/' + encodeURIComponent(f.code.value), body); show('Company ' + f.code.value + ' saved.', 'ok'); await loaders.companies();
  });
  $('import-file').onchange = () => { $('import-commit').disabled = true; };
  $('import-preview').onclick = guarded(() => runImport('preview'));
  $('import-commit').onclick = guarded(() => runImport('commit'));
  $('events-refresh').onclick = guarded(loaders.events);
  $('dmn-model').onchange = guarded(async () => { $('dmn-xml').value = (await api('GET', 'dmn/models/' + encodeURIComponent($('dmn-model').value))).xml; });
  $('dmn-save').onclick = guarded(async () => { const r = await api('PUT', 'dmn/models/' + encodeURIComponent($('dmn-model').value), { xml: $('dmn-xml').value }); show('Saved ' + r.file + '; the decision service reloaded at ' + r.reloadedAt + '.', 'ok'); });
  $('dmn-evaluate').onclick = guarded(async () => {
    let inputs; try { inputs = JSON.parse($('dmn-inputs').value); } catch { throw new Error('Inputs must be a JSON object.'); }
    const decision = $('dmn-decision').value.trim();
    const r = await api('POST', 'dmn/evaluate/' + encodeURIComponent($('dmn-model').value), decision === '' ? { inputs } : { inputs, decision });
    $('dmn-result').textContent = JSON.stringify(r.results, null, 2); show('Evaluated.', 'ok');
  });

  const params = new URLSearchParams(location.search);
  (params.has('code') ? finishSignIn(params) : Promise.resolve()).then(() => { render(); if (token) open('companies'); }, (e) => { render(); show(e.message, 'error'); });
})();
`;
