// The static site's glTF export: fetches retroanim-gltf.wasm (the glTF writer and the
// sample assets, kept out of the main module) on first use, hands it the session's
// engine and scenario as the main module holds them, and gets the .glb back.
//
//   const { filename, bytes } = await exportGltf(sessionId);
//
// Protocol with the module: crates/gltf-wasm/src/exports.rs.

import { api } from './wasm-api.js';

let loading = null;

function load() {
  if (!loading) {
    loading = (async () => {
      const url = new URL('retroanim-gltf.wasm', import.meta.url).toString();
      const resp = await fetch(url);
      if (!resp.ok) throw new Error(`cannot load ${url}: HTTP ${resp.status}`);
      const { instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), {});
      return instance.exports;
    })();
    loading.catch(() => (loading = null));
  }
  return loading;
}

export async function exportGltf(id) {
  const s = await api('GET', `/sessions/${encodeURIComponent(id)}`);
  const w = await load();
  const req = new TextEncoder().encode(JSON.stringify({ engine: s.engine, scenario: s.scenario }));
  const ptr = w.retroanim_gltf_input(req.length);
  if (ptr === 0) throw new Error('the scenario is too large to export here');
  new Uint8Array(w.memory.buffer, ptr, req.length).set(req);
  const len = w.retroanim_gltf_export(req.length);
  // Copied out: the module's memory may grow (and move) on the next call.
  const out = new Uint8Array(w.memory.buffer, w.retroanim_gltf_output(), len).slice();
  if (w.retroanim_gltf_ok() !== 1) throw new Error(new TextDecoder().decode(out));
  const name = new Uint8Array(w.memory.buffer, w.retroanim_gltf_name(), w.retroanim_gltf_name_len());
  return { filename: new TextDecoder().decode(name), bytes: out };
}
