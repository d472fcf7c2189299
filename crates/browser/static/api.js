// Thin client of the JSON API (docs/browser.md). Errors carry the server's
// status, JSON path (`at`) and message so views can show exactly what was wrong.

export class ApiError extends Error {
  constructor(status, body) {
    const where = body && body.at ? `${body.at}: ` : '';
    const file = body && body.file ? `${body.file}: ` : '';
    super(`${file}${where}${body && body.error ? body.error : 'HTTP ' + status}`);
    this.status = status;
    this.at = body ? body.at : '';
  }
}

export async function api(method, path, body) {
  // A page written by `retroanim export-site` runs the engines itself (wasm-api.js).
  if (globalThis.RETROANIM_WASM) return (await import('./wasm-api.js')).api(method, path, body);
  const init = { method, headers: {} };
  // The server refuses a POST without the JSON content type (its CSRF defence),
  // bodiless ones included.
  if (body !== undefined || method === 'POST') {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  // Relative to the page, so a server (or proxy) that mounts the browser under a
  // sub-path works as it does at /.
  const resp = await fetch('api' + path, init);
  if (resp.status === 204) return null;
  let data = null;
  try {
    data = await resp.json();
  } catch (_) {
    data = { error: `HTTP ${resp.status} (no JSON body)` };
  }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

// Small DOM helper: el('div', {class: 'x', onclick: f}, child, 'text', ...)
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function hex(n) {
  return '0x' + (n >>> 0).toString(16).padStart(8, '0');
}

// A labelled value cell whose text views update: returns the <span>.
export function field(container, label, id) {
  const v = el('span', { class: 'v', id });
  container.append(el('div', { class: 'kv' }, el('span', { class: 'k' }, label), v));
  return v;
}

export function fmt(x) {
  if (x === null || x === undefined) return '—';
  if (typeof x === 'number') return Number.isInteger(x) ? String(x) : x.toFixed(4);
  if (Array.isArray(x)) return '[' + x.map(fmt).join(', ') + ']';
  if (typeof x === 'object') return JSON.stringify(x);
  return String(x);
}

// ---- Small in-place DOM updates: a write forces style and layout, so values are
// written only when they changed, and lists keep their elements (a click that lands
// between two steps still finds the row it was pressed on).

// Set an element's text when it differs from what was last written.
export function setText(e, text) {
  const t = String(text);
  if (e.__text !== t) {
    e.textContent = t;
    e.__text = t;
  }
}

// Set data-value when it differs.
export function setValue(e, v) {
  const t = v === undefined || v === null ? '' : String(v);
  if (e.dataset.value !== t) e.dataset.value = t;
}

export function setClass(e, cls) {
  if (e.className !== cls) e.className = cls;
}

// Keep `container`'s children one per item: `make(i)` builds the i-th child once (its
// handlers should read what they act on from the element, not from the item), `fill(child,
// item, i)` brings it up to date. Extra children are removed, missing ones appended.
export function syncList(container, items, make, fill) {
  while (container.children.length > items.length) container.lastElementChild.remove();
  for (let i = 0; i < items.length; i++) {
    let c = container.children[i];
    if (!c) {
      c = make(i);
      container.append(c);
    }
    fill(c, items[i], i);
  }
}

// A table kept in place: rows of cells whose text is set through setText; with `head`
// the first row's cells are headings.
export function syncRows(table, rows, onRow, head = false) {
  syncList(table, rows, (i) => {
    const tr = document.createElement('tr');
    if (onRow) tr.addEventListener('click', () => onRow(Number(tr.dataset.row)));
    tr.dataset.row = String(i);
    return tr;
  }, (tr, cells) => {
    syncList(tr, cells, () => document.createElement(head && tr.dataset.row === '0' ? 'th' : 'td'), (td, c) => {
      if (c && typeof c === 'object') {
        setText(td, c.text);
        if (c.class !== undefined) setClass(td, c.class);
        if (c.style !== undefined && td.getAttribute('style') !== c.style) td.setAttribute('style', c.style);
      } else {
        setText(td, c);
      }
    });
  });
}

// Run `fn` at most once per animation frame, however often it is asked for.
export function perFrame(fn) {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => {
      asked = false;
      fn();
    });
  };
}
