// AC view, the move-to world: the driven object (1) and two more objects (2, 3) of a
// scenario with `setup.objects`, on a top-down map. Objects are placed by clicking or
// dragged (each a `move_object` step), the selected mover moves to / turns to another
// object, a position or a heading (`move_to_object`, `move_to_position`,
// `turn_to_object`, `turn_to_heading` with their MovementParameters), sticks to one
// (`stick_to` / `unstick`) or is leashed to a point (`constrain_to` / `unconstrain`).
// Every action is a step of the session, so "Export scenario" replays to the same trace.
//
// What is drawn comes from the trace lines' `moveto` key: each object's frame (trail),
// the mover's MoveToManager (movement type, pending node list, target position), its
// sticky target and its constraint. The map's mapping and what it drew are exposed on
// window.__acWorld for the e2e test.

import { el, fmt, perFrame, setText, setValue, syncList, syncRows } from './api.js';

const COLORS = ['#1f6feb', '#2e7d32', '#b35900', '#7e57c2', '#c62828'];
const SNAP = 0.1; // metres: a click places an object on a 10 cm grid

const snap = (v) => Math.round(v / SNAP) * SNAP;
const round6 = (v) => Math.round(v * 1e6) / 1e6;
const idNum = (s) => parseInt(String(s), 16) >>> 0;
const short = (id) => String(idNum(id));

// Forward direction of an orientation [w, x, y, z] in the xy plane (AC: +y forward).
function forwardOf(q) {
  const [w, x, y, z] = q;
  const fx = 2 * (x * y - w * z);
  const fy = 1 - 2 * (x * x + z * z);
  const len = Math.hypot(fx, fy) || 1;
  return [fx / len, fy / len];
}

// The objects of a trace line: the main one first, then `moveto.objects` in order.
function objectsOf(l) {
  if (!l || !l.moveto) return [];
  const m = l.moveto;
  const main = { frame: l.frame, mgr: m.mgr, sticky: m.sticky, constraint: m.constraint, weenie: m.weenie };
  return [main, ...m.objects];
}

