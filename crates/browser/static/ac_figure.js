// AC figure: draws the creature in 3D from the Sequence's part frames at every tick.
//
// The figure (GET /api/sessions/{id}/figure) gives the Setup's parts, their GfxObj
// meshes and the part frames of every clip the motion table plays. A trace line says
// which clip the Sequence is in (seq.anims[seq.curr].anim) and where (seq.frame); the
// part frames shown are that clip's frame floor(seq.frame), as the engine's Sequence
// picks them, else the Setup's default placement. As in the client's part array, each
// part frame is relative to the object's frame (parents are listed, not chained), and
// the default scale scales the part's mesh and its offset.
//
// Surfaces: a polygon names its surface and carries UVs when textured; the figure's
// `surfaces` give each surface's image decoded to RGBA (base64 rows, top row first, so
// v = 0 is the top as in the records) or its solid colour. Polygons without either are
// drawn in the part's flat colour.
//
// The posed part frames are exposed on window.__acFigure (for the e2e test), and
// window.__acFigurePixel(part, [x, y, z]) reads back the drawn colour where a point in a
// part's frame lands on the canvas; three.js draws them when WebGL is available, a 2D
// side sketch otherwise.

import { el } from './api.js';

// [w, x, y, z] quaternion product a * b.
function qmul(a, b) {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

// Rotate v by the unit quaternion q = [w, x, y, z].
export function rotate(q, v) {
  const [w, x, y, z] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [
    v[0] + w * t[0] + (y * t[2] - z * t[1]),
    v[1] + w * t[1] + (z * t[0] - x * t[2]),
    v[2] + w * t[2] + (x * t[1] - y * t[0]),
  ];
}

// The part frames ([ox, oy, oz, w, x, y, z] each) the Sequence of trace line l shows,
// and where they come from.
export function partFrames(figure, l) {
  const s = l && l.seq;
  const node = s && s.curr !== null && s.curr !== undefined ? s.anims[s.curr] : null;
  if (node) {
    const frames = figure.anims[node.anim];
    const i = Math.floor(s.frame);
    if (frames && i >= 0 && i < frames.length && frames[i].length) return { frames: frames[i], anim: node.anim, frame: i };
  }
  return { frames: figure.setup.placement || [], anim: null, frame: null };
}

// World frames of every part: the object's frame (origin, orientation) combined with
// each part frame, the part's offset scaled by its default scale.
export function posedParts(figure, l) {
  const { frames, anim, frame } = partFrames(figure, l);
  const o = l.frame.origin, q = l.frame.orientation;
  const parts = figure.setup.parts.map((_, i) => {
    const f = frames[i] || [0, 0, 0, 1, 0, 0, 0];
    const sc = figure.setup.default_scale[i] || [1, 1, 1];
    const off = rotate(q, [f[0] * sc[0], f[1] * sc[1], f[2] * sc[2]]);
    return { origin: [o[0] + off[0], o[1] + off[1], o[2] + off[2]], orientation: qmul(q, [f[3], f[4], f[5], f[6]]) };
  });
  return { step: l.step, anim, frame, parts };
}

const COLORS = [0x8d6e63, 0x5c7cfa, 0xf0b37e, 0x4caf50, 0x4caf50, 0x7e57c2, 0x7e57c2, 0x9e9e9e];

// A three.js texture from a surface's decoded RGBA (nearest texels, as the small
// sample images are meant to be seen; wrapping repeats like the client's).
function surfaceTexture(THREE, surf) {
  const bin = atob(surf.rgba);
  const px = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) px[i] = bin.charCodeAt(i);
  const t = new THREE.DataTexture(px, surf.width, surf.height, THREE.RGBAFormat);
  t.colorSpace = THREE.SRGBColorSpace;
  t.magFilter = THREE.NearestFilter;
  t.minFilter = THREE.NearestFilter;
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.needsUpdate = true;
  return t;
}

export class AcFigure {
  constructor(container) {
    this.container = container;
    this.figure = null;
    this.three = null;
    this.meshes = [];
    this.note = el('div', { class: 'keys', id: 'ac-figure-note' });
  }

