// HERC view (herc.md H24–H26): the sample HERC drawn from the trace's Q14 world
// matrices, one thread exposed at a time, sequence list, request / set sequence /
// seek / rate controls, 25 Hz playback (step_ms 40) and the transition panel.
// Where the session's shape has DTS meshes (GET /sessions/ID/meshes) each group is drawn
// through its node's world matrix, in its palette's colours and textures (H82–H84); without them (no DTS, or an API that has
// no meshes endpoint) the nodes are drawn as boxes and lines. The first point of each
// drawn group, as placed, is exposed on window.__hercMeshes for the e2e test.

import { api, el, field, perFrame, setClass, setText, setValue, syncList, syncRows } from './api.js';
import { EngineSession, toolbar } from './session.js';
import { openUserVols } from './user_files.js';

const Q14 = 16384;
const FLAG_AT_TARGET = 1;
const FLAG_IN_TRANSITION = 2;

// FromEuler (M6) in floating point, for display only: machine angles are 1/65536 turn.
function fromEulerF(x, y, z) {
  const k = (2 * Math.PI) / 65536;
  const C = (a) => Math.cos(a * k);
  const S = (a) => Math.sin(a * k);
  const sx = S(x);
  let a = C(y - z), b = C(z + y);
  let s = (a + b) / 2, d = (a - b) / 2;
  const m0 = s - sx * d, m7 = d - sx * s;
  a = S(y + z); b = S(z - y);
  s = (a + b) / 2; d = (a - b) / 2;
  const m1 = sx * d + s, m6 = sx * s + d;
  const m3 = (C(z + x) + C(x - z)) / 2, m8 = (C(y + x) + C(x - y)) / 2, m5 = sx;
  const m4 = -(S(y + x) + S(y - x)) / 2, m2 = -(S(z + x) + S(z - x)) / 2;
  return [m0, m1, m2, m3, m4, m5, m6, m7, m8];
}

// Row vectors (M5): p' = p·M + t with M = [[m0 m1 m4], [m2 m3 m5], [m6 m7 m8]].
function applyT(m, t, p) {
  return [
    p[0] * m[0] + p[1] * m[2] + p[2] * m[6] + t[0],
    p[0] * m[1] + p[1] * m[3] + p[2] * m[7] + t[1],
    p[0] * m[4] + p[1] * m[5] + p[2] * m[8] + t[2],
  ];
}

function unitM(T) {
  return T.m.map((v) => v / Q14);
}

function fmtT(T) {
  if (!T) return '—';
  const m = T.m;
  return `kind ${T.kind}  t [${T.t.join(', ')}]\n`
    + `m [${m[0]} ${m[1]} ${m[4]}]\n  [${m[2]} ${m[3]} ${m[5]}]\n  [${m[6]} ${m[7]} ${m[8]}]`;
}

// Draws the parts: three.js when WebGL is available, a 2D oblique sketch otherwise.
// A colour for a surface's value when the shape has no palette to resolve it through
// (distinct hues by number, a guess).
function meshColor(n) {
  const h = ((Number(n) || 0) * 47) % 360;
  return `hsl(${h}, 32%, 58%)`;
}

// Node-space point p placed by world transform T (M5 row vectors, Q14 matrix).
function placeQ14(T, p) {
  return applyT(unitM(T), T.t, p);
}

// A three.js texture from a frame's decoded RGBA (rows from the top, texel-sharp as
// DBSIM samples it; palette index 0 is transparent).
function frameTexture(THREE, f) {
  const bin = atob(f.rgba);
  const px = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) px[i] = bin.charCodeAt(i);
  const t = new THREE.DataTexture(px, f.width, f.height, THREE.RGBAFormat);
  t.colorSpace = THREE.SRGBColorSpace;
  t.magFilter = THREE.NearestFilter;
  t.minFilter = THREE.NearestFilter;
  t.needsUpdate = true;
  return t;
}

class Drawing {
  constructor(container) {
    this.container = container;
    this.three = null;
    this.frameFixed = false;
    this.meshes = [];
    this.materials = null;
  }

  // The session's DTS groups ({node, points, polys}) and their materials ({palette,
  // bitmaps, textures}: docs/browser.md); [] draws the stick figure only. A polygon is
  // drawn in its palette colour (`rgb`), textured when its frame decoded, and in a
  // guessed colour by surface value only when the shape has no palette.
  setMeshes(meshes, materials) {
    this.meshes = meshes || [];
    this.materials = materials || null;
    if (!this.three) return;
    const { THREE, model } = this.three;
    for (const o of this.three.meshObjs || []) {
      model.remove(o);
      o.geometry.dispose();
      for (const m of o.material) m.dispose();
    }
    for (const t of (this.three.textures || new Map()).values()) t.dispose();
    this.three.textures = new Map();
    const textures = (materials && materials.textures) || {};
    const textureOf = (f) => {
      if (!textures[f]) return null;
      if (!this.three.textures.has(f)) this.three.textures.set(f, frameTexture(THREE, textures[f]));
      return this.three.textures.get(f);
    };
    this.three.meshObjs = this.meshes.map((g) => {
      // Triangles grouped by how they are drawn: one material per frame, per colour.
      const groups = new Map();
      for (const poly of g.polys) {
        if (poly.hidden) continue;
        const tex = poly.frame !== undefined ? textureOf(poly.frame) : null;
        const rgb = !tex && poly.rgb ? poly.rgb : null;
        const guess = tex || rgb ? null : meshColor(poly.surface_color ?? poly.color);
        const key = tex ? `t${poly.frame}` : rgb ? `c${rgb.join(',')}` : `g${guess}`;
        if (!groups.has(key)) groups.set(key, { tex, rgb, guess, pos: [], uv: [] });
        const gr = groups.get(key);
        const v = poly.points.map((i) => g.points[i]);
        if (v.some((p) => !p)) continue;
        for (let k = 1; k + 1 < v.length; k++) {
          for (const c of [0, k, k + 1]) {
            gr.pos.push(...v[c]);
            const uv = tex && poly.uv ? poly.uv[c] : [0, 0];
            gr.uv.push(uv[0], uv[1]);
          }
        }
      }
      const pos = [], uv = [], mats = [];
      const geo = new THREE.BufferGeometry();
      for (const gr of groups.values()) {
        geo.addGroup(pos.length / 3, gr.pos.length / 3, mats.length);
        pos.push(...gr.pos);
        uv.push(...gr.uv);
        const side = THREE.DoubleSide;
        if (gr.tex) mats.push(new THREE.MeshLambertMaterial({ map: gr.tex, side, alphaTest: 0.5 }));
        else if (gr.rgb) mats.push(new THREE.MeshLambertMaterial({ color: new THREE.Color(gr.rgb[0] / 255, gr.rgb[1] / 255, gr.rgb[2] / 255), flatShading: true, side }));
        else mats.push(new THREE.MeshLambertMaterial({ color: new THREE.Color(gr.guess), flatShading: true, side }));
      }
      geo.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
      geo.setAttribute('uv', new THREE.Float32BufferAttribute(uv, 2));
      geo.computeVertexNormals(); // unshared vertices: one normal per face (flat)
      const mesh = new THREE.Mesh(geo, mats);
      mesh.matrixAutoUpdate = false;
      mesh.userData = { node: g.node, textured: mats.some((m) => m.map) };
      model.add(mesh);
      return mesh;
    });
    window.__hercPixel = (k, p) => this.pixel(k, p);
  }

