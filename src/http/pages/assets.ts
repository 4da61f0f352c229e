/**
 * The pages' assets, served by the sandbox at /__sandbox/ui/assets/<file>: one stylesheet, two small scripts,
 * and signature_pad (the maintained library that draws a signature with a pointer) from the installed package.
 * No CDN, no web font: the pages work offline, and the CSP (layout.ts) allows scripts from this origin only.
 */
import { errorBody } from '../../core/errors.js';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'hono';
import { PACKAGE_ROOT } from '../../config/options.js';

const CSS = `
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --bg: #f5f7fa; --card: #fff; --accent: #2451c7; --ok: #1c7c3c; --warn: #9a5b00; --bad: #b42318; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { background: #f0f2f6; padding: 8px 10px; border-radius: 6px; overflow: auto; max-height: 320px; white-space: pre-wrap; word-break: break-word; }
.bar { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; padding: 10px 24px; background: #141a2a; color: #fff; }
.bar a { color: #fff; }
.bar .brand { font-weight: 700; letter-spacing: .2px; }
.bar .sub { color: #b9c2d6; }
button, .button { font: inherit; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 6px; padding: 6px 14px; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
input, select { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
label { font-weight: 600; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; background: #e7ebf3; color: var(--ink); white-space: nowrap; }
.badge.done, .badge.delivered, .badge.s-fully-signed { background: #dcf3e3; color: var(--ok); }
.badge.pending, .badge.notified, .badge.seen { background: #fff1d6; color: var(--warn); }
.badge.failed, .badge.s-archived { background: #fde2e0; color: var(--bad); }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin: 0 0 16px; }

/* the recipient page */
.recipient main { max-width: 860px; margin: 24px auto; padding: 0 16px; }
.recipient h1 { margin: 0 0 4px; font-size: 26px; }
.document { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 40px 48px; margin: 16px 0; box-shadow: 0 1px 3px rgba(20, 26, 42, .08); min-height: 200px; overflow-wrap: anywhere; }
.document img { max-width: 100%; }
.document.pdf { padding: 12px; }
.pdf-pages { display: block; width: 100%; height: 80vh; min-height: 480px; border: 0; }
.placeholder { background: #eef3ff; border-bottom: 1px solid #9fb4ea; padding: 0 3px; }
.placeholder.empty { color: var(--muted); font-style: italic; }
.placeholder.signature { font-family: "Brush Script MT", "Segoe Script", cursive; font-size: 1.3em; }
img.signature { max-height: 80px; vertical-align: middle; }
.notice { border-left: 4px solid var(--accent); background: #eef3ff; padding: 10px 14px; border-radius: 4px; margin: 12px 0; }
.notice.ok { border-color: var(--ok); background: #e9f7ee; }
.notice.warn { border-color: var(--warn); background: #fff6e5; }
.notice.bad { border-color: var(--bad); background: #fdecea; }
.action fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 0 0 12px; }
.action .row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
.action input[type=text] { min-width: 280px; font-size: 18px; }
#signature-pad { width: 100%; max-width: 520px; height: 170px; border: 1px dashed #8c96a8; border-radius: 6px; background: #fff; touch-action: none; display: block; }
.signature-shown { font-family: "Brush Script MT", "Segoe Script", cursive; font-size: 28px; }

/* the dashboard */
.dashboard main { padding: 16px 24px 40px; }
.tabs { display: flex; gap: 4px; padding: 0 24px; background: #fff; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.tabs a { padding: 10px 14px; text-decoration: none; color: var(--muted); border-bottom: 3px solid transparent; font-weight: 600; }
.tabs a[aria-current=page] { color: var(--ink); border-color: var(--accent); }
.clock { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.clock form { display: inline-flex; gap: 6px; align-items: center; margin: 0; }
.clock .now { font-weight: 700; font-size: 16px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .4px; color: var(--muted); }
tr.selected td { background: #eef3ff; }
.filters { display: flex; gap: 10px; align-items: end; flex-wrap: wrap; margin: 0 0 12px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; gap: 2px; }
.pager { display: flex; gap: 12px; align-items: center; margin: 10px 0; }
details > summary { cursor: pointer; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px; }
.reset { position: relative; }
.reset[open] > div { position: absolute; right: 0; top: 36px; z-index: 2; width: 320px; background: #fff; color: var(--ink); border: 1px solid var(--line); border-radius: 8px; padding: 12px; box-shadow: 0 8px 24px rgba(0,0,0,.2); }
.bar .spacer { flex: 1; }
.connect dl { display: flex; flex-wrap: wrap; gap: 6px 28px; margin: 0; }
.connect dt { font-size: 12px; text-transform: uppercase; letter-spacing: .4px; color: var(--muted); }
.connect dd { margin: 0; }
.paste { display: flex; flex-direction: column; gap: 6px; max-width: 760px; }
.paste textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; padding: 8px; border: 1px solid var(--line); border-radius: 6px; }
.paste button { align-self: flex-start; }
`;

