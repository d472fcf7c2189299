// Loads glTF exports with three.js's GLTFLoader in headless Chromium and plays their clips
// with an AnimationMixer, writing what three.js computes: every node's world matrix (and a
// mesh's morph weights) at the requested clip times.
//
//   node sample.mjs REQUEST.json OUTPUT.json
//
// REQUEST: {"files": [{"glb": "/abs/path.glb", "samples": [{"clip": "walk", "time": 0.06}]}]}
// OUTPUT:  {"three": "<revision>", "files": [{"glb", "samples": [{"clip", "time",
//           "nodes": [[16 numbers, column-major] | null per glTF node],
//           "weights": [[...] | null per glTF node]}]}]}
// Nodes are identified by their glTF index (the loader's associations), not by name, since
// three.js rewrites names. The comparison with the engine is made by the Rust test
// (crates/gltf/tests/threejs.rs) that wrote the request. Nothing is served over a network:
// the page's files are answered from disk by playwright's request routing.

import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [requestPath, outputPath] = process.argv.slice(2);
if (!requestPath || !outputPath) {
  console.error('usage: node sample.mjs REQUEST.json OUTPUT.json');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const request = JSON.parse(readFileSync(requestPath, 'utf8'));
const origin = 'http://retroanim.invalid';

const page_html = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports": {"three": "/three/build/three.module.js",
  "three/addons/": "/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
window.sampleGlb = async (url, samples) => {
  const bytes = await (await fetch(url)).arrayBuffer();
  const gltf = await new GLTFLoader().parseAsync(bytes, '');
  const byIndex = [];
  for (const [object, a] of gltf.parser.associations) {
    if (a && a.nodes !== undefined && object.isObject3D && !byIndex[a.nodes]) byIndex[a.nodes] = object;
  }
  const count = (gltf.parser.json.nodes || []).length;
  const out = [];
  for (const s of samples) {
    const clip = gltf.animations.find((c) => c.name === s.clip);
    if (!clip) throw new Error('no clip ' + s.clip + ' in ' + url);
    const mixer = new THREE.AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(s.time);
    gltf.scene.updateMatrixWorld(true);
    const nodes = [];
    const weights = [];
    for (let i = 0; i < count; i++) {
      const o = byIndex[i];
      nodes.push(o ? Array.from(o.matrixWorld.elements) : null);
      weights.push(o && o.morphTargetInfluences ? Array.from(o.morphTargetInfluences) : null);
    }
    out.push({ clip: s.clip, time: s.time, nodes, weights });
    action.stop();
    mixer.uncacheRoot(gltf.scene);
  }
  return out;
};
window.revision = THREE.REVISION;
window.ready = true;
</script>`;

const files = new Map();
request.files.forEach((f, i) => files.set(`/glb/${i}.glb`, f.glb));

const profile = mkdtempSync(join(tmpdir(), 'retroanim-gltf-threejs-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let status = 0;
try {
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route(`${origin}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') {
      return route.fulfill({ status: 200, contentType: 'text/html', body: page_html });
    }
    if (path.startsWith('/three/')) {
      const file = join(here, 'node_modules', path.slice(1));
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(file) });
    }
    if (files.has(path)) {
      return route.fulfill({ status: 200, contentType: 'model/gltf-binary', body: readFileSync(files.get(path)) });
    }
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => window.ready === true || null, null, { timeout: 60000 });
  const result = { three: await page.evaluate(() => window.revision), files: [] };
  let i = 0;
  for (const f of request.files) {
    const samples = await page.evaluate(([url, s]) => window.sampleGlb(url, s), [`/glb/${i}.glb`, f.samples]);
    result.files.push({ glb: f.glb, samples });
    console.log(`three.js r${result.three}: ${f.glb}: ${samples.length} samples`);
    i++;
  }
  if (errors.length) throw new Error('page errors: ' + errors.join('; '));
  writeFileSync(outputPath, JSON.stringify(result));
} catch (e) {
  console.error(String(e && e.stack ? e.stack : e));
  status = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