  // The drawn colour [r, g, b, a] where node-space point p of group k lands on the
  // canvas, with its canvas position; null without WebGL or off the canvas.
  pixel(k, p) {
    if (!this.three || !this.three.meshObjs[k]) return null;
    const { THREE, renderer, camera } = this.three;
    this.render();
    const mesh = this.three.meshObjs[k];
    mesh.updateMatrixWorld(true);
    const w = new THREE.Vector3(p[0], p[1], p[2]).applyMatrix4(mesh.matrixWorld);
    const ndc = w.project(camera);
    const size = renderer.getDrawingBufferSize(new THREE.Vector2());
    const x = Math.round((ndc.x + 1) / 2 * size.x), y = Math.round((ndc.y + 1) / 2 * size.y);
    if (x < 0 || y < 0 || x >= size.x || y >= size.y) return null;
    const gl = renderer.getContext();
    const out = new Uint8Array(4);
    gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return { rgba: Array.from(out), at: [x, size.y - y] };
  }

  // Where each group's first point is drawn now, in the shape's space.
  meshPlaces(world) {
    return this.meshes.map((g, k) => {
      const p = g.points[0] || [0, 0, 0];
      let at;
      if (this.three && this.three.meshObjs && this.three.meshObjs[k]) {
        const v = new this.three.THREE.Vector3(p[0], p[1], p[2]).applyMatrix4(this.three.meshObjs[k].matrix);
        at = [v.x, v.y, v.z];
      } else {
        const T = world[g.node];
        at = T ? placeQ14(T, p) : p.slice();
      }
      return { node: g.node, point: at };
    });
  }