export function worldPanel(session, { scenario, before }) {
  const panel = el('div', { class: 'panel', id: 'ac-world' }, el('h2', {}, 'Move-to world (several objects)'));
  const note = el('p', { class: 'keys', id: 'ac-world-note' });
  const start = el('button', { id: 'ac-world-start', title: 'A new session from the move-to world scenario (objects 1, 2 and 3)' }, 'Start the move-to world');
  const single = el('button', { id: 'ac-world-single', title: 'Back to the single-creature starting scenario' }, 'Single creature');
  start.addEventListener('click', async () => { before(); await session.start(scenario); });
  single.addEventListener('click', async () => { before(); await session.start(null); });
  start.disabled = !scenario;

  // ---- what the mover does, and to what
  const moverSel = el('select', { id: 'ac-world-mover', title: 'The object the move / stick / leash steps address (the step\'s "object")' });
  const targetSel = el('select', { id: 'ac-world-target', title: 'The object moved to, turned to or stuck to' });
  const clickSel = el('select', { id: 'ac-world-click', title: 'What a click on the map does (dragging an object always moves it)' });
  const num = (id, value, step, title) => el('input', { type: 'number', id, value, step, title, style: 'width: 5.5em' });
  const box = (id, checked, title) => el('input', { type: 'checkbox', id, checked, title });
  const dist = num('ac-mt-distance', 0.6, 0.1, 'distance_to_object: how near counts as arrived (m)');
  const minDist = num('ac-mt-min', 0, 0.1, 'min_distance: moving away stops beyond it (m)');
  const failDist = el('input', { type: 'number', id: 'ac-mt-fail', placeholder: 'none', step: 1, style: 'width: 5.5em', title: 'fail_distance: the move fails when the target gets farther than this (empty: no limit)' });
  const heading = num('ac-mt-heading', 90, 15, 'desired_heading of turn_to_heading (compass degrees: 0 = +y, 90 = +x)');
  const spheres = box('ac-mt-spheres', true, 'use_spheres: measure between the objects\' cylinders, not their centres');
  const canWalk = box('ac-mt-walk', true, 'can_walk');
  const canRun = box('ac-mt-run', true, 'can_run');
  const away = box('ac-mt-away', false, 'move_away: keep at least min_distance away instead');
  const sticky = box('ac-mt-sticky', false, 'sticky: stick to the target on arrival');
  const leashStart = num('ac-leash-start', 2, 0.5, 'constrain_to start: the leash starts to slow the object at this distance (m)');
  const leashMax = num('ac-leash-max', 4, 0.5, 'constrain_to max: the object is held at this distance (m)');
  const goalText = el('span', { class: 'v', id: 'ac-world-goal' });

  const numberOf = (input, fallback) => {
    const v = Number(input.value);
    return input.value === '' || !Number.isFinite(v) ? fallback : v;
  };
  const params = () => {
    const p = {
      distance_to_object: numberOf(dist, 0.6),
      min_distance: numberOf(minDist, 0),
      use_spheres: spheres.checked,
      can_walk: canWalk.checked,
      can_run: canRun.checked,
      move_away: away.checked,
      sticky: sticky.checked,
    };
    if (failDist.value !== '' && Number.isFinite(Number(failDist.value))) p.fail_distance = Number(failDist.value);
    return p;
  };
  let goal = [0, 0, 0]; // the picked position: move_to_position's goal and the leash's anchor
  const showGoal = () => { goalText.textContent = fmt(goal); goalText.dataset.value = JSON.stringify(goal); };
  showGoal();

  let ids = []; // object ids of the session, main first
  let mainId = null;
  // A step addressed to the mover (the main object's steps carry no `object`).
  const step = (s) => {
    const m = moverSel.value;
    return session.step(m && m !== mainId ? { ...s, object: m } : s);
  };
  const op = (id, label, title, make) => el('button', { id, title, onclick: () => step(make()) }, label);
  const buttons = [
    op('ac-move-to-object', 'Move to object', 'move_to_object: walk / run to the target object (it may move: the mover follows its reports)',
      () => ({ op: 'move_to_object', target: targetSel.value, params: params() })),
    op('ac-move-to-position', 'Move to position', 'move_to_position: to the picked position',
      () => ({ op: 'move_to_position', origin: goal, params: params() })),
    op('ac-turn-to-object', 'Turn to object', 'turn_to_object: face the target object',
      () => ({ op: 'turn_to_object', target: targetSel.value, params: params() })),
    op('ac-turn-to-heading', 'Turn to heading', 'turn_to_heading: to the heading given',
      () => ({ op: 'turn_to_heading', params: { ...params(), desired_heading: numberOf(heading, 0) } })),
    op('ac-cancel-moveto', 'Cancel move', 'cancel_moveto: the move in progress ends with ActionCancelled',
      () => ({ op: 'cancel_moveto' })),
  ];
  const stickButtons = [
    op('ac-stick', 'Stick to target', 'stick_to: keep the sticky distance to the target (one second, then it lets go)',
      () => ({ op: 'stick_to', target: targetSel.value })),
    op('ac-unstick', 'Unstick', 'unstick (also cancels a move in progress)', () => ({ op: 'unstick' })),
    op('ac-constrain', 'Leash to position', 'constrain_to: leash the mover to the picked position',
      () => ({ op: 'constrain_to', origin: goal, start: numberOf(leashStart, 2), max: numberOf(leashMax, 4) })),
    op('ac-unconstrain', 'Unleash', 'unconstrain', () => ({ op: 'unconstrain' })),
    op('ac-report', 'Report position', 'handle_targetting: the mover reports its position to its followers now (at most every 0.5 s)',
      () => ({ op: 'handle_targetting' })),
  ];
  const controls = [moverSel, targetSel, clickSel, dist, minDist, failDist, heading, spheres, canWalk, canRun, away, sticky, leashStart, leashMax, ...buttons, ...stickButtons];

  // ---- the map
  const canvas = el('canvas', { class: 'view2d', id: 'ac-world-map', height: 380, title: 'Click: place the chosen object (or pick the position). Drag an object to move it.' });
  const nodes = el('ol', { class: 'list', id: 'ac-mt-nodes' });
  const mtType = el('span', { class: 'v', id: 'ac-mt-type' });
  const mtLast = el('span', { class: 'v', id: 'ac-mt-last' });
  const table = el('table', { class: 'q', id: 'ac-world-objects' });
  panel.append(
    note,
    el('div', { class: 'row' }, start, single),
    el('div', { class: 'row' }, el('label', {}, 'mover', moverSel), el('label', {}, 'target', targetSel), el('label', {}, 'map click', clickSel),
      el('span', { class: 'keys' }, 'position'), goalText),
    el('div', { class: 'row' }, el('label', {}, 'distance to object', dist), el('label', {}, 'min distance', minDist), el('label', {}, 'fail distance', failDist),
      el('label', {}, spheres, 'use spheres'), el('label', {}, canWalk, 'can walk'), el('label', {}, canRun, 'can run'), el('label', {}, away, 'move away'), el('label', {}, sticky, 'sticky')),
    el('div', { class: 'row' }, ...buttons, el('label', {}, 'heading', heading)),
    el('div', { class: 'row' }, ...stickButtons, el('label', {}, 'leash start', leashStart), el('label', {}, 'max', leashMax)),
    canvas,
    el('div', { class: 'kv' }, el('span', { class: 'k' }, 'mover\'s move'), mtType),
    el('div', { class: 'kv' }, el('span', { class: 'k' }, 'last move complete'), mtLast),
    el('h3', {}, 'Mover\'s node list (MoveToManager pending actions, front first)'), nodes,
    el('h3', {}, 'Objects'), table,
    el('p', { class: 'keys' }, 'Objects 2 and 3 have the sample motion table, so they tick and report their position (at most every 0.5 s of clock time, after moving more than 0.5 m) to an object moving to or sticking to them: a mover steers towards the last report. Lines: each object\'s trail; thin red: the mover to its current target position; dashed: turn nodes\' headings; grey circles: the leash (start, max); a diamond: the picked position.'));

  // ---- state kept from the trace lines
  const trails = new Map(); // id -> [[x, y]]
  const lastDone = new Map(); // id -> last OnMoveComplete status since the world started
  let active = false;
  let view = { cx: 0, cy: 0, sc: 20, w: 1, h: 1 };

  function setup() {
    const s = session.scenario && session.scenario.setup;
    active = !!(s && Array.isArray(s.objects));
    ids = [];
    mainId = null;
    if (active) {
      mainId = s.id || '0x00000000';
      ids = [mainId, ...s.objects.map((o) => o.id)];
      const movers = [mainId, ...s.objects.filter((o) => o.motion_table).map((o) => o.id)];
      const keep = (sel, list, fallback) => {
        const was = sel.value;
        sel.replaceChildren(...list.map((id) => el('option', { value: id }, `object ${short(id)}`)));
        sel.value = list.includes(was) ? was : fallback;
      };
      keep(moverSel, movers, mainId);
      keep(targetSel, ids, ids[1] || mainId);
      const picks = [...ids.map((id) => [id, `place object ${short(id)}`]), ['goal', 'pick the position']];
      const was = clickSel.value;
      clickSel.replaceChildren(...picks.map(([v, t]) => el('option', { value: v }, t)));
      clickSel.value = picks.some(([v]) => v === was) ? was : (ids[1] || 'goal');
    }
    for (const c of controls) c.disabled = !active;
    panel.dataset.active = active ? 'yes' : 'no';
    note.textContent = active
      ? `World of ${ids.length} objects (main object ${short(mainId)}). Every click, drag and button below is a step of the session.`
      : 'This session has one object: start the move-to world to place objects and move them to each other.';
    trails.clear();
    lastDone.clear();
  }

  function ingest(lines) {
    for (const l of lines) {
      objectsOf(l).forEach((o, i) => {
        const id = ids[i];
        if (id === undefined) return;
        if (!trails.has(id)) trails.set(id, []);
        const t = trails.get(id);
        const p = o.frame.origin;
        const last = t[t.length - 1];
        if (!last || last[0] !== p[0] || last[1] !== p[1]) t.push([p[0], p[1]]);
        if (t.length > 4000) t.splice(0, t.length - 4000);
        if (o.weenie && o.weenie.length) lastDone.set(id, o.weenie[o.weenie.length - 1]);
      });
    }
  }

  // Map coordinates: world metres <-> canvas pixels (the canvas's own pixels, which
  // are its CSS pixels: its width is set to its client width).
  const toPixel = (x, y) => [view.w / 2 + (x - view.cx) * view.sc, view.h / 2 - (y - view.cy) * view.sc];
  const toWorld = (px, py) => [view.cx + (px - view.w / 2) / view.sc, view.cy - (py - view.h / 2) / view.sc];

  function draw() {
    const cv = canvas;
    const w = (cv.width = cv.clientWidth || 600), h = cv.height;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    const l = session.last();
    const objs = active ? objectsOf(l) : [];
    // The view: centred on the origin, out to 8 m or everything drawn (whole metres).
    let reach = 8;
    for (const t of trails.values()) for (const p of t) reach = Math.max(reach, Math.abs(p[0]) + 1.5, Math.abs(p[1]) + 1.5);
    reach = Math.max(reach, Math.abs(goal[0]) + 1.5, Math.abs(goal[1]) + 1.5);
    reach = Math.ceil(reach);
    view = { cx: 0, cy: 0, sc: Math.min(w, h) / (2 * reach), w, h };
    const P = (p) => toPixel(p[0], p[1]);
    ctx.strokeStyle = '#eceee8';
    for (let k = -reach; k <= reach; k++) {
      const a = P([k, k]);
      ctx.beginPath(); ctx.moveTo(a[0], 0); ctx.lineTo(a[0], h); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(0, a[1]); ctx.lineTo(w, a[1]); ctx.stroke();
    }
    ctx.strokeStyle = '#c9cec4';
    const o0 = P([0, 0]);
    ctx.beginPath(); ctx.moveTo(o0[0], 0); ctx.lineTo(o0[0], h); ctx.moveTo(0, o0[1]); ctx.lineTo(w, o0[1]); ctx.stroke();
    // the picked position
    const g = P(goal);
    ctx.strokeStyle = '#6b7377';
    ctx.beginPath(); ctx.moveTo(g[0], g[1] - 6); ctx.lineTo(g[0] + 6, g[1]); ctx.lineTo(g[0], g[1] + 6); ctx.lineTo(g[0] - 6, g[1]); ctx.closePath(); ctx.stroke();
    const drawn = { step: l ? l.step : null, objects: [], nodes: [] };
    if (!active || !l || !l.moveto) {
      window.__acWorld = { toPixel, toWorld, drawn };
      return;
    }
    const setupObjs = session.scenario.setup.objects;
    const radiusOf = (i) => (i === 0 ? session.scenario.setup.radius : setupObjs[i - 1].radius) || 0.3;
    // trails
    ids.forEach((id, i) => {
      const t = trails.get(id) || [];
      ctx.strokeStyle = COLORS[i % COLORS.length];
      ctx.lineWidth = 2;
      ctx.beginPath();
      t.forEach((p, k) => (k ? ctx.lineTo(...P(p)) : ctx.moveTo(...P(p))));
      ctx.stroke();
      ctx.lineWidth = 1;
    });
    // the mover's plan: leash, stick, target position, turn nodes
    const mi = Math.max(0, ids.indexOf(moverSel.value));
    const mover = objs[mi];
    const mp = P(mover.frame.origin);
    const c = mover.constraint;
    if (c && c.constrained) {
      const q = P(c.position.origin);
      ctx.strokeStyle = '#9aa2a8';
      for (const r of [c.start, c.max]) { ctx.beginPath(); ctx.arc(q[0], q[1], r * view.sc, 0, 7); ctx.stroke(); }
    }
    const st = mover.sticky;
    if (st && idNum(st.target) !== 0) {
      const ti = ids.findIndex((x) => idNum(x) === idNum(st.target));
      if (ti >= 0) {
        const q = P(objs[ti].frame.origin);
        ctx.setLineDash([2, 3]); ctx.strokeStyle = '#c62828';
        ctx.beginPath(); ctx.moveTo(...mp); ctx.lineTo(...q); ctx.stroke(); ctx.setLineDash([]);
      }
    }
    const m = mover.mgr;
    if (m && m.movement_type !== 'Invalid') {
      const q = P(m.current_target_position.origin);
      ctx.strokeStyle = '#c62828';
      ctx.beginPath(); ctx.moveTo(...mp); ctx.lineTo(...q); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(q[0] - 5, q[1] - 5); ctx.lineTo(q[0] + 5, q[1] + 5); ctx.moveTo(q[0] + 5, q[1] - 5); ctx.lineTo(q[0] - 5, q[1] + 5); ctx.stroke();
      for (const [type, hd] of m.pending) {
        drawn.nodes.push([type, hd]);
        if (type !== 'TurnToHeading') continue;
        const a = (hd * Math.PI) / 180;
        ctx.setLineDash([5, 4]);
        ctx.beginPath(); ctx.moveTo(...mp); ctx.lineTo(mp[0] + Math.sin(a) * 40, mp[1] - Math.cos(a) * 40); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    // the objects: a disc of their radius, a heading tick, their number
    objs.forEach((o, i) => {
      const p = P(o.frame.origin);
      const f = forwardOf(o.frame.orientation);
      const r = Math.max(4, radiusOf(i) * view.sc);
      ctx.fillStyle = COLORS[i % COLORS.length] + '55';
      ctx.strokeStyle = COLORS[i % COLORS.length];
      ctx.lineWidth = i === mi ? 3 : 1.5;
      ctx.beginPath(); ctx.arc(p[0], p[1], r, 0, 7); ctx.fill(); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(...p); ctx.lineTo(p[0] + f[0] * (r + 8), p[1] - f[1] * (r + 8)); ctx.stroke();
      ctx.lineWidth = 1;
      ctx.fillStyle = '#222';
      ctx.fillText(short(ids[i]), p[0] - 3, p[1] + 4);
      drawn.objects.push({ id: ids[i], origin: o.frame.origin, pixel: p, trail: (trails.get(ids[i]) || []).length });
    });
    ctx.fillStyle = '#6b7377';
    ctx.fillText(`${(2 * reach).toFixed(0)} m across, +y up; click places on a ${SNAP * 100} cm grid`, 6, h - 6);
    window.__acWorld = { toPixel, toWorld, drawn };
  }

  function render() {
    const l = session.last();
    const objs = active ? objectsOf(l) : [];
    const mi = Math.max(0, ids.indexOf(moverSel.value));
    const mover = objs[mi];
    const m = mover && mover.mgr;
    const far = (d) => (d > 1e30 ? 'not measured yet' : `${fmt(d)} m`);
    setText(mtType, m ? (m.movement_type === 'Invalid' ? 'not moving (Invalid)'
      : `${m.movement_type} to ${m.movement_type === 'MoveToObject' || m.movement_type === 'TurnToObject' ? 'object ' + short(m.sought_object) : fmt(m.sought_position.origin)}, command ${m.current_command}, last distance ${far(m.previous_distance)}`) : '—');
    setValue(mtType, m ? m.movement_type : '');
    const done = mover ? lastDone.get(ids[mi]) : undefined;
    setText(mtLast, done || 'none yet');
    setValue(mtLast, done || '');
    const pend = (m && m.pending) || [];
    const items = pend.length ? pend.map(([t, hd]) => (t === 'TurnToHeading' ? `${t} ${fmt(hd)}°` : t)) : [null];
    syncList(nodes, items, () => el('li', {}), (li, text) => {
      setText(li, text === null ? 'empty' : text);
      const cls = text === null ? 'muted' : '';
      if (li.className !== cls) li.className = cls;
      const style = text === null ? 'list-style: none' : '';
      if ((li.getAttribute('style') || '') !== style) li.setAttribute('style', style);
    });
    setValue(nodes, pend.length);
    syncRows(table, [['object', 'origin', 'move', 'nodes', 'stuck to', 'leash', 'last move complete'],
      ...objs.map((o, i) => {
        const om = o.mgr;
        return [{ text: `${short(ids[i])}${i === 0 ? ' (main)' : ''}`, style: `color: ${COLORS[i % COLORS.length]}` },
          fmt(o.frame.origin),
          om ? om.movement_type : 'no motion table',
          om ? String(om.pending.length) : '—',
          o.sticky && idNum(o.sticky.target) ? short(o.sticky.target) : '—',
          o.constraint && o.constraint.constrained ? `${fmt(o.constraint.position.origin)} (${fmt(o.constraint.start)}..${fmt(o.constraint.max)})` : '—',
          lastDone.get(ids[i]) || '—'];
      })], null, true);
    // Each object's row says which object it is and where.
    objs.forEach((o, i) => {
      const tr = table.rows[i + 1];
      if (!tr) return;
      if (tr.dataset.id !== ids[i]) tr.dataset.id = ids[i];
      const origin = JSON.stringify(o.frame.origin);
      if (tr.dataset.origin !== origin) tr.dataset.origin = origin;
    });
    draw();
  }

  // ---- clicks and drags on the map
  let drag = null; // { id, from: [px, py], moved }
  const eventPixel = (ev) => {
    const r = canvas.getBoundingClientRect();
    return [(ev.clientX - r.left) * (canvas.width / r.width), (ev.clientY - r.top) * (canvas.height / r.height)];
  };
  const frameOf = (id) => {
    const i = ids.indexOf(id);
    const o = objectsOf(session.last())[i];
    return o ? o.frame : null;
  };
  const place = (id, x, y) => {
    const f = frameOf(id);
    if (!f) return null;
    const s = { op: 'move_object', origin: [round6(snap(x)), round6(snap(y)), f.origin[2]], orientation: f.orientation };
    return session.step(id === mainId ? s : { ...s, object: id });
  };
  canvas.addEventListener('mousedown', (ev) => {
    if (!active) return;
    const p = eventPixel(ev);
    // the nearest object under the pointer (within its disc, at least 8 px)
    let best = null;
    objectsOf(session.last()).forEach((o, i) => {
      const q = toPixel(o.frame.origin[0], o.frame.origin[1]);
      const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
      const setup = session.scenario.setup;
      const r = (i === 0 ? setup.radius : setup.objects[i - 1].radius) || 0.3;
      if (d <= Math.max(8, r * view.sc) && (!best || d < best.d)) best = { id: ids[i], d };
    });
    drag = { id: best ? best.id : null, from: p, moved: false };
    ev.preventDefault();
  });
  canvas.addEventListener('mousemove', (ev) => {
    if (!drag) return;
    const p = eventPixel(ev);
    if (Math.hypot(p[0] - drag.from[0], p[1] - drag.from[1]) > 3) drag.moved = true;
    if (drag.moved && drag.id) {
      // a ghost of the dragged object where it would land
      draw();
      const ctx = canvas.getContext('2d');
      ctx.setLineDash([3, 3]); ctx.strokeStyle = '#222';
      ctx.beginPath(); ctx.arc(p[0], p[1], 8, 0, 7); ctx.stroke(); ctx.setLineDash([]);
    }
  });
  window.addEventListener('mouseup', (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    const [x, y] = toWorld(...eventPixel(ev));
    if (d.moved && d.id) {
      place(d.id, x, y);
    } else if (!d.moved) {
      if (clickSel.value === 'goal') {
        goal = [round6(snap(x)), round6(snap(y)), 0];
        showGoal();
        draw();
      } else {
        place(clickSel.value, x, y);
      }
    }
  });
  moverSel.addEventListener('change', render);

  session.subscribe((lines, reset) => {
    if (reset) {
      setup();
      ingest(session.lines);
    } else {
      ingest(lines);
    }
    renderSoon();
  });
  const renderSoon = perFrame(render);
  setup();
  // The other objects of the world (not the main one) for the 3D picture: frame and radius.
  const others = (l) => {
    if (!active || !l || !l.moveto) return [];
    const setupObjs = session.scenario.setup.objects;
    return l.moveto.objects.map((o, i) => ({ id: ids[i + 1], frame: o.frame, radius: (setupObjs[i] && setupObjs[i].radius) || 0.3, color: COLORS[(i + 1) % COLORS.length] }));
  };
  return { panel, render, others };
}
