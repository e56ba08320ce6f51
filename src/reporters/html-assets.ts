// The HTML report's own stylesheet and filter script: static text, inlined so the file needs no network.

/** Colours by outcome: the same words as the legend, readable in print and without colour too. */
export const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --passed: #1a7f37; --passed-bg: #dafbe1; --failed: #b42318; --failed-bg: #ffd7d5;
  --warning: #8a5a00; --warning-bg: #fff1c2; --errored: #7a2e9c; --errored-bg: #f3dcff;
  --waived: #0b5cad; --waived-bg: #d8ebff; --skipped: #57606a; --skipped-bg: #eef0f2; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 84rem; padding: 1.5rem; color: #1f2328; line-height: 1.45; }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { margin: 2rem 0 .75rem; font-size: 1.25rem; border-bottom: 1px solid #d0d7de; padding-bottom: .25rem; }
h3 { margin: 0 0 .5rem; font-size: 1.05rem; }
h4 { margin: .75rem 0 .25rem; font-size: .95rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
pre { margin: .25rem 0; padding: .6rem .75rem; background: #f6f8fa; border: 1px solid #d0d7de;
  border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; }
pre.curl { background: #0d1117; color: #e6edf3; border-color: #0d1117; }
.meta, .muted { color: #57606a; }
.notice { padding: .5rem .75rem; border-radius: 6px; background: var(--warning-bg); color: var(--warning); }
.verdict { font-size: 1.15rem; font-weight: 600; color: var(--fg); }
.counts { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; list-style: none; }
.counts li { min-width: 7.5rem; padding: .6rem .9rem; border-radius: 8px; border: 1px solid #d0d7de; }
.counts .n { display: block; font-size: 1.6rem; font-weight: 700; }
.passed { --fg: var(--passed); --bg: var(--passed-bg); }
.failed { --fg: var(--failed); --bg: var(--failed-bg); }
.warning { --fg: var(--warning); --bg: var(--warning-bg); }
.errored { --fg: var(--errored); --bg: var(--errored-bg); }
.waived { --fg: var(--waived); --bg: var(--waived-bg); }
.skipped { --fg: var(--skipped); --bg: var(--skipped-bg); }
.counts li, .badge, td.cell { color: var(--fg, inherit); background: var(--bg, transparent); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 1rem; font-size: .8rem; font-weight: 600;
  border: 1px solid currentColor; }
table { border-collapse: collapse; }
th, td { padding: .3rem .55rem; border: 1px solid #d0d7de; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; position: sticky; top: 0; }
.matrix-wrap { overflow-x: auto; }
td.cell { text-align: center; font-weight: 600; white-space: nowrap; }
td.cell a { color: inherit; text-decoration: none; }
td.cell .k { display: block; font-weight: 400; font-size: .75rem; }
td.none { color: #8c959f; text-align: center; }
.legend { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; padding: 0; list-style: none; }
article.result { border: 1px solid #d0d7de; border-left: 6px solid var(--fg); border-radius: 6px;
  padding: .75rem 1rem; margin: 0 0 1rem; }
/* A link to a result must not hide its heading under the sticky filter bar. */
article.result, tr { scroll-margin-top: 4.5rem; }
.exchange { margin-top: .5rem; padding-top: .4rem; border-top: 1px dashed #d0d7de; }
.exchange > summary { cursor: pointer; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: .85rem; overflow-wrap: anywhere; }
.problems ol { margin: .25rem 0; padding-left: 2.2rem; }
.problems li { overflow-wrap: anywhere; }
.problems summary { cursor: pointer; color: #57606a; }
table.matrix th[scope=row] { min-width: 14rem; max-width: 24rem; font-weight: 400; }
table.matrix th[scope=row] code { font-weight: 600; }
.rule-title { display: block; color: #57606a; font-size: .8rem; }
.results td.msg { max-width: 40rem; overflow-wrap: anywhere; }
#filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 1rem; align-items: center;
  margin: 1rem 0; padding: .6rem .75rem; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
#filters label { font-weight: 600; }
#filters select { margin-left: .35rem; font: inherit; }
[hidden] { display: none !important; }
@media print { #filters { display: none !important; } pre { max-height: none; } }
`;

/**
 * Filters (status, rule, resource) for the lists and the matrix. It only reads data-* attributes
 * and toggles `hidden`: without JavaScript the filter bar stays hidden and everything is shown.
 */
export const SCRIPT = `
(function () {
  'use strict';
  // Copy buttons of reproduction scripts: shown only where the clipboard can be written.
  Array.prototype.forEach.call(document.querySelectorAll('button[data-copy]'), function (button) {
    if (!navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var source = document.getElementById(button.getAttribute('data-copy'));
      navigator.clipboard.writeText(source ? source.textContent : '').then(function () {
        button.textContent = 'Copied';
      });
    });
  });
  var form = document.getElementById('filters');
  if (!form) return;
  var status = document.getElementById('f-status');
  var rule = document.getElementById('f-rule');
  var resource = document.getElementById('f-resource');
  var count = document.getElementById('f-count');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-status]'));
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr[data-rule]'));
  var cols = Array.prototype.slice.call(document.querySelectorAll('[data-col]'));
  var total = document.querySelectorAll('tr[data-status]').length;
  function apply() {
    var s = status.value, r = rule.value, res = resource.value, shown = 0;
    items.forEach(function (el) {
      var ok = (!s || el.getAttribute('data-status') === s) &&
        (!r || el.getAttribute('data-rules').split(' ').indexOf(r) >= 0) &&
        (!res || el.getAttribute('data-resource') === res);
      el.hidden = !ok;
      if (ok && el.tagName === 'TR') shown++;
    });
    rows.forEach(function (el) { el.hidden = !!r && el.getAttribute('data-rule') !== r; });
    cols.forEach(function (el) { el.hidden = !!res && el.getAttribute('data-col') !== res; });
    count.textContent = shown + ' of ' + total + ' results shown';
  }
  form.addEventListener('change', apply);
  form.addEventListener('reset', function () { setTimeout(apply, 0); });
  form.hidden = false;
  apply();
})();
`;
