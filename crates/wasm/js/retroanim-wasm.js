// retroanim in the page: loads retroanim.wasm (the three engines and their sample
// assets) and answers the model browser's JSON API without a server.
//
//   import { api } from './wasm-api.js';
//   const s = await api('POST', '/sessions', { engine: 'ac', replay: true });
//
// `api(method, path, body)` takes the paths of the HTTP API (docs/browser.md) without
// the `/api` prefix and resolves to the same JSON; an error status throws an Error
// carrying `status`, `at` (the JSON path of the fault) and the message. Trace and
// scenario exports resolve to `{ text, mime, filename }`. Protocol with the module:
// crates/wasm/src/exports.rs.

const enc = new TextEncoder();
const dec = new TextDecoder();
let loading = null;

// The module sits next to this file unless the page says otherwise.
function moduleUrl() {
  return globalThis.RETROANIM_WASM_URL || new URL('retroanim.wasm', import.meta.url).toString();
}

export function load(url = moduleUrl()) {
  if (!loading) {
    loading = (async () => {
      const resp = await fetch(url);
      if (!resp.ok) throw new Error(`cannot load ${url}: HTTP ${resp.status}`);
      // Compiled while it downloads; a server sending another type than application/wasm
      // makes that refuse, and the module is then compiled from the whole download.
      const whole = resp.clone();
      try {
        return (await WebAssembly.instantiateStreaming(resp, {})).instance.exports;
      } catch (e) {
        if (!(e instanceof TypeError)) throw e;
        return (await WebAssembly.instantiate(await whole.arrayBuffer(), {})).instance.exports;
      }
    })();
  }
  return loading;
}

// One request/answer round trip: the envelope the module writes.
export async function call(method, path, body) {
  const w = await load();
  const req = enc.encode(JSON.stringify({ method, path, body: body === undefined ? null : body }));
  const ptr = w.retroanim_input(req.length);
  // The server's words for the same limit (retroanim_session::body_too_large).
  if (ptr === 0) return { status: 413, json: { error: 'request body too large: the limit is 1 MiB (1048576 bytes)', at: '' } };
  // Views of memory go stale when it grows: take them fresh after every call.
  new Uint8Array(w.memory.buffer, ptr, req.length).set(req);
  const len = w.retroanim_call(req.length);
  const out = w.retroanim_output();
  return JSON.parse(dec.decode(new Uint8Array(w.memory.buffer, out, len)));
}

function failure(status, body) {
  const where = body && body.at ? `${body.at}: ` : '';
  const file = body && body.file ? `${body.file}: ` : '';
  const e = new Error(`${file}${where}${body && body.error ? body.error : 'status ' + status}`);
  e.status = status;
  e.at = body ? body.at : '';
  return e;
}

export async function api(method, path, body) {
  const a = await call(method, path, body);
  if (a.status === 204) return null;
  if (a.status >= 400) throw failure(a.status, a.json);
  if (a.text !== undefined) return { text: a.text, mime: a.mime, filename: a.filename };
  return a.json;
}

// The page's export buttons follow links to `api/sessions/ID/trace|scenario` (relative to
// the page, so the site works under any sub-path): with no server behind them, answer
// those clicks here with a download of the same file.
if (typeof document !== 'undefined') {
  document.addEventListener('click', (ev) => {
    const a = ev.target && ev.target.closest ? ev.target.closest('a[href^="api/"]') : null;
    if (!a) return;
    ev.preventDefault();
    ev.stopPropagation();
    api('GET', a.getAttribute('href').slice(3)).then((f) => {
      const blob = new Blob([f.text], { type: f.mime });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = f.filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    }).catch((e) => console.warn(`export failed: ${e.message}`));
  }, true);
}

// The `retroanim bench ac` workload in the page: entity-ticks per second, after the
// same 50 warm-up ticks, so the checksum equals the native one for the same sizes.
export async function benchAc(entities, ticks) {
  const w = await load();
  const n = w.retroanim_bench_ac_new(entities);
  w.retroanim_bench_ac_tick(50);
  const t0 = performance.now();
  w.retroanim_bench_ac_tick(ticks);
  const seconds = (performance.now() - t0) / 1000;
  return { entities: n, ticks, seconds, rate: (n * ticks) / seconds, checksum: String(w.retroanim_bench_ac_checksum()) };
}