  async init() {
    try {
      const probe = document.createElement('canvas');
      if (!(probe.getContext('webgl2') || probe.getContext('webgl'))) throw new Error('no WebGL context');
      const THREE = await import('three');
      const { OrbitControls } = await import('./vendor/OrbitControls.js');
      const canvas = el('canvas', { class: 'view3d', id: 'ac-figure-canvas' });
      this.container.append(canvas, this.note);
      const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
      renderer.setPixelRatio(window.devicePixelRatio || 1);
      const scene = new THREE.Scene();
      scene.background = new THREE.Color(0xfbfbf9);
      const camera = new THREE.PerspectiveCamera(40, 1, 0.05, 2000);
      camera.up.set(0, 0, 1); // AC: z up, +y forward
      camera.position.set(3.2, -4.2, 2.4);
      const controls = new OrbitControls(camera, canvas);
      controls.target.set(0, 0, 0.9);
      controls.update();
      scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.0));
      const sun = new THREE.DirectionalLight(0xffffff, 1.6);
      sun.position.set(2, -3, 5);
      scene.add(sun);
      const grid = new THREE.GridHelper(40, 40, 0x8a929a, 0xd0d4d8);
      grid.rotation.x = Math.PI / 2; // GridHelper lies in XZ; AC's ground is XY
      scene.add(grid);
      // The trail in one buffer rewritten in place (3,000 points, the page's trail length).
      const trailGeom = new THREE.BufferGeometry();
      trailGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * 3000), 3));
      trailGeom.setDrawRange(0, 0);
      const trail = new THREE.Line(trailGeom, new THREE.LineBasicMaterial({ color: 0x1f6feb }));
      trail.frustumCulled = false;
      scene.add(trail);
      this.three = { THREE, renderer, scene, camera, controls, canvas, grid, trail, trailGeom, target: null, others: [] };
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
      console.warn('WebGL unavailable, drawing the AC figure in 2D:', e);
      this.three = null;
      this.canvas2d = el('canvas', { class: 'view2d', id: 'ac-figure-canvas', height: 360 });
      this.container.append(this.canvas2d, this.note, el('div', { class: 'keys' }, 'WebGL is not available here: a 2D side view (x across, z up) is drawn instead.'));
    }
  }

  // Take a figure description (the endpoint's `figure`), replacing any drawn one.
  load(figure) {
    this.figure = figure && figure.setup ? figure : null;
    window.__acFigure = null;
    if (this.three) {
      for (const m of this.meshes) {
        this.three.scene.remove(m);
        m.geometry.dispose();
        for (const mat of [].concat(m.material)) mat.dispose();
      }
    }
    this.meshes = [];
    if (this.three) {
      for (const g of this.three.others) this.three.scene.remove(g);
      this.three.others = [];
    }
    if (!this.figure) {
      this.note.textContent = figure && figure.reason ? `No creature drawn: ${figure.reason}.` : 'No creature drawn.';
      return;
    }
    const s = this.figure.setup;
    const surfaces = this.figure.surfaces || {};
    const images = Object.values(surfaces).filter((x) => x.rgba).length;
    this.note.textContent = images
      ? `Setup ${s.id}: ${s.parts.length} parts, ${images} textured surface${images === 1 ? '' : 's'} (decoded from the records); the blue line on the ground is the root trail.`
      : `Setup ${s.id}: ${s.parts.length} parts, untextured and flat-shaded; the blue line on the ground is the root trail.`;
    if (!this.three) return;
    const { THREE, scene } = this.three;
    if (this.textures) for (const t of this.textures.values()) t.dispose();
    this.textures = new Map();
    const textureOf = (sid) => {
      const surf = surfaces[sid];
      if (!surf || !surf.rgba) return null;
      if (!this.textures.has(sid)) this.textures.set(sid, surfaceTexture(THREE, surf));
      return this.textures.get(sid);
    };
    s.parts.forEach((id, i) => {
      const m = this.figure.meshes[id];
      const sc = s.default_scale[i] || [1, 1, 1];
      // Triangles grouped by how they are drawn: one material per surface (textured
      // or solid) and one for polygons drawn in the part's flat colour.
      const groups = new Map();
      let double = false;
      for (const p of (m && m.polygons) || []) {
        double = double || p.double_sided;
        const tex = p.uvs ? textureOf(p.surface) : null;
        const solid = !tex && surfaces[p.surface] && surfaces[p.surface].color;
        const key = tex ? `t${p.surface}` : solid ? `c${p.surface}` : 'flat';
        if (!groups.has(key)) groups.set(key, { tex, solid, pos: [], uv: [] });
        const gr = groups.get(key);
        const v = p.vertices.map((k) => m.vertices[k]);
        for (let t = 1; t + 1 < v.length; t++) {
          for (const c of [0, t, t + 1]) {
            gr.pos.push(v[c][0] * sc[0], v[c][1] * sc[1], v[c][2] * sc[2]);
            const uv = tex ? p.uvs[c] : [0, 0];
            gr.uv.push(uv[0], uv[1]);
          }
        }
      }
      const pos = [], uv = [], materials = [];
      const g = new THREE.BufferGeometry();
      const side = double ? THREE.DoubleSide : THREE.FrontSide;
      for (const gr of groups.values()) {
        g.addGroup(pos.length / 3, gr.pos.length / 3, materials.length);
        pos.push(...gr.pos);
        uv.push(...gr.uv);
        if (gr.tex) materials.push(new THREE.MeshLambertMaterial({ map: gr.tex, side }));
        else if (gr.solid) materials.push(new THREE.MeshLambertMaterial({ color: new THREE.Color(gr.solid[0] / 255, gr.solid[1] / 255, gr.solid[2] / 255), flatShading: true, side }));
        else materials.push(new THREE.MeshLambertMaterial({ color: COLORS[i % COLORS.length], flatShading: true, side }));
      }
      g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
      g.setAttribute('uv', new THREE.Float32BufferAttribute(uv, 2));
      g.computeVertexNormals(); // unindexed triangles: one normal per face, i.e. flat
      const mesh = new THREE.Mesh(g, materials);
      mesh.name = `part ${i} ${id}`;
      mesh.userData.textured = materials.some((x) => x.map);
      scene.add(mesh);
      this.meshes.push(mesh);
    });
    window.__acFigurePixel = (part, p) => this.pixel(part, p);
  }

  // The drawn colour [r, g, b, a] where point p (in part `part`'s frame, before the
  // default scale) lands on the canvas, with that point's canvas position; null
  // without WebGL or off the canvas.
  pixel(part, p) {
    if (!this.three || !this.meshes[part]) return null;
    const { THREE, renderer, camera } = this.three;
    this.render();
    const sc = this.figure.setup.default_scale[part] || [1, 1, 1];
    const w = this.meshes[part].localToWorld(new THREE.Vector3(p[0] * sc[0], p[1] * sc[1], p[2] * sc[2]));
    const ndc = w.project(camera);
    const size = renderer.getDrawingBufferSize(new THREE.Vector2());
    const x = Math.round((ndc.x + 1) / 2 * size.x), y = Math.round((ndc.y + 1) / 2 * size.y);
    if (x < 0 || y < 0 || x >= size.x || y >= size.y) return null;
    const gl = renderer.getContext();
    const out = new Uint8Array(4);
    gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return { rgba: Array.from(out), at: [x, size.y - y] };
  }

  // The other objects of a move-to world (`others`: [{id, frame, radius, color}]), each
  // drawn as the Setup in its resting placement at its frame (their trace carries no
  // Sequence), or as a cylinder of its radius when no Setup is drawn.
  poseOthers(others) {
    window.__acFigureOthers = others.map((o) => ({ id: o.id, origin: o.frame.origin.slice(), in3d: !!this.three }));
    if (!this.three) return;
    const { THREE, scene } = this.three;
    const list = this.three.others;
    while (list.length > others.length) {
      const g = list.pop();
      scene.remove(g);
    }
    others.forEach((o, k) => {
      let g = list[k];
      const kind = this.figure ? this.figure.setup.id : 'cylinder';
      if (g && g.userData.kind !== kind) {
        scene.remove(g);
        g = null;
      }
      if (!g) {
        g = new THREE.Group();
        g.userData.kind = kind;
        const mat = new THREE.MeshLambertMaterial({ color: new THREE.Color(o.color || '#2e7d32'), flatShading: true });
        if (this.figure) {
          const place = this.figure.setup.placement || [];
          this.meshes.forEach((m, i) => {
            const part = new THREE.Mesh(m.geometry, mat);
            const f = place[i] || [0, 0, 0, 1, 0, 0, 0];
            const sc = this.figure.setup.default_scale[i] || [1, 1, 1];
            part.position.set(f[0] * sc[0], f[1] * sc[1], f[2] * sc[2]);
            part.quaternion.set(f[4], f[5], f[6], f[3]);
            g.add(part);
          });
        } else {
          const r = o.radius || 0.3;
          const c = new THREE.Mesh(new THREE.CylinderGeometry(r, r, 1.8, 16), mat);
          c.rotation.x = Math.PI / 2; // the cylinder's axis is y; AC's up is z
          c.position.z = 0.9;
          g.add(c);
        }
        g.name = `object ${o.id}`;
        scene.add(g);
        list[k] = g;
      }
      const q = o.frame.orientation;
      g.position.set(...o.frame.origin);
      g.quaternion.set(q[1], q[2], q[3], q[0]);
    });
  }

  // Pose the parts for trace line l; trail is the root trail ([x, y] points); others
  // the other objects of a move-to world.
  pose(l, trail, others = []) {
    if (!l) return;
    this.poseOthers(others);
    if (!this.figure) {
      this.render();
      return;
    }
    const posed = posedParts(this.figure, l);
    window.__acFigure = posed;
    this.container.dataset.step = String(l.step);
    if (this.three) {
      const { THREE, camera, controls, trailGeom } = this.three;
      posed.parts.forEach((p, i) => {
        const m = this.meshes[i];
        if (!m) return;
        m.position.set(...p.origin);
        m.quaternion.set(p.orientation[1], p.orientation[2], p.orientation[3], p.orientation[0]);
      });
      const attr = trailGeom.getAttribute('position');
      const n = Math.min(trail.length, attr.count);
      const from = trail.length - n;
      for (let k = 0; k < n; k++) {
        attr.array[3 * k] = trail[from + k][0];
        attr.array[3 * k + 1] = trail[from + k][1];
        attr.array[3 * k + 2] = 0.005;
      }
      attr.needsUpdate = true;
      trailGeom.setDrawRange(0, n);
      // The floor re-centres under the creature in whole metres, so it never runs off it.
      const grid = this.three.grid;
      const gx = Math.round(l.frame.origin[0]), gy = Math.round(l.frame.origin[1]);
      if (grid.position.x !== gx || grid.position.y !== gy) grid.position.set(gx, gy, 0);
      window.__acFloor = [grid.position.x, grid.position.y];
      // The camera follows the root, keeping whatever view the user orbited to.
      const o = l.frame.origin;
      const target = [o[0], o[1], o[2] + (this.figure.setup.height || 1.8) / 2];
      if (this.three.target) {
        const d = target.map((v, i) => v - this.three.target[i]);
        camera.position.set(camera.position.x + d[0], camera.position.y + d[1], camera.position.z + d[2]);
      }
      this.three.target = target;
      controls.target.set(...target);
      controls.update();
      this.render();
    } else {
      this.draw2d(posed);
    }
  }

  render() {
    if (this.three) this.three.renderer.render(this.three.scene, this.three.camera);
  }

  draw2d(posed) {
    const cv = this.canvas2d;
    const w = (cv.width = cv.clientWidth || 500), h = cv.height;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    const root = window.__acFigure.parts[0] ? window.__acFigure.parts[0].origin : [0, 0, 0];
    const sc = h / 2.6;
    const P = (p) => [w / 2 + (p[0] - root[0]) * sc, h - 20 - p[2] * sc];
    ctx.strokeStyle = '#8a929a';
    ctx.beginPath(); ctx.moveTo(0, h - 20); ctx.lineTo(w, h - 20); ctx.stroke();
    const s = this.figure.setup;
    posed.parts.forEach((p, i) => {
      const m = this.figure.meshes[s.parts[i]];
      if (!m) return;
      const k = s.default_scale[i] || [1, 1, 1];
      ctx.strokeStyle = '#' + COLORS[i % COLORS.length].toString(16).padStart(6, '0');
      for (const poly of m.polygons) {
        ctx.beginPath();
        poly.vertices.forEach((vi, j) => {
          const v = m.vertices[vi];
          const r = rotate(p.orientation, [v[0] * k[0], v[1] * k[1], v[2] * k[2]]);
          const q = P([p.origin[0] + r[0], p.origin[1] + r[1], p.origin[2] + r[2]]);
          if (j) ctx.lineTo(...q); else ctx.moveTo(...q);
        });
        ctx.closePath();
        ctx.stroke();
      }
    });
  }
}