  async init() {
    try {
      // Probe first: three.js logs an error when it cannot get a context.
      const probe = document.createElement('canvas');
      if (!(probe.getContext('webgl2') || probe.getContext('webgl'))) throw new Error('no WebGL context');
      const THREE = await import('three');
      const { OrbitControls } = await import('./vendor/OrbitControls.js');
      const canvas = el('canvas', { class: 'view3d', id: 'herc-canvas' });
      this.container.append(canvas);
      const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
      renderer.setPixelRatio(window.devicePixelRatio || 1);
      const scene = new THREE.Scene();
      scene.background = new THREE.Color(0xfbfbf9);
      const camera = new THREE.PerspectiveCamera(40, 1, 1, 1e7);
      camera.up.set(0, 0, 1);
      const controls = new OrbitControls(camera, canvas);
      scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.2));
      const sun = new THREE.DirectionalLight(0xffffff, 1.5);
      sun.position.set(1, -2, 3);
      scene.add(sun);
      const model = new THREE.Group();
      model.matrixAutoUpdate = false;
      scene.add(model);
      this.three = { THREE, renderer, scene, camera, controls, canvas, model, boxes: [], lines: null, grid: null, meshObjs: [] };
      const resize = () => {
        const w = canvas.clientWidth || 600, h = canvas.clientHeight || 440;
        renderer.setSize(w, h, false);
        camera.aspect = w / h;
        camera.updateProjectionMatrix();
        this.render();
      };
      new ResizeObserver(resize).observe(canvas);
      controls.addEventListener('change', () => this.render());
      resize();
    } catch (e) {
      console.warn('WebGL unavailable, drawing in 2D:', e);
      this.three = null;
      const canvas = el('canvas', { class: 'view2d', id: 'herc-canvas', height: 440 });
      this.container.append(canvas, el('div', { class: 'keys' }, 'WebGL is not available here: a fixed oblique 2D sketch is drawn instead.'));
      this.canvas2d = canvas;
    }
  }

  render() {
    if (this.three) this.three.renderer.render(this.three.scene, this.three.camera);
  }

  // Fix the framing once, from the setup pose (H25: framing stays fixed).
  frame(points) {
    let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const p of points) for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i]); hi[i] = Math.max(hi[i], p[i]); }
    if (!points.length) { lo = [0, 0, 0]; hi = [1, 1, 1]; }
    const c = lo.map((v, i) => (v + hi[i]) / 2);
    const r = Math.max(1, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    this.center = c;
    this.radius = r;
    if (!this.three) return;
    const { THREE, camera, controls, scene } = this.three;
    camera.position.set(c[0] + r * 2.4, c[1] - r * 3.0, c[2] + r * 1.6);
    camera.near = r / 100;
    camera.far = r * 400;
    camera.updateProjectionMatrix();
    controls.target.set(c[0], c[1], c[2]);
    controls.update();
    if (this.three.grid) scene.remove(this.three.grid);
    // A floor of 100-unit squares around the model, under its lowest point.
    const cell = Math.max(1, Math.pow(10, Math.round(Math.log10(r / 4))));
    const divisions = 2 * Math.ceil((r * 4) / cell);
    const grid = new THREE.GridHelper(divisions * cell, divisions, 0x8a929a, 0xd0d4d8);
    grid.rotation.x = Math.PI / 2; // GridHelper lies in XZ; the machine's ground is XY (z up)
    grid.position.set(c[0], c[1], lo[2]);
    grid.userData.cell = cell;
    scene.add(grid);
    this.three.grid = grid;
  }

  // While root motion is shown the machine walks away from the fixed framing: move
  // the camera (and the orbit target) with it by the object's displacement, keeping
  // whatever view the user orbited to. The floor stays put in the world (so the
  // walking shows against it), shifted by whole squares to stay under the machine.
  follow(t) {
    if (!this.followed) {
      this.followed = t.slice();
      return;
    }
    const d = [0, 1, 2].map((i) => t[i] - this.followed[i]);
    this.followed = t.slice();
    if (d.every((v) => v === 0)) return;
    this.center = this.center.map((v, i) => v + d[i]);
    if (!this.three) return;
    const { camera, controls, grid } = this.three;
    camera.position.set(camera.position.x + d[0], camera.position.y + d[1], camera.position.z + d[2]);
    controls.target.set(controls.target.x + d[0], controls.target.y + d[1], controls.target.z + d[2]);
    controls.update();
    if (grid) {
      const cell = grid.userData.cell;
      grid.position.x = Math.round(this.center[0] / cell) * cell;
      grid.position.y = Math.round(this.center[1] / cell) * cell;
    }
  }

  // world: the trace's world transforms; parents: node parent ids; object: the
  // machine's placement matrix and position when root motion is shown, else null.
  draw(world, parents, object, selectedNodes, picked = -1) {
    if (!this.frameFixed) {
      // Frame where the model is drawn now (placed by the object when root motion shows).
      const pts = world.slice(1).map((T) => (object ? applyT(object.m, object.t, T.t) : T.t));
      this.frame(pts);
      this.frameFixed = true;
      this.followed = object ? object.t.slice() : null;
    } else if (object) {
      this.follow(object.t);
    } else {
      this.followed = null;
    }
    // Where the view is centred and where the machine is (for the e2e test).
    window.__hercFrame = { center: this.center.slice(), radius: this.radius, object: object ? object.t.slice() : null };
    if (this.three) this.draw3d(world, parents, object, selectedNodes, picked);
    else this.draw2d(world, parents, object, selectedNodes, picked);
  }

  draw3d(world, parents, object, selectedNodes, picked) {
    const { THREE, model } = this.three;
    const size = this.radius * 0.07;
    while (this.three.boxes.length < world.length) {
      const mat = new THREE.MeshStandardMaterial({ color: 0x5b7fa6, roughness: 0.6 });
      const box = new THREE.Mesh(new THREE.BoxGeometry(size, size, size), mat);
      box.matrixAutoUpdate = false;
      model.add(box);
      this.three.boxes.push(box);
    }
    const meshNodes = new Set(this.meshes.map((g) => g.node));
    world.forEach((T, i) => {
      const box = this.three.boxes[i];
      // Node 0 carries root motion, not a part; a node with a mesh is drawn by its mesh.
      box.visible = i !== 0 && !meshNodes.has(i);
      const m = unitM(T);
      box.matrix.set(m[0], m[2], m[6], T.t[0], m[1], m[3], m[7], T.t[1], m[4], m[5], m[8], T.t[2], 0, 0, 0, 1);
      box.material.color.setHex(i === picked ? 0xe8c400 : selectedNodes.has(i) ? 0xd9822b : 0x5b7fa6);
    });
    for (const mesh of this.three.meshObjs) {
      const T = world[mesh.userData.node];
      // A negative (or unknown) transform id draws in the shape's own space.
      if (T) {
        const m = unitM(T);
        mesh.matrix.set(m[0], m[2], m[6], T.t[0], m[1], m[3], m[7], T.t[1], m[4], m[5], m[8], T.t[2], 0, 0, 0, 1);
      } else {
        mesh.matrix.identity();
      }
      // The picked part glows; its own colours and textures stay.
      for (const m of mesh.material) m.emissive.setHex(mesh.userData.node === picked ? 0x665200 : 0x000000);
    }
    const seg = [];
    world.forEach((T, i) => {
      const p = parents[i];
      if (i === 0 || p === undefined || p < 1 || p >= world.length) return;
      seg.push(...world[p].t, ...T.t);
    });
    // One line buffer, rewritten in place each frame (no per-frame GPU allocations).
    if (!this.three.lines || this.three.lines.userData.capacity < seg.length) {
      if (this.three.lines) {
        model.remove(this.three.lines);
        this.three.lines.geometry.dispose();
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(Math.max(seg.length, 3)), 3));
      this.three.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x23272e }));
      this.three.lines.userData.capacity = seg.length;
      this.three.lines.frustumCulled = false;
      model.add(this.three.lines);
    }
    const attr = this.three.lines.geometry.getAttribute('position');
    attr.array.set(seg);
    attr.needsUpdate = true;
    this.three.lines.geometry.setDrawRange(0, seg.length / 3);
    model.matrix.identity();
    if (object) {
      const m = object.m;
      const t = object.t;
      model.matrix.set(m[0], m[2], m[6], t[0], m[1], m[3], m[7], t[1], m[4], m[5], m[8], t[2], 0, 0, 0, 1);
    }
    model.matrixWorldNeedsUpdate = true;
    this.render();
  }

  draw2d(world, parents, object, selectedNodes, picked) {
    const cv = this.canvas2d;
    const w = (cv.width = cv.clientWidth || 600), h = cv.height;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    const c = this.center, r = this.radius;
    const sc = Math.min(w, h) / (r * 3.2);
    const place = (p) => (object ? applyT(object.m, object.t, p) : p);
    const proj = (p) => [w / 2 + (p[0] - c[0] - (p[1] - c[1]) * 0.5) * sc, h / 2 - (p[2] - c[2] + (p[1] - c[1]) * 0.3) * sc];
    // Meshes as outlines: each polygon's points placed by its node's world transform.
    ctx.strokeStyle = '#8a9aab';
    for (const g of this.meshes) {
      const T = world[g.node];
      const at = (p) => proj(place(T ? placeQ14(T, p) : p));
      for (const poly of g.polys) {
        const v = poly.points.map((i) => g.points[i]).filter((p) => p).map(at);
        if (v.length < 2) continue;
        ctx.beginPath();
        ctx.moveTo(...v[0]);
        for (const q of v.slice(1)) ctx.lineTo(...q);
        ctx.closePath();
        ctx.stroke();
      }
    }
    ctx.strokeStyle = '#23272e';
    world.forEach((T, i) => {
      const p = parents[i];
      if (i === 0 || p === undefined || p < 1) return;
      const a = proj(place(world[p].t)), b = proj(place(T.t));
      ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.stroke();
    });
    world.forEach((T, i) => {
      if (i === 0) return;
      ctx.fillStyle = i === picked ? '#e8c400' : selectedNodes.has(i) ? '#d9822b' : '#5b7fa6';
      const q = proj(place(T.t));
      ctx.fillRect(q[0] - 4, q[1] - 4, 8, 8);
    });
  }
}

