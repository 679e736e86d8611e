/**
 * The page every HTML report shares: one self-contained document (inline CSS and script, no
 * network) whose content is rendered here as markup, so a report reads without JavaScript; the
 * script only adds filters and copy buttons.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { packagePath } from '../../package-root.ts'

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text and attribute values alike: every value from a server response or a spec goes through
 * here, so a body carrying `<script>` or `<!--` stays text.
 */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

/** A token usable in a class name or data attribute value list (rule ids, outcomes, check ids). */
export function token(value: string): string {
  return value.replace(/[^A-Za-z0-9_.:/-]/g, '_')
}

let toolkit: string | undefined
export function toolkitVersion(): string {
  toolkit ??= (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version
  return toolkit
}

const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--panel:#f6f8fa;--line:#d0d7de;--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--xfail:#8250df;--skip:#57606a;--focus:#0969da}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{padding:0 16px;max-width:1280px;margin:0 auto}
h1{font-size:20px;margin:16px 0 8px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:15px;margin:16px 0 6px}
a{color:var(--focus)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip-link{position:absolute;left:-9999px}.skip-link:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px;z-index:2}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600}
.verdict.ok{background:var(--pass)}.verdict.bad{background:var(--fail)}
.bar{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0;padding:0;list-style:none}
.bar li{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:110px}
.bar .n{display:block;font-size:22px;font-weight:700}
.bar .fail .n{color:var(--fail)}.bar .pass .n{color:var(--pass)}.bar .warn .n{color:var(--warn)}.bar .xfail .n{color:var(--xfail)}.bar .skip .n{color:var(--skip)}
.bar .breaking .n{color:var(--fail)}.bar .warning .n{color:var(--warn)}.bar .info .n{color:var(--muted)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.badge.pass{color:var(--pass)}.badge.fail,.badge.breaking{color:var(--fail)}.badge.warn,.badge.warning{color:var(--warn)}.badge.xfail{color:var(--xfail)}.badge.skip,.badge.info{color:var(--skip)}
.badge.assumed{color:var(--muted);border-style:dashed}.badge.stated{color:var(--fg)}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;margin:4px 0 12px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:var(--panel);position:sticky;top:0}
tbody th[colspan]{background:var(--panel);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}td.zero{color:#afb8c1}
td.num.fail:not(.zero){color:var(--fail);font-weight:700}td.num.warn:not(.zero){color:var(--warn);font-weight:700}
tr.gap td{background:#ffebe9}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;max-height:28em;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
.cases{list-style:none;padding:0;margin:0}
.cases>li{border:1px solid var(--line);border-radius:6px;margin:4px 0}
.cases details>summary{cursor:pointer;padding:6px 10px;display:flex;flex-wrap:wrap;gap:6px 10px;align-items:baseline}
.cases details[open]>summary{border-bottom:1px solid var(--line)}
.case-body{padding:6px 12px 10px}
.case-id{font-family:ui-monospace,monospace;font-weight:600;overflow-wrap:anywhere}
.msg{color:var(--muted);flex-basis:100%}
.rules{margin:4px 0;padding-left:18px}
.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-end;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0}
.filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 10px}
.filters legend{font-weight:600;padding:0 0 2px}
.filters label{white-space:nowrap}
.filters select,.filters input[type=search]{font:inherit;padding:3px 6px;max-width:100%}
button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);cursor:pointer}
.shown{color:var(--muted);margin:4px 0}
.copy-row{display:flex;justify-content:space-between;align-items:center;gap:8px}
.values{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.values>div{min-width:0}
.muted{color:var(--muted)}
[hidden]{display:none!important}
@media (max-width:640px){
  body{font-size:15px}
  .values{grid-template-columns:1fr}
  .bar li{min-width:calc(50% - 4px);flex:1}
  dl.meta{grid-template-columns:1fr}dl.meta dd{margin-bottom:4px}
  table.matrix .text{display:none}
}
@media print{.filters,button{display:none}}
`

/**
 * Filters and copy buttons. Every filterable element carries `data-*` attributes; a form marked
 * `data-filter-for` hides the items of its list that do not match. Written in plain ES2017 so it
 * runs in any browser a CI artifact is opened in.
 */
const SCRIPT = `
(function(){
  document.documentElement.classList.add('js');
  var forms = document.querySelectorAll('form[data-filter-for]');
  Array.prototype.forEach.call(forms, function(form){
    form.hidden = false;
    var list = document.getElementById(form.getAttribute('data-filter-for'));
    var status = form.querySelector('[data-shown]');
    var items = list.querySelectorAll('[data-item]');
    function apply(){
      var wanted = {};
      Array.prototype.forEach.call(form.querySelectorAll('input[type=checkbox]'), function(cb){
        (wanted[cb.name] = wanted[cb.name] || []).push(cb.checked ? cb.value : null);
      });
      var selects = form.querySelectorAll('select, input[type=search]');
      var shown = 0, total = 0;
      Array.prototype.forEach.call(items, function(item){
        // Items of a view not on show (diff: by operation / by level) are not counted.
        var inView = !(item.closest('[data-view]') && item.closest('[data-view]').hidden);
        var ok = true;
        Object.keys(wanted).forEach(function(name){
          if (wanted[name].indexOf(item.getAttribute('data-' + name)) < 0) ok = false;
        });
        Array.prototype.forEach.call(selects, function(s){
          var v = s.value.trim();
          if (!v) return;
          var have = (item.getAttribute('data-' + s.name) || '');
          if (s.type === 'search') { if (have.toLowerCase().indexOf(v.toLowerCase()) < 0) ok = false; }
          else if ((' ' + have + ' ').indexOf(' ' + v + ' ') < 0) ok = false;
        });
        item.hidden = !ok;
        if (inView) { total++; if (ok) shown++; }
      });
      Array.prototype.forEach.call(list.querySelectorAll('[data-group]'), function(g){
        g.hidden = !g.querySelector('[data-item]:not([hidden])');
      });
      if (status) status.textContent = 'Showing ' + shown + ' of ' + total;
    }
    document.addEventListener('oec-view', apply);
    form.addEventListener('input', apply);
    form.addEventListener('change', apply);
    form.addEventListener('submit', function(e){ e.preventDefault(); apply(); });
    form.addEventListener('reset', function(){ setTimeout(apply, 0); });
    apply();
    document.addEventListener('click', function(e){
      var a = e.target.closest && e.target.closest('a[data-set-filter]');
      if (!a) return;
      var field = form.querySelector('[name="' + a.getAttribute('data-set-filter') + '"]');
      if (!field) return;
      field.value = a.getAttribute('data-value');
      apply();
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('[data-view-for]'), function(box){
    box.hidden = false;
    function show(){
      var v = box.querySelector('input:checked').value;
      Array.prototype.forEach.call(document.querySelectorAll('[data-view]'), function(s){ s.hidden = s.getAttribute('data-view') !== v; });
      document.dispatchEvent(new Event('oec-view'));
    }
    box.addEventListener('change', show);
    show();
  });
  Array.prototype.forEach.call(document.querySelectorAll('button[data-copy]'), function(b){
    b.hidden = false;
    b.addEventListener('click', function(){
      var pre = document.getElementById(b.getAttribute('data-copy'));
      var text = pre.textContent;
      function done(ok){ b.textContent = ok ? 'Copied' : 'Select and copy'; setTimeout(function(){ b.textContent = 'Copy'; }, 1500); }
      function fallback(){
        var range = document.createRange(); range.selectNodeContents(pre);
        var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
        var ok = false; try { ok = document.execCommand('copy'); } catch (e) {}
        done(ok);
      }
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(function(){ done(true); }, fallback);
      else fallback();
    });
  });
})();
`

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64')

/**
 * The document. The policy forbids every fetch and every script but ours (by hash), so even a
 * value that escaped escaping could neither run nor call out.
 */
export function page(title: string, body: string): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${SCRIPT_HASH}'; base-uri 'none'; form-action 'none'`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="oec ${esc(toolkitVersion())}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${body}
<footer><p class="muted">Generated by oec ${esc(toolkitVersion())} (order-entry-conformance). This file is self-contained: it makes no network requests.</p></footer>
<script>${SCRIPT}</script>
</body>
</html>
`
}

/** A `<pre>` with a copy button (shown once the script runs: without it, the text is selectable). */
export function copyBlock(id: string, label: string, text: string): string {
  return `<div class="copy-row"><h4>${esc(label)}</h4><button type="button" data-copy="${esc(id)}" hidden aria-label="Copy ${esc(label)}">Copy</button></div><pre id="${esc(id)}">${esc(text)}</pre>`
}

export function block(label: string, text: string): string {
  return `<h4>${esc(label)}</h4><pre>${esc(text)}</pre>`
}

export function checkboxes(legend: string, name: string, values: readonly { value: string; label: string }[]): string {
  return `<fieldset><legend>${esc(legend)}</legend>${values
    .map((v) => `<label><input type="checkbox" name="${esc(name)}" value="${esc(v.value)}" checked> ${esc(v.label)}</label>`)
    .join('')}</fieldset>`
}

export function select(label: string, name: string, id: string, values: readonly { value: string; label: string }[]): string {
  return `<label for="${esc(id)}">${esc(label)}<br><select id="${esc(id)}" name="${esc(name)}"><option value="">all</option>${values
    .map((v) => `<option value="${esc(v.value)}">${esc(v.label)}</option>`)
    .join('')}</select></label>`
}

export function search(label: string, name: string, id: string, placeholder: string, list?: string): string {
  return `<label for="${esc(id)}">${esc(label)}<br><input type="search" id="${esc(id)}" name="${esc(name)}" placeholder="${esc(placeholder)}"${list ? ` list="${esc(list)}"` : ''}></label>`
}

/** The filter form for the list with id `listId`; hidden until the script has wired it. */
export function filterForm(listId: string, label: string, fields: string): string {
  return `<form class="filters" data-filter-for="${esc(listId)}" aria-label="${esc(label)}" hidden>${fields}<button type="reset">Reset filters</button><p class="shown" data-shown aria-live="polite"></p></form>`
}
