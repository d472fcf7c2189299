// Actor view: the sample FLAG2 actor drawn from its selected vertex frame, its
// animation state (current / pending / default group, cursor, countdowns, loop,
// breakpoint), request and forced-request controls, the frame scale, and a
// top-down map of the cell window showing who is updated and why the others are not.

import { api, el, field, fmt, perFrame, setClass, setText, setValue, syncList, syncRows } from './api.js';
import { EngineSession, toolbar } from './session.js';

const WHY = {
  persistent: { color: '#1f6feb', updated: true, text: 'persistent (activation ≠ 0): always updated' },
  inner: { color: '#1a7f37', updated: true, text: 'inner cell of the 18×18 window: updated' },
  border: { color: '#6cbf7c', updated: true, text: 'window border, attr113 = 0: updated' },
  border_attr113: { color: '#b35900', updated: false, text: 'window border with attr113 ≠ 0: excluded' },
  corner: { color: '#c62828', updated: false, text: 'window corner: excluded' },
  outside: { color: '#9aa0a6', updated: false, text: 'outside the window: excluded' },
};
const CELL = 512;

export async function mount(root, info) {
  const session = new EngineSession('actor');
  const tb = toolbar(session, { clockStep: () => ({ op: 'update' }), clockLabel: 'update' });
  let set = null;
  let selId = null;
  let lastMembers = null;

  const actorSel = el('select', { id: 'actor-select' });
  actorSel.addEventListener('change', () => { selId = actorSel.value; render(); });
  const groupSel = el('select', { id: 'actor-group' });
  const modifier = el('input', { type: 'number', id: 'actor-modifier', value: 0, min: 0, max: 255 });
  const scale = el('input', { type: 'range', id: 'actor-frame-scale', min: 0, max: 1024, value: 256, style: 'width: 14em' });
  const scaleV = el('span', { class: 'keys' }, '256 (1 tick per update)');
  scale.addEventListener('input', () => (scaleV.textContent = `${scale.value} (${(scale.value / 256).toFixed(2)} ticks per update)`));
  scale.addEventListener('change', () => session.step({ op: 'set_frame_scale', q8: Number(scale.value) }));
  const req = (op) => session.step({ op, actor: selId, group: Number(groupSel.value), modifier: Number(modifier.value) || 0 });
  const flagBox = (name) => {
    const c = el('input', { type: 'checkbox', id: `actor-flag-${name}` });
    c.addEventListener('change', () => session.step({ op: 'set_flags', actor: selId, [name]: c.checked }));
    return el('label', {}, c, name);
  };
  const switchBox = (name) => {
    const c = el('input', { type: 'checkbox', id: `actor-switch-${name}`, checked: true });
    c.addEventListener('change', () => session.step({ op: 'set_switch', switch: name, value: c.checked }));
    return el('label', {}, c, `${name} switch`);
  };

  const controls = el('div', { class: 'panel', id: 'actor-controls' }, el('h2', {}, 'Requests'),
    el('div', { class: 'row' }, el('label', {}, 'actor', actorSel)),
    el('div', { class: 'row' }, el('label', {}, 'group', groupSel), el('label', {}, 'modifier', modifier)),
    el('div', { class: 'row' },
      el('button', { id: 'actor-request', onclick: () => req('request') }, 'Request'),
      el('button', { id: 'actor-force', class: 'primary', onclick: () => req('force_request') }, 'Forced request'),
      el('button', { id: 'actor-set-default', onclick: () => session.step({ op: 'set_default', actor: selId, group: Number(groupSel.value) }) }, 'Set default'),
      el('button', { id: 'actor-exit', onclick: () => session.step({ op: 'set_exit_flag', actor: selId }) }, 'Set exit flag')),
    el('div', { class: 'row' }, flagBox('excluded'), flagBox('anim_update_excluded'), flagBox('script_suppressed')),
    el('h3', {}, 'Timing'),
    el('div', { class: 'row' }, el('label', {}, 'frame scale (Q8)', scale), scaleV),
    el('div', { class: 'row' },
      el('button', { id: 'actor-reset-timing', onclick: () => session.step({ op: 'reset_timing' }) }, 'Reset timing'),
      switchBox('animation'), switchBox('scripts')),
    el('p', { class: 'keys' }, 'Keys: P play/pause, Space one update. Play runs one world update per 1/25 s. Click the map to move the view centre (set_view).'));

  const statePanel = el('div', { class: 'panel', id: 'actor-state' }, el('h2', {}, 'Animation state'));
  const F = {};
  const add = (label, key, box = statePanel) => (F[key] = field(box, label, `actor-${key}`));
  add('current group', 'current');
  add('pending group (countdown)', 'pending');
  add('default group', 'default');
  add('cursor', 'cursor');
  add('countdown / reload', 'countdown');
  add('skip', 'skip');
  add('loop count', 'loop');
  add('breakpoint marker', 'breakpoint');
  add('exit flag', 'exit');
  add('frame [model, index]', 'frame');
  add('position / cell', 'pos');
  add('translation', 'translation');
  add('script', 'script');
  add('last result', 'result');
  add('world ticks / acc / warm-up / scale', 'timing');
  const cmds = el('div', { class: 'list cmds', id: 'actor-commands' });
  statePanel.append(el('h3', {}, 'commands of the current group (cursor highlighted)'), cmds);

  const drawCv = el('canvas', { class: 'view2d', id: 'actor-drawing', height: 260 });
  const mapCv = el('canvas', { class: 'view2d', id: 'actor-map', height: 360 });
  const legend = el('div', { class: 'legend' }, ...Object.entries(WHY).map(([k, w]) => el('span', {}, el('i', { style: `background:${w.color}` }), `${k}: ${w.text}`)));
  const membersTable = el('table', { class: 'q', id: 'actor-members' });
  mapCv.addEventListener('click', (ev) => {
    const l = session.last();
    if (!l || !set || !set.map) return;
    const r = mapCv.getBoundingClientRect();
    const k = mapCv.dataset.cell ? Number(mapCv.dataset.cell) : 8;
    const x = Math.floor(((ev.clientX - r.left) * (mapCv.width / r.width)) / k);
    const y = Math.floor(((ev.clientY - r.top) * (mapCv.height / r.height)) / k);
    session.step({ op: 'set_view', x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 });
  });

  root.append(el('p', { class: 'intro', id: 'actor-intro' }, 'Press Play to run the sample actors; pick an actor and a group, then "Request" or "Forced request" to change what it plays. '
    + 'Click the map to move the view: only actors near it are updated.'),
  el('details', { class: 'about' }, el('summary', {}, 'What this view shows'),
    el('p', { class: 'keys' }, "The RAAN/RAGR actor command interpreter (actor.md): each actor plays command groups (show frame, loops, breakpoints) with a byte countdown per frame; requests are arbitrated against a single pending slot and a default group; only actors in the 18×18 cell window around the view (or persistent ones) are updated. Every value shown is the engine's trace line.")),
  tb.bar, tb.status,
    el('div', { class: 'grid' },
      el('div', {},
        el('div', { class: 'panel' }, el('h2', {}, 'Selected frame'), drawCv),
        el('div', { class: 'panel', id: 'actor-map-panel' }, el('h2', {}, 'Cell window (update list)'), mapCv, legend, el('h3', {}, 'last update list'), membersTable)),
      el('div', {}, controls, statePanel, tb.extra)));

  const modelOf = (actor) => set && set.models ? set.models.find((m) => m.name === actor.model) : null;
  const assetActor = (id) => set && set.actors ? set.actors.find((a) => a.id === id) : null;

  function fillSelectors(l) {
    const ids = l.actors.map((a) => a.id);
    if ([...actorSel.options].map((o) => o.value).join() !== ids.join()) {
      actorSel.replaceChildren(...l.actors.map((a) => el('option', { value: a.id }, `${a.id}${a.anim ? '' : ' (no animation state)'}`)));
      if (!selId || !ids.includes(selId)) selId = (l.actors.find((a) => a.anim) || l.actors[0] || {}).id;
      actorSel.value = selId;
    }
    const m = modelOf(assetActor(selId) || {});
    const groups = m && m.groups ? m.groups.map((g) => g.group) : [];
    if ([...groupSel.options].map((o) => o.value).join() !== groups.join()) {
      const keep = groupSel.value;
      groupSel.replaceChildren(...m.groups.map((g) => el('option', { value: g.group }, `group ${g.group}${g.name ? ' ' + g.name : ''}`)));
      if (groups.map(String).includes(keep)) groupSel.value = keep;
      else if (groups.length > 1) groupSel.value = String(groups[1]);
    }
  }

  // Two views of the selected frame: an oblique one (depth z drawn up-right) and a
  // top view (x across, z down the page), both at one scale for all of the model's frames.
  function drawFrame(a) {
    const cv = drawCv;
    const w = (cv.width = cv.clientWidth || 500), h = cv.height;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    const fr = a && a.anim ? a.anim.frame : null;
    ctx.fillStyle = '#6b7377';
    if (!fr) {
      ctx.fillText('no frame selected yet', 10, 20);
      return;
    }
    const m = modelOf(assetActor(a.id) || {});
    // Informative vertex data of the sample set: raan[i].vertices[frame] = [[x, y, z], ...],
    // and the model's faces (vertex index polygons) to outline.
    const entry = m && m.raan ? m.raan.find((r) => r.model === fr[0]) : null;
    const frames = entry && entry.vertices ? entry.vertices : null;
    const pts = frames ? frames[fr[1]] : null;
    ctx.fillText(`model ${fr[0]}, frame ${fr[1]}${a.anim.breakpoint ? '  · breakpoint' : ''}`, 10, 16);
    if (!pts || !pts.length) {
      ctx.strokeStyle = '#5b7fa6';
      ctx.strokeRect(w / 2 - 40, h / 2 - 40, 80, 80);
      ctx.fillText('(no vertex data for this frame in the asset)', 10, h - 10);
      return;
    }
    const edges = [];
    for (const f of (m.faces || [])) f.forEach((v, i) => edges.push([v, f[(i + 1) % f.length]]));
    if (!edges.length) pts.forEach((_, i) => edges.push([i, (i + 1) % pts.length]));
    const z = (p) => p[2] || 0;
    let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const f of frames) for (const p of f) for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i] || 0); hi[i] = Math.max(hi[i], p[i] || 0); }
    lo[1] = Math.min(lo[1], 0); // the pole stands on y = 0
    const half = w / 2;
    const span = Math.max(hi[0] - lo[0], hi[1] - lo[1], 1) * 1.35;
    const sc = Math.min(half, h - 30) / span;
    const D = 0.6; // oblique depth factor
    const O = (p) => [20 + (p[0] - lo[0] + z(p) * D) * sc, h - 14 - (p[1] - lo[1] + z(p) * D) * sc];
    const T = (p) => [half + 20 + (p[0] - lo[0]) * sc, 40 + (z(p) - lo[2]) * sc * 2];
    const stroke = (P, color) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      for (const [i, j] of edges) {
        if (!pts[i] || !pts[j]) continue;
        ctx.moveTo(...P(pts[i]));
        ctx.lineTo(...P(pts[j]));
      }
      ctx.stroke();
    };
    // pole
    ctx.strokeStyle = '#8a6d3b';
    ctx.lineWidth = 4;
    ctx.beginPath(); ctx.moveTo(...O([lo[0], lo[1], 0])); ctx.lineTo(...O([lo[0], hi[1] + 5, 0])); ctx.stroke();
    ctx.fillStyle = 'rgba(198,40,40,0.18)';
    for (const f of (m.faces || [])) {
      ctx.beginPath();
      f.forEach((v, i) => (i ? ctx.lineTo(...O(pts[v])) : ctx.moveTo(...O(pts[v]))));
      ctx.closePath();
      ctx.fill();
    }
    stroke(O, '#c62828');
    stroke(T, '#23272e');
    ctx.lineWidth = 1;
    ctx.fillStyle = '#6b7377';
    ctx.fillText('oblique view', 20, 32);
    ctx.fillText('top view (depth ×2)', half + 20, 32);
  }

  function drawMap(l) {
    const cv = mapCv;
    const W = set && set.map ? set.map.width : 64, H = set && set.map ? set.map.height : 64;
    const w = (cv.width = cv.clientWidth || 500);
    const k = Math.max(2, Math.floor(Math.min(w / W, 520 / H)));
    cv.height = H * k;
    cv.dataset.cell = k;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, cv.width, cv.height);
    ctx.fillStyle = '#f3f3ef';
    ctx.fillRect(0, 0, W * k, H * k);
    const [x0, y0] = l.window;
    ctx.fillStyle = 'rgba(31,111,235,0.07)';
    ctx.fillRect(x0 * k, y0 * k, 18 * k, 18 * k);
    ctx.fillStyle = 'rgba(179,89,0,0.10)'; // border ring
    ctx.fillRect(x0 * k, y0 * k, 18 * k, k); ctx.fillRect(x0 * k, (y0 + 17) * k, 18 * k, k);
    ctx.fillRect(x0 * k, y0 * k, k, 18 * k); ctx.fillRect((x0 + 17) * k, y0 * k, k, 18 * k);
    ctx.strokeStyle = '#1f6feb';
    ctx.strokeRect(x0 * k + 0.5, y0 * k + 0.5, 18 * k, 18 * k);
    const vc = [Math.floor(l.view[0] / CELL), Math.floor(l.view[1] / CELL)];
    ctx.strokeStyle = '#23272e';
    ctx.beginPath();
    ctx.moveTo(vc[0] * k, vc[1] * k + k / 2); ctx.lineTo(vc[0] * k + k, vc[1] * k + k / 2);
    ctx.moveTo(vc[0] * k + k / 2, vc[1] * k); ctx.lineTo(vc[0] * k + k / 2, vc[1] * k + k);
    ctx.stroke();
    const why = {};
    for (const m of lastMembers || []) why[m.actor] = m;
    for (const a of l.actors) {
      const m = why[a.id];
      const color = m ? WHY[m.why].color : '#444';
      const cx = (a.pos[0] / CELL) * k, cy = (a.pos[1] / CELL) * k;
      ctx.fillStyle = color;
      ctx.beginPath(); ctx.arc(cx, cy, Math.max(3, k / 2), 0, 7); ctx.fill();
      if (a.id === selId) { ctx.strokeStyle = '#000'; ctx.beginPath(); ctx.arc(cx, cy, Math.max(5, k / 2 + 3), 0, 7); ctx.stroke(); }
      ctx.fillStyle = '#23272e';
      ctx.fillText(a.id, cx + 6, cy - 4);
    }
    ctx.fillStyle = '#6b7377';
    ctx.fillText(`window origin (${x0}, ${y0}), view centre cell (${vc[0]}, ${vc[1]})`, 4, H * k - 4);
  }

  function render() {
    const l = session.last();
    if (!l || !l.actors) return;
    if (l.members) lastMembers = l.members;
    fillSelectors(l);
    const a = l.actors.find((x) => x.id === selId) || l.actors[0];
    const an = a ? a.anim : null;
    const setV = (key, text, value) => {
      setText(F[key], text);
      setValue(F[key], value);
    };
    if (an) {
      setV('current', an.current === null ? 'none' : `group ${an.current}`, an.current);
      setV('pending', an.pending === null ? 'none' : `group ${an.pending} (countdown ${an.pending_countdown})`, an.pending);
      setV('default', `group ${an.default}`, an.default);
      setV('cursor', String(an.cursor), an.cursor);
      setV('countdown', `${an.countdown} / ${an.reload}`, an.countdown);
      setV('skip', String(an.skip), an.skip);
      setV('loop', String(an.loop), an.loop);
      setV('breakpoint', an.breakpoint ? 'SET (translation suppressed)' : 'clear', an.breakpoint);
      setV('exit', an.exit ? 'set' : 'clear', an.exit);
      setV('frame', an.frame ? `[${an.frame.join(', ')}]` : 'none', an.frame ? an.frame.join(',') : '');
    } else {
      for (const k of ['current', 'pending', 'default', 'cursor', 'countdown', 'skip', 'loop', 'breakpoint', 'exit', 'frame']) setV(k, '— (no animation state)');
    }
    setV('pos', a ? `[${a.pos.join(', ')}] cell [${a.cell.join(', ')}]` : '—');
    setV('translation', a && a.translation ? a.translation : '—');
    setV('script', a && a.script ? `pc ${a.script.pc}${a.script.task ? `, task group ${a.script.task.group} ×${a.script.task.count} (${a.script.task.phase})` : ', no task'}` : '—');
    setV('result', `${l.op}${l.result !== null && l.result !== undefined ? ' → ' + l.result : ''}`, l.result);
    setV('timing', `${l.ticks} / ${l.acc} / ${l.warmup} / ${l.scale}`, l.ticks);
    // commands
    const m = modelOf(assetActor(a ? a.id : '') || {});
    const g = m && an && an.current !== null ? (m.groups || []).find((x) => x.group === an.current) : null;
    const items = g ? g.commands.map((c, i) => [i === an.cursor ? 'cursor' : '', `${i}: ${c.op}${c.ref !== undefined ? ' ' + c.ref : ''}${c.target !== undefined ? ' → ' + c.target : ''}`])
      : [['muted', 'no current group']];
    syncList(cmds, items, () => el('div', {}), (d, [cls, text]) => {
      setClass(d, cls);
      setText(d, text);
    });
    // members
    syncRows(membersTable, [['actor', 'why', 'updated'],
      ...(lastMembers || []).map((mm) => [mm.actor, { text: mm.why, style: `color:${WHY[mm.why] ? WHY[mm.why].color : '#000'}` }, mm.updated ? 'yes' : 'no'])], null, true);
    drawFrame(a);
    drawMap(l);
  }

  let assetsLoaded = Promise.resolve();
  session.subscribe((lines, reset) => {
    if (reset) {
      lastMembers = null;
      assetsLoaded = api('GET', `/sessions/${session.id}/assets`).then((r) => {
        set = r.assets || null;
        render();
      }).catch((e) => session.status(`asset description: ${e.message}`, true));
    }
    renderSoon();
  });
  const renderSoon = perFrame(render);
  await session.start(null);
  await assetsLoaded; // the view is ready once it can name what it shows
  return { session };
}