export async function mount(root, info) {
  const session = new EngineSession('herc');
  const tb = toolbar(session, { clockStep: () => ({ op: 'step_ms', ms: 40 }), clockLabel: 'step_ms 40' });
  let asset = { nodes: [], sequences: [] };
  let selSeq = 0;
  let followSlot0 = true;
  let exposed = 0;

  const seqName = (s) => {
    const q = asset.sequences && asset.sequences[s];
    return q && q.name ? `${s} ${q.name}` : `${s}`;
  };

  // ---- left: drawing + transition panel
  const drawBox = el('div', {});
  const drawing = new Drawing(drawBox);
  const rootMotion = el('input', { type: 'checkbox', id: 'herc-root-motion' });
  const meshSource = el('span', { class: 'keys', id: 'herc-mesh-source' }, '');
  // The engine's internals (H-rule state of the exposed thread), folded by default.
  const panel = el('details', { class: 'panel', id: 'herc-transition' }, el('summary', {}, 'Details: the exposed thread\'s transition state (engine internals)'));
  const F = {};
  const add = (label, key) => (F[key] = field(panel, label, `herc-${key}`));
  add('thread / slot', 'thread-id');
  add('current seq / frame', 'seq');
  add('next seq / frame', 'next');
  add('acc / dur', 'acc');
  add('pending request (target)', 'target-seq');
  add('target frame', 'target-frame');
  add('target flags', 'target-flags');
  add('scan frame', 'scan');
  add('armed transition', 'armed');
  add('AtTarget / InTransition', 'flags');
  add('rate (Q8)', 'rate-v');
  add('ground G', 'g');
  add('root transform', 'root');
  add('root read (slot 0)', 'root-read');
  add('object', 'object');
  add('clock', 'clock');
  const framesStrip = el('div', { class: 'timeline', id: 'herc-frames' });
  // Parts: the node hierarchy with the asset's names; a click picks a part to inspect.
  let picked = -1;
  let lastSeq = -1;
  const partsList = el('div', { class: 'list', id: 'herc-parts', style: 'max-height: 200px' });
  const partV = el('span', { class: 'v', id: 'herc-part' });
  const partsPanel = el('div', { class: 'panel' }, el('h2', {}, 'Parts (node hierarchy; orange = animated by the exposed thread\'s sequence)'),
    partsList, el('div', { class: 'kv' }, el('span', { class: 'k' }, 'picked part'), partV));
  panel.append(el('h3', {}, 'frames of the current sequence (green: the frame offers transitions; outlined: current, with acc marked)'), framesStrip);

  // ---- right: controls
  const threadSel = el('select', { id: 'herc-thread' });
  const slotsV = el('span', { class: 'v', id: 'herc-slots' });
  const seqList = el('div', { class: 'list', id: 'herc-seq-list' });
  const threadTable = el('table', { class: 'q', id: 'herc-threads' });
  const stopOnArrival = el('input', { type: 'checkbox', id: 'herc-stop-on-arrival' });
  const targetFrame = el('input', { type: 'number', id: 'herc-target-frame-in', value: -1, min: -1 });
  const setFrame = el('input', { type: 'number', id: 'herc-set-frame', value: 0, min: 0 });
  const seek = el('input', { type: 'range', id: 'herc-seek', min: 0, max: 16384, value: 0, style: 'width: 16em' });
  const seekV = el('span', { class: 'keys' }, '0');
  const rate = el('input', { type: 'range', id: 'herc-rate', min: -512, max: 512, value: 256, step: 1, style: 'width: 16em' });
  const rateV = el('span', { class: 'keys', id: 'herc-rate-label' }, '256 (1×)');
  const thread = () => exposed;
  const send = (step) => session.step(step);
  const setRate = (r) => {
    rate.value = r;
    rateV.textContent = `${r} (${(r / 256).toFixed(2)}×)`;
    return send({ op: 'set_rate', thread: thread(), rate: Number(r) });
  };
  threadSel.addEventListener('change', () => {
    followSlot0 = threadSel.value === 'auto';
    if (!followSlot0) exposed = Number(threadSel.value);
    update();
  });
  seek.addEventListener('input', () => (seekV.textContent = `${seek.value} / 16384`));
  seek.addEventListener('change', () => send({ op: 'seek', thread: thread(), seq: selSeq, pos: Number(seek.value) }));
  rate.addEventListener('input', () => (rateV.textContent = `${rate.value} (${(rate.value / 256).toFixed(2)}×)`));
  rate.addEventListener('change', () => setRate(Number(rate.value)));
  // Switching root motion on or off moves the figure: frame it again where it is drawn.
  rootMotion.addEventListener('change', () => { drawing.frameFixed = false; update(); });

  // The plain controls: request the sample's named locomotion sequences on the exposed
  // thread (the same request step as "Request selected").
  const seqByName = (name) => (asset.sequences || []).findIndex((q) => q.name === name);
  const requestNamed = (name) => {
    const i = seqByName(name);
    if (i < 0) {
      session.status(`this shape has no sequence named "${name}"`, true);
      return null;
    }
    return send({ op: 'request', thread: thread(), seq: i, frame: -1, stop_on_arrival: false });
  };
  const plain = [['walk', 'Walk', 'w'], ['run', 'Run', 'r'], ['turn', 'Turn', 't'], ['idle', 'Stop', 'x']];
  const plainButtons = plain.map(([name, label, key]) => el('button', {
    id: `herc-do-${label.toLowerCase()}`, 'data-seq-name': name, onclick: () => requestNamed(name),
    title: `Request the "${name}" sequence on the exposed thread (key ${key.toUpperCase()})`,
  }, `${label} (${key.toUpperCase()})`));
  window.addEventListener('keydown', (ev) => {
    const view = document.getElementById('view-herc');
    const tag = document.activeElement && document.activeElement.tagName;
    if (!view || view.hidden || ev.repeat || ['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (threadControls.hidden) return;
    const hit = plain.find(([, , key]) => key === ev.key.toLowerCase());
    if (!hit) return;
    requestNamed(hit[0]);
    ev.preventDefault();
  });

  // The conformance steps (request, seek, rate, drop) act on the exposed thread.
  const threadControls = el('div', { id: 'herc-thread-controls' },
    el('div', { class: 'row' }, ...plainButtons),
    el('div', { class: 'row' },
      el('button', { class: 'primary', id: 'herc-request', onclick: () => send({ op: 'request', thread: thread(), seq: selSeq, frame: Number(targetFrame.value), stop_on_arrival: stopOnArrival.checked }) }, 'Request selected'),
      el('label', {}, stopOnArrival, 'stop on arrival'),
      el('label', {}, 'frame', targetFrame),
      el('button', { id: 'herc-drop', onclick: () => send({ op: 'drop_request', thread: thread() }) }, 'Drop request')),
    el('div', { class: 'row' },
      el('button', { id: 'herc-set-sequence', onclick: () => send({ op: 'set_sequence', thread: thread(), seq: selSeq, frame: Number(setFrame.value), acc: 0 }) }, 'Set sequence'),
      el('label', {}, 'at frame', setFrame),
      el('button', {
        id: 'herc-add-thread',
        // A new thread starts at rate 0 (H-rules): give it 1x in the same request, so it plays.
        onclick: () => {
          const l = session.last();
          const n = l && l.threads ? l.threads.length : 0;
          session.apply([{ op: 'add_thread', seq: selSeq }, { op: 'set_rate', thread: n, rate: 256 }]);
        },
        title: 'Register a new thread on the selected sequence and play it at 1x (rate 256)',
      }, 'Add thread')),
    el('div', { class: 'row' }, el('label', {}, 'seek', seek), seekV),
    el('div', { class: 'row' }, el('label', {}, 'rate', rate), rateV),
    el('div', { class: 'row' },
      el('button', { id: 'herc-rate-1x', onclick: () => setRate(256) }, '1×'),
      el('button', { id: 'herc-rate-half', onclick: () => setRate(128) }, '½×'),
      el('button', { id: 'herc-reverse', onclick: () => setRate(-Number(rate.value) || -256), title: 'Negate the rate: a sign change re-runs the pending request (H5)' }, 'Reverse'),
      el('button', { id: 'herc-rate-pause', onclick: () => setRate(0) }, 'Pause (rate 0)')),
    el('p', { class: 'keys' }, 'Keys: W walk, R run, T turn, X stop, P play/pause, Space one step. Play advances the clock 40 ms per step, 25 steps a second (at 1× a step is 31 animation ticks, H24). '
      + 'A request searches for an authored transition; the panel shows the armed one. With stop on arrival the thread '
      + 'freezes (acc 0) when it reaches the target.'));

  // The mech extension (docs/herc-formats.md): held inputs the H27 tick reads.
  const mechState = el('div', { id: 'herc-mech-state' });
  const M = {};
  for (const [label, key] of [['held inputs', 'inputs'], ['throttle / desired', 'throttle'], ['speed / readout / HUD km/h', 'speed'],
    ['turn / turn rate', 'turn'], ['animation rate', 'anim-rate'], ['gait', 'gait'], ['torso twist / pitch', 'torso'],
    ['blocked / collapsed / immobilised', 'blocked'], ['terrain height / slope', 'terrain'], ['eye (world)', 'eye']]) {
    M[key] = field(mechState, label, `herc-mech-${key}`);
  }
  const slider = (id, min, max, value, onchange) => {
    const r = el('input', { type: 'range', id, min, max, value, step: 1, style: 'width: 12em' });
    const v = el('span', { class: 'keys' }, String(value));
    r.addEventListener('input', () => (v.textContent = r.value));
    r.addEventListener('change', () => onchange(Number(r.value)));
    return [r, v];
  };
  const lever = el('select', { id: 'herc-mech-lever' }, ...[[0, 'incremental (0)'], [1, 'lever forward (1)'], [-1, 'lever reverse (-1)']].map(([v, t]) => el('option', { value: v }, t)));
  const [thr, thrV] = slider('herc-mech-throttle-axis', -512, 512, 0, (a) => send({ op: 'throttle_axis', axis: a, lever: Number(lever.value) }));
  const [steer, steerV] = slider('herc-mech-steer-axis', -256, 256, 0, (t) => send({ op: 'steer', turn: t }));
  const [twist, twistV] = slider('herc-mech-twist-axis', -256, 256, 0, (a) => send({ op: 'torso', axis: a }));
  const [aim, aimV] = slider('herc-mech-aim-axis', -256, 256, 0, (a) => send({ op: 'aim', axis: a }));
  const terrainH = el('input', { type: 'number', id: 'herc-mech-terrain', value: 0 });
  const terrainS = el('input', { type: 'number', id: 'herc-mech-slope', value: 0 });
  const setSlider = (r, v, x) => { r.value = x; v.textContent = String(x); };
  const mechControls = el('div', { id: 'herc-mech-controls', hidden: true },
    el('h3', {}, 'mech inputs (held until changed)'),
    el('div', { class: 'row' }, el('label', {}, 'throttle axis', thr), thrV, lever),
    el('div', { class: 'row' },
      el('button', { id: 'herc-mech-forward', onclick: () => { setSlider(thr, thrV, -256); send({ op: 'throttle_axis', axis: -256, lever: Number(lever.value) }); } }, 'Throttle forward (-256)'),
      el('button', { id: 'herc-mech-neutral', onclick: () => { setSlider(thr, thrV, 0); send({ op: 'throttle_axis', axis: 0, lever: Number(lever.value) }); } }, 'Hold (0)'),
      el('button', { id: 'herc-mech-back', onclick: () => { setSlider(thr, thrV, 256); send({ op: 'throttle_axis', axis: 256, lever: Number(lever.value) }); } }, 'Throttle back (+256)')),
    el('div', { class: 'row' }, el('label', {}, 'steer', steer), steerV,
      el('button', { onclick: () => { setSlider(steer, steerV, 0); send({ op: 'steer', turn: 0 }); } }, 'Straight')),
    el('div', { class: 'row' }, el('label', {}, 'torso twist', twist), twistV,
      el('button', { id: 'herc-mech-centre', onclick: () => { setSlider(twist, twistV, 0); send({ op: 'torso_center' }); } }, 'Centre torso')),
    el('div', { class: 'row' }, el('label', {}, 'aim (pitch)', aim), aimV),
    el('div', { class: 'row' },
      el('label', {}, 'terrain', terrainH), el('label', {}, 'slope', terrainS),
      el('button', { onclick: () => send({ op: 'terrain', height: Number(terrainH.value), slope: Number(terrainS.value) }) }, 'Set terrain'),
      el('button', { id: 'herc-mech-block', onclick: () => send({ op: 'block', moves: 1 }), title: 'The next collision test refuses the move (D9)' }, 'Block next move'),
      el('button', { id: 'herc-mech-kill', onclick: () => send({ op: 'kill' }), title: 'Immobilise the machine: it goes down (H33)' }, 'Kill')),
    el('h3', {}, 'mech state'), mechState,
    el('p', { class: 'keys' }, 'The mech mode registers the chassis\'s three threads (H27) and drives them through the throttle, '
      + 'controller, gait and torso rules; the request / seek / rate controls of the conformance mode do not apply here.'));

  const modeSel = el('select', { id: 'herc-mode' },
    el('option', { value: 'threads' }, 'threads: request sequences yourself'),
    ...Object.keys(info.more_scenarios || {}).map((k) => el('option', { value: k }, `${k}: drive it with throttle, steering and torso`)));
  modeSel.addEventListener('change', async () => {
    tb.player.pause();
    const doc = modeSel.value === 'threads' ? info.default_scenario : info.more_scenarios[modeSel.value];
    try {
      await session.start(doc);
    } catch (e) {
      session.status(e.message, true);
    }
  });

  const controls = el('div', { class: 'panel' },
    el('h2', {}, 'Threads and sequences'),
    el('div', { class: 'row' }, el('label', {}, 'mode ', modeSel)),
    el('div', { class: 'row' }, el('label', {}, 'exposed thread ', threadSel), el('span', { class: 'keys' }, 'slot order '), slotsV),
    threadTable,
    el('h3', {}, 'sequences (click to select for the controls below)'),
    seqList,
    threadControls,
    mechControls,
  );

  root.append(el('p', { class: 'intro', id: 'herc-intro' }, 'Press Play, then Walk, Run, Turn or Stop (keys W, R, T, X) to drive the sample HERC; '
    + 'click a sequence and "Request selected" to ask for any other one. Drag the picture to look around.'),
  el('details', { class: 'about' }, el('summary', {}, 'What this view shows'),
    el('p', { class: 'keys' }, "The DBSIM HERC animation threads (herc.md): each thread plays a sequence frame by frame in whole ticks; a request searches the frames ahead for an authored transition and arms it; threads are sorted by their sequence's priority and the first slot supplies root motion. Every value shown is the engine's trace line.")),
  tb.bar, tb.status,
    el('div', { class: 'grid' },
      el('div', {}, drawBox,
        el('div', { class: 'row' }, el('label', {}, rootMotion, 'Show root motion'),
          el('button', { onclick: () => { drawing.frameFixed = false; update(); } }, 'Re-frame camera'), meshSource),
        panel),
      el('div', {}, controls, partsPanel, tb.extra)));
  await drawing.init();

  function renderSeqList(cur) {
    const seqs = asset.sequences || [];
    syncList(seqList, seqs, (i) => {
      const row = el('div', { 'data-seq': i }, el('span', {}), ' ', el('span', { class: 'muted' }));
      row.addEventListener('click', () => { selSeq = Number(row.dataset.seq); renderSeqList(lastSeq); });
      return row;
    }, (row, q, i) => {
      const frames = q.frames ? q.frames.length : 0;
      setClass(row, [i === selSeq ? 'sel' : '', i === cur ? 'cur' : ''].join(' '));
      setText(row.firstChild, `${i} ${q.name || ''}`);
      setText(row.lastChild, `${q.class || ''} prio ${q.priority} · ${frames} frames${q.ground ? ' · ground' : ''}`);
    });
  }

  let partsOrder = null;
  function renderParts(parents, covered, l) {
    const nodes = asset.nodes || [];
    if (!partsOrder || partsOrder.nodes !== nodes) {
      const depth = (i) => {
        let d = 0;
        for (let p = parents[i]; p >= 0 && d < nodes.length; p = parents[p]) d++;
        return d;
      };
      // Parent-first order: each node after its parent, children in id order.
      const order = [];
      const visit = (p) => nodes.forEach((n, i) => { if (n.parent === p && !order.includes(i)) { order.push(i); visit(i); } });
      visit(-1);
      nodes.forEach((_, i) => { if (!order.includes(i)) order.push(i); });
      partsOrder = { nodes, order, depth: order.map(depth) };
    }
    const { order, depth } = partsOrder;
    syncList(partsList, order, () => {
      const row = el('div', {});
      row.addEventListener('click', () => { const i = Number(row.dataset.node); picked = picked === i ? -1 : i; update(); });
      return row;
    }, (row, i, k) => {
      if (row.dataset.node !== String(i)) row.dataset.node = String(i);
      setClass(row, i === picked ? 'sel' : '');
      const style = `padding-left: ${6 + depth[k] * 14}px${covered.has(i) ? '; color: #b35900' : ''}`;
      if (row.getAttribute('style') !== style) row.setAttribute('style', style);
      setText(row, `${nodes[i].name || 'node'} (${i})${i === 0 ? ' · root motion' : ''}`);
    });
    if (picked >= 0 && l.world[picked]) {
      const T = l.world[picked];
      setText(partV, `${nodes[picked] ? nodes[picked].name || picked : picked}: local [${l.locals[picked].join(', ')}]\n`
        + `world t [${T.t.join(', ')}] kind ${T.kind}`);
    } else {
      setText(partV, 'click a part');
    }
  }

  function renderFrames(th) {
    const q = asset.sequences && asset.sequences[th.seq];
    const frames = q && q.frames ? q.frames : [];
    syncList(framesStrip, frames, () => el('div', { class: 'node' }, el('span', {}), el('div', { class: 'bar' }, el('i', {}))), (n, f, i) => {
      setClass(n, 'node' + (i === th.frame ? ' current' : '') + (f.transition_count ? ' cyclic' : ' link'));
      setText(n.firstChild, `f${i} · ${f.duration} ticks${f.transition_count ? ` · ${f.transition_count} tr` : ''}${i === th.scan_frame ? ' · SCAN' : ''}`);
      const bar = n.lastChild;
      bar.hidden = i !== th.frame;
      if (i === th.frame) {
        const left = `${th.dur ? (100 * th.acc) / th.dur : 0}%`;
        if (bar.firstChild.style.left !== left) bar.firstChild.style.left = left;
      }
    });
  }

  function update() {
    const l = session.last();
    if (!l || !l.threads) return;
    // thread selector
    const want = ['auto', ...l.threads.map((_, i) => String(i))];
    if (threadSel.options.length !== want.length) {
      threadSel.replaceChildren(el('option', { value: 'auto' }, 'the first slot (the thread that moves the machine)'), ...l.threads.map((_, i) => el('option', { value: i }, `thread ${i}`)));
      threadSel.value = followSlot0 ? 'auto' : String(exposed);
    }
    if (followSlot0) exposed = l.slots[0];
    if (exposed >= l.threads.length) exposed = 0;
    const th = l.threads[exposed];
    lastSeq = th.seq;
    // The rate slider shows the exposed thread's rate unless it is being dragged.
    if (document.activeElement !== rate && Number(rate.value) !== th.rate) {
      rate.value = th.rate;
      setText(rateV, `${th.rate} (${(th.rate / 256).toFixed(2)}×)`);
    }
    setText(slotsV, `[${l.slots.join(', ')}]`);
    // All threads in slot order: the priority of the playing sequence is the sort key (H17, H18).
    const prio = (q) => (asset.sequences && asset.sequences[q] ? asset.sequences[q].priority : '?');
    syncRows(threadTable, [['slot', 'thread', 'sequence / frame', 'priority', 'rate', 'target', 'flags'],
      ...l.slots.map((id, slot) => {
        const t = l.threads[id];
        return [String(slot), String(id), `${seqName(t.seq)} / ${t.frame}`, String(prio(t.seq)), String(t.rate),
          t.target_seq < 0 ? '—' : seqName(t.target_seq), `${t.flags & FLAG_AT_TARGET ? 'A' : ''}${t.flags & FLAG_IN_TRANSITION ? 'T' : ''}`];
      })], (row) => {
      // Row 0 is the heading; row k is slot k - 1.
      const l2 = session.last();
      if (row < 1 || !l2 || row > l2.slots.length) return;
      followSlot0 = false;
      exposed = l2.slots[row - 1];
      threadSel.value = String(exposed);
      update();
    }, true);
    for (let r = 1; r < threadTable.rows.length; r++) {
      const style = `cursor:pointer;${l.slots[r - 1] === exposed ? 'background:#dbe9ff' : ''}`;
      const tr = threadTable.rows[r];
      if (tr.getAttribute('style') !== style) tr.setAttribute('style', style);
      if (!tr.title) tr.title = 'expose this thread';
    }
    const setV = (k, text, value) => {
      setText(F[k], text);
      setValue(F[k], value);
    };
    setV('thread-id', `thread ${exposed}, slot ${l.slots.indexOf(exposed)}`, exposed);
    setV('seq', `${seqName(th.seq)} / frame ${th.frame}`, th.seq);
    setV('next', `${seqName(th.next_seq)} / frame ${th.next_frame}`, th.next_seq);
    setV('acc', `${th.acc} / ${th.dur}`, th.acc);
    setV('target-seq', th.target_seq < 0 ? 'none (-1)' : seqName(th.target_seq), th.target_seq);
    setV('target-frame', th.target_frame < 0 ? 'any (-1)' : String(th.target_frame), th.target_frame);
    setV('target-flags', `${th.target_flags}${th.target_flags & 1 ? ' (stop on arrival)' : ''}`, th.target_flags);
    setV('scan', th.scan_frame < 0 ? 'none (-1)' : String(th.scan_frame), th.scan_frame);
    setV('armed', `→ ${seqName(th.tr_seq)} frame ${th.tr_frame}, ${th.tr_dur} ticks, key ${th.tr_key}`, th.tr_seq);
    const frozen = th.flags & FLAG_AT_TARGET && th.target_flags & 1 && th.acc === 0 && th.target_seq === th.seq;
    setV('flags', `${th.flags & FLAG_AT_TARGET ? 'AtTarget' : '—'} / ${th.flags & FLAG_IN_TRANSITION ? 'InTransition' : '—'}${frozen ? '  (stopped on arrival)' : ''}`, th.flags);
    setV('rate-v', `${th.rate} (${(th.rate / 256).toFixed(2)}×)`, th.rate);
    setV('g', `${th.ground ? 'ground' : 'no ground'} [${th.g.join(', ')}]`);
    setV('root', fmtT(th.root));
    setV('root-read', fmtT(l.root_read));
    setV('object', `euler [${l.object.euler.join(', ')}]  position [${l.object.position.join(', ')}]`);
    setV('clock', l.clock ? `${l.clock.elapsed_ms} ms → ${l.clock.sim_tick_delta} counts → ${l.clock.anim_delta} ticks` : `(${l.op})`);
    renderSeqList(th.seq);
    renderFrames(th);
    const mech = l.mech;
    threadControls.hidden = !!mech;
    mechControls.hidden = !mech;
    if (mech) {
      if (modeSel.value === 'threads') modeSel.value = Object.keys(info.more_scenarios || {})[0] || 'threads';
      const i = mech.inputs;
      setText(M.inputs, `throttle axis ${i.throttle_axis}, lever ${i.lever}, steer ${i.steer}, twist ${i.twist_axis}${i.twist_centre ? ' (centring)' : ''}, pitch ${i.pitch_axis}`);
      setText(M.throttle, `${mech.throttle} / ${mech.desired}${mech.dirty ? ' (dirty)' : ''}`);
      setValue(M.throttle, mech.throttle);
      setText(M.speed, `${mech.speed} / ${mech.speed_readout} / ${mech.hud_kmh}`);
      setValue(M.speed, mech.speed);
      setText(M.turn, `${mech.turn} / ${mech.turn_rate}${mech.hold_turn ? ' (holding turn)' : ''}`);
      setText(M['anim-rate'], String(mech.anim_rate));
      setText(M.gait, mech.gait ? JSON.stringify(mech.gait) : '—');
      setText(M.torso, `angle ${mech.twist.angle} rate ${mech.twist.rate} / angle ${mech.pitch.angle} rate ${mech.pitch.rate}`);
      setText(M.blocked, `${JSON.stringify(mech.blocked)} / ${mech.collapsed} / ${mech.immobilised}${mech.refuse_moves ? `, refusing ${mech.refuse_moves} moves` : ''}`);
      setText(M.terrain, `${mech.terrain_height} / ${mech.slope}`);
      setText(M.eye, mech.eye_world ? `[${mech.eye_world.join(', ')}]` : '—');
    } else if (modeSel.value !== 'threads') {
      modeSel.value = 'threads';
    }
    // drawing
    const parents = (asset.nodes || []).map((n) => n.parent);
    const covered = new Set();
    const q = asset.sequences && asset.sequences[th.seq];
    if (q && q.columns) q.columns.forEach((n) => covered.add(n));
    const object = rootMotion.checked
      ? { m: fromEulerF(...l.object.euler), t: l.object.position }
      : null;
    drawing.draw(l.world, parents, object, covered, picked);
    // The page's first animated frame, for the Performance API (docs/browser.md).
    if (!performance.getEntriesByName('retroanim:first-frame').length) performance.mark('retroanim:first-frame');
    window.__hercMeshes = { step: l.step, session: session.id, groups: drawing.meshPlaces(l.world) };
    renderParts(parents, covered, l);
  }

  // What the shape is drawn with, in a sentence.
  const materialNote = (mat) => {
    if (!mat || !mat.palette) return 'no palette beside the shape: colours are guessed by surface number';
    const frames = Object.keys(mat.textures || {}).length;
    const tex = mat.bitmaps ? `, ${frames} textures from ${mat.bitmaps}` : ', no textures';
    const bad = (mat.problems || []).length ? ` (${mat.problems.join('; ')})` : '';
    return `colours from ${mat.palette}${tex}${bad}`;
  };
  let assetsLoaded = Promise.resolve();
  const updateSoon = perFrame(update);
  session.subscribe((lines, reset) => {
    if (reset) {
      drawing.frameFixed = false;
      const id = session.id;
      // Meshes are optional: an error or an API without the endpoint leaves the stick figure.
      const meshes = api('GET', `/sessions/${id}/meshes`).then((r) => r, () => null);
      assetsLoaded = api('GET', `/sessions/${id}/assets`).then(async (r) => {
        asset = r.assets || asset;
        const m = await meshes;
        if (session.id !== id) return;
        drawing.setMeshes(m ? m.meshes : [], m ? m.materials : null);
        meshSource.textContent = m && m.meshes.length
          ? `meshes: ${m.source} (${m.meshes.length} groups) · ${materialNote(m.materials)}`
          : 'no DTS meshes: nodes drawn as boxes';
        window.__hercMaterials = m && m.materials
          ? { palette: m.materials.palette, bitmaps: m.materials.bitmaps, frames: Object.keys(m.materials.textures || {}).length, problems: m.materials.problems || [] }
          : null;
        drawing.frameFixed = false;
        update();
      }).catch((e) => session.status(`asset description: ${e.message}`, true));
    }
    updateSoon();
  });
  // The user's Earthsiege 2 folder (browse --es2, or its VOL files opened in the static
  // page): every shape of its VOLs, played on click.
  const showEs2 = (r) => {
    const old = document.getElementById('herc-es2');
    if (old) old.remove();
    if (!r || !r.open) return;
    const es2 = el('div', { class: 'panel', id: 'herc-es2' }, el('h2', {}, 'Your Earthsiege 2 shapes (read-only)'),
      el('div', { class: 'keys' }, r.folder));
    for (const v of r.vols) {
      es2.append(el('h3', {}, `${v.file} · ${v.shapes.length} shapes · ${v.chassis.length} chassis records`));
      if (v.error) es2.append(el('div', { class: 'error' }, v.error));
      es2.append(el('div', { class: 'list', style: 'max-height: 220px' }, ...v.shapes.map((s) => {
        const playable = !s.error && s.sequences > 0;
        return el('div', {
          'data-vol': v.file, 'data-entry': s.entry, class: playable ? '' : 'muted', style: playable ? 'cursor:pointer' : '',
          title: s.error || (s.sequences ? 'play this shape' : 'no sequences to play'),
          onclick: playable ? async () => {
            tb.player.pause();
            try {
              await session.start({ engine: 'herc', asset_es2: { vol: v.file, entry: s.entry }, setup: { threads: [{ seq: 0, rate: 256 }] } });
            } catch (e) {
              session.status(e.message, true);
            }
          } : undefined,
        }, `${s.entry} `, el('span', { class: 'muted' }, s.error || `${s.nodes} nodes · ${s.sequences} sequences · ${s.meshes} meshes`));
      })));
    }
    partsPanel.after(es2);
  };
  api('GET', '/herc/es2').then(showEs2, () => {});
  if (globalThis.RETROANIM_WASM) partsPanel.after(openUserVols(showEs2));
  await session.start(null);
  await assetsLoaded; // the view is ready once it can name what it shows
  return { session, shown: () => drawing.render() };
}