/** The recipient page's signature: typed, or drawn with signature_pad (without script, typing still works). */
const RECIPIENT_JS = `'use strict';
(function () {
  var form = document.getElementById('sign-form');
  if (!form || typeof SignaturePad === 'undefined') return;
  var canvas = document.getElementById('signature-pad');
  var typed = form.elements.namedItem('signature');
  var drawn = form.elements.namedItem('drawn');
  var typeBox = document.getElementById('type-box');
  var drawBox = document.getElementById('draw-box');
  var error = document.getElementById('pad-error');
  document.getElementById('mode-choice').hidden = false;
  var pad = new SignaturePad(canvas, { penColor: '#1a2b5c' });
  function mode() { return form.querySelector('input[name="mode"]:checked').value; }
  function fit() {
    var ratio = Math.max(window.devicePixelRatio || 1, 1);
    var data = pad.toData();
    canvas.width = canvas.offsetWidth * ratio;
    canvas.height = canvas.offsetHeight * ratio;
    canvas.getContext('2d').scale(ratio, ratio);
    pad.clear();
    pad.fromData(data);
  }
  function show() {
    var draw = mode() === 'draw';
    typeBox.hidden = draw;
    drawBox.hidden = !draw;
    typed.required = !draw;
    if (draw) fit();
  }
  form.querySelectorAll('input[name="mode"]').forEach(function (input) { input.addEventListener('change', show); });
  document.getElementById('clear-pad').addEventListener('click', function () { pad.clear(); error.textContent = ''; });
  form.addEventListener('submit', function (event) {
    if (mode() !== 'draw') { drawn.value = ''; return; }
    if (pad.isEmpty()) { event.preventDefault(); error.textContent = 'Draw your signature in the box first.'; return; }
    drawn.value = pad.toDataURL('image/png');
  });
  window.addEventListener('resize', function () { if (mode() === 'draw') fit(); });
  show();
})();
`;

/**
 * The dashboard keeps itself current: every 1.5 s it fetches its own URL and swaps the live part in when it
 * changed. Open <details> stay open; nothing is swapped while a field in it has the focus (typing a time).
 */
const DASHBOARD_JS = `'use strict';
(function () {
  var live = document.getElementById('live');
  if (!live) return;
  var every = Number(live.getAttribute('data-poll')) || 1500;
  var last = null;
  var busy = false;
  function typing() {
    var el = document.activeElement;
    return el && live.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
  }
  function tick() {
    if (busy || document.hidden || typing()) return;
    busy = true;
    fetch(location.href, { cache: 'no-store', headers: { 'X-Dashboard-Refresh': '1' } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (text) {
        if (text === null || typing()) return;
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById('live');
        if (!next) return;
        if (last === null) last = live.innerHTML;
        if (next.innerHTML === last) return;
        last = next.innerHTML;
        var open = Array.prototype.map.call(live.querySelectorAll('details[open][id]'), function (d) { return d.id; });
        live.innerHTML = next.innerHTML;
        open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
        live.setAttribute('data-refreshed', String(Date.now()));
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  setInterval(tick, every);
})();
`;

const TEXT_ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'pages.css': { type: 'text/css; charset=utf-8', body: CSS },
  'recipient.js': { type: 'text/javascript; charset=utf-8', body: RECIPIENT_JS },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', body: DASHBOARD_JS },
};

/** signature_pad's browser build, read from the installed package on first request and kept. */
let signaturePad: Promise<string> | undefined;
function signaturePadScript(): Promise<string> {
  signaturePad ??= (async () => {
    // The built package carries the file (scripts/bundle.mjs: signature_pad is bundled, not installed); the
    // sources read it from the installed package, whose `require` export is its UMD build, the minified one beside it.
    const built = join(PACKAGE_ROOT, 'dist', 'signature_pad', 'signature_pad.umd.min.js');
    if (existsSync(built)) return readFile(built, 'utf8');
    const umd = createRequire(import.meta.url).resolve('signature_pad');
    return readFile(join(dirname(umd), 'signature_pad.umd.min.js'), 'utf8');
  })();
  signaturePad.catch(() => (signaturePad = undefined));
  return signaturePad;
}

export async function serveAsset(c: Context): Promise<Response> {
  const file = c.req.param('file') ?? '';
  const headers = { 'Cache-Control': 'public, no-cache', 'X-Content-Type-Options': 'nosniff' };
  if (file === 'signature_pad.js')
    return c.body(await signaturePadScript(), 200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' });
  const asset = Object.hasOwn(TEXT_ASSETS, file) ? TEXT_ASSETS[file] : undefined;
  if (!asset) return c.json(errorBody(404, `No such asset: ${file}`), 404);
  return c.body(asset.body, 200, { ...headers, 'Content-Type': asset.type });
}
