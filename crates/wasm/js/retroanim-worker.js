// retroanim's module in a Web Worker (started by retroanim-wasm.js): the page's
// requests run here, off the thread that draws, and the user's own files are read
// here in slices. The module asks for `len` bytes at an offset of a file
// (`retroanim_host.retroanim_host_read`, crates/wasm/src/host_file.rs); a
// FileReaderSync reads just that slice of the browser's File, so a 1 GB DAT is never
// read whole and nothing leaves the machine.
//
// Messages in: {id, kind: 'call', request} with a request envelope text, or
// {id, kind: 'open', file} with a File. Out: {id, answer} (the module's envelope text),
// {id, handle} or {id, error}.

const enc = new TextEncoder();
const dec = new TextDecoder();
const files = [];
let wasm = null;
let loading = null;

function hostRead(file, offset, len, dst) {
  const f = files[file];
  if (!f || offset < 0 || offset + len > f.size) return 0;
  try {
    const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(f.slice(offset, offset + len)));
    // A view of memory taken now: it goes stale when memory grows.
    new Uint8Array(wasm.memory.buffer, dst, bytes.length).set(bytes);
    return bytes.length;
  } catch (_) {
    return 0; // the module reports the short read with the file, offset and record
  }
}

function load(url) {
  if (!loading) {
    loading = (async () => {
      const resp = await fetch(url);
      if (!resp.ok) throw new Error(`cannot load ${url}: HTTP ${resp.status}`);
      const imports = { retroanim_host: { retroanim_host_read: hostRead } };
      const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), imports);
      wasm = instance.exports;
      return wasm;
    })();
  }
  return loading;
}

function call(w, text) {
  const req = enc.encode(text);
  const ptr = w.retroanim_input(req.length);
  if (ptr === 0) return null;
  new Uint8Array(w.memory.buffer, ptr, req.length).set(req);
  const len = w.retroanim_call(req.length);
  const out = w.retroanim_output();
  return dec.decode(new Uint8Array(w.memory.buffer, out, len));
}

self.onmessage = async (ev) => {
  const { id, kind, url } = ev.data;
  try {
    const w = await load(url);
    if (kind === 'open') {
      files.push(ev.data.file);
      self.postMessage({ id, handle: files.length - 1 });
    } else {
      self.postMessage({ id, answer: call(w, ev.data.request) });
    }
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
};
