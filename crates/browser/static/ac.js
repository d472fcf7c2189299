// AC view: the motion table, movement inputs (buttons and keys), the Sequence's
// animation list as a timeline, both pending queues, position / velocity / root
// trail, and a network-correction demo (interpolate_to, move_or_teleport).

import { api, el, field, fmt, perFrame, setClass, setText, setValue, syncList, syncRows } from './api.js';
import { EngineSession, toolbar } from './session.js';
import { AcFigure } from './ac_figure.js';
import { datPanel } from './ac_dat.js';
import { worldPanel } from './ac_world.js';

// ACE's motion command names; other ids print as hex.
const NAMES = {
  0x00000000: 'none', 0x85000001: 'HoldRun', 0x85000002: 'HoldSidestep', 0x41000003: 'Ready', 0x40000004: 'Stop',
  0x45000005: 'WalkForward', 0x45000006: 'WalkBackwards', 0x44000007: 'RunForward', 0x40000008: 'Fallen',
  0x40000009: 'Interpolating', 0x4000000a: 'Hover', 0x4000000b: 'On', 0x4000000c: 'Off',
  0x6500000d: 'TurnRight', 0x6500000e: 'TurnLeft', 0x6500000f: 'SideStepRight', 0x65000010: 'SideStepLeft',
  0x40000011: 'Dead', 0x41000012: 'Crouch', 0x41000013: 'Sitting', 0x41000014: 'Sleeping', 0x40000015: 'Falling',
  0x2000003a: 'StopTurning', 0x2500003b: 'Jump', 0x8000003c: 'HandCombat', 0x8000003d: 'NonCombat',
  0x8000003e: 'SwordCombat', 0x8000003f: 'BowCombat', 0x80000040: 'SwordShieldCombat', 0x80000041: 'CrossbowCombat',
  0x80000049: 'Magic',
};
const READY = 0x41000003, WALK = 0x45000005, BACK = 0x45000006;
const TURN_R = 0x6500000d, TURN_L = 0x6500000e, SIDE_R = 0x6500000f, SIDE_L = 0x65000010;
const NONCOMBAT = 0x8000003d, HANDCOMBAT = 0x8000003c;

const idOf = (s) => (s === null || s === undefined ? 0 : typeof s === 'number' ? s >>> 0 : parseInt(String(s), 16) >>> 0);
const hex = (n) => '0x' + (n >>> 0).toString(16).padStart(8, '0');
// What a visitor calls each command, and what a negative speed makes of it.
const PLAIN = {
  0x41000003: ['Standing'], 0x40000004: ['Stop'], 0x45000005: ['Walk forward', 'Walk backwards'],
  0x45000006: ['Walk backwards', 'Walk forward'], 0x44000007: ['Run forward', 'Run backwards'],
  0x6500000d: ['Turn right', 'Turn left'], 0x6500000e: ['Turn left', 'Turn right'],
  0x6500000f: ['Sidestep right', 'Sidestep left'], 0x65000010: ['Sidestep left', 'Sidestep right'],
  0x40000015: ['Falling'], 0x2500003b: ['Jump'], 0x8000003c: ['Hand combat stance'], 0x8000003d: ['Peaceful stance'],
  0x40000011: ['Dead'], 0x41000012: ['Crouching'], 0x41000013: ['Sitting'], 0x41000014: ['Sleeping'], 0x40000008: ['Fallen'],
};

// A command in plain words first, its engine name and id after: "Turn left (TurnRight
// 0x6500000d ×-1)". `speed` (optional) is the command's speed: negative reverses it.
export function plainMotion(id, speed) {
  const n = idOf(id);
  if (n === 0) return 'nothing';
  const p = PLAIN[n];
  const back = typeof speed === 'number' && speed < 0;
  const word = p ? (back && p[1] ? p[1] : p[0]) : (NAMES[n] || null);
  const tail = `${NAMES[n] || ''} ${hex(n)}${typeof speed === 'number' && speed !== 1 ? ` ×${fmt(speed)}` : ''}`.trim();
  return word ? `${word} (${tail})` : motionName(n);
}

export function motionName(id) {
  const n = idOf(id);
  const name = NAMES[n];
  if (name) return `${name} (${hex(n)})`;
  const cls = n >>> 24;
  const kind = cls & 0x80 ? 'style' : cls & 0x40 ? 'substate' : cls & 0x20 ? 'modifier' : cls & 0x10 ? 'action' : 'motion';
  return `${kind} ${hex(n)}`;
}
const isAction = (n) => (n & 0x10000000) !== 0 && (n & 0xe0000000) === 0;
const isStyle = (n) => (n & 0x80000000) !== 0;

// Forward direction of an orientation [w, x, y, z] (AC: +y is forward), in the xy plane.
function forwardOf(q) {
  const [w, x, y, z] = q;
  // rotate (0, 1, 0) by q
  const fx = 2 * (x * y - w * z);
  const fy = 1 - 2 * (x * x + z * z);
  const len = Math.hypot(fx, fy) || 1;
  return [fx / len, fy / len];
}

export async function mount(root, info) {
  const session = new EngineSession('ac');
  let dt = 0.04;
  const tb = toolbar(session, { clockStep: () => ({ op: 'tick', dt }), clockLabel: 'tick', keys: false }); // keys below
  let table = null;
  const trail = [];
  const motion = (op, id, extra = {}) => session.step({ op, motion: hex(id), ...extra });

  // ---- motion table panel
  const tablePanel = el('details', { class: 'panel', id: 'ac-table' }, el('summary', {}, 'Details: the motion table'));
  const tableBody = el('div', { class: 'list', id: 'ac-table-list', style: 'max-height: 320px' });
  tablePanel.append(tableBody);

  // ---- inputs
  const dtIn = el('input', { type: 'number', id: 'ac-dt', value: dt, step: 0.01, min: 0.001, max: 1 });
  dtIn.addEventListener('change', () => (dt = Math.max(0.001, Number(dtIn.value) || 0.04)));
  let styleIdx = 0;
  const styles = () => (table && table.styles && table.styles.length ? table.styles.map((s) => idOf(s.style)) : [NONCOMBAT, HANDCOMBAT]);
  const actionId = () => {
    if (table) {
      for (const l of table.links || []) if (isAction(idOf(l.to))) return idOf(l.to);
      for (const c of table.cycles || []) if (isAction(idOf(c.motion))) return idOf(c.motion);
    }
    return 0x13000087; // an emote (Wave-like) when the table lists none
  };
  const contactOn = () => {
    const l = session.last();
    return !l || l.phys.contact;
  };
  const inputs = el('div', { class: 'panel', id: 'ac-inputs' }, el('h2', {}, 'Movement'),
    el('div', { class: 'row' },
      el('button', { id: 'ac-walk', onclick: () => motion('do_motion', WALK, { hold_key: 'none' }) }, 'Walk (W)'),
      el('button', { id: 'ac-run', onclick: () => motion('do_motion', WALK, { hold_key: 'run' }), title: 'WalkForward with the run hold key: promoted to RunForward for this call' }, 'Run (Shift+W)'),
      el('button', { id: 'ac-back', onclick: () => motion('do_motion', BACK) }, 'Backwards (S)'),
      el('button', { id: 'ac-turn-left', onclick: () => motion('do_motion', TURN_L) }, 'Turn left (A)'),
      el('button', { id: 'ac-turn-right', onclick: () => motion('do_motion', TURN_R) }, 'Turn right (D)'),
      el('button', { id: 'ac-side-left', onclick: () => motion('do_motion', SIDE_L) }, 'Sidestep left (Q)'),
      el('button', { id: 'ac-side-right', onclick: () => motion('do_motion', SIDE_R) }, 'Sidestep right (E)')),
    el('div', { class: 'row' },
      el('button', { id: 'ac-stop', onclick: () => stopAll(), title: 'stop_motion of each active forward / sidestep / turn command' }, 'Stop (X)'),
      el('button', { id: 'ac-stop-completely', onclick: () => session.step({ op: 'stop_completely' }) }, 'Stop completely (Z)'),
      el('button', { id: 'ac-action', onclick: () => motion('do_motion', actionId()) }, 'Action (1)'),
      el('button', { id: 'ac-style', onclick: () => { const s = styles(); styleIdx = (styleIdx + 1) % s.length; motion('do_motion', s[styleIdx]); } }, 'Next style (T)'),
      el('button', { id: 'ac-contact', onclick: () => session.step({ op: 'set_state', contact: !contactOn() }) }, 'Contact on/off (C)'),
      el('label', {}, 'tick dt (s)', dtIn)),
    el('p', { class: 'keys' }, 'Keys: W walk (hold Shift to run), S back, A/D turn, Q/E sidestep (held keys move, releasing stops), J jump (hold to charge), X stop, Z stop completely, 1 action, T stance, C contact, U send UpdateMotion, P play/pause, Space one tick.'));

  async function stopAll() {
    const l = session.last();
    if (!l) return;
    const i = l.interp.interpreted;
    const steps = [];
    for (const c of [i.forward_command, i.sidestep_command, i.turn_command]) {
      const n = idOf(c);
      if (n && n !== READY) steps.push({ op: 'stop_motion', motion: hex(n) });
    }
    if (steps.length) await session.apply(steps);
    else session.status('nothing to stop: no forward, sidestep or turn command is active');
  }

  // ---- state panel: what the creature does, in plain words; the engine's words folded below
  const state = el('div', { class: 'panel', id: 'ac-state' }, el('h2', {}, 'What the creature does'));
  const doing = el('div', { class: 'plain', id: 'ac-doing' });
  state.append(doing);
  const F = {};
  const add = (label, key, box = state) => (F[key] = field(box, label, `ac-${key}`));
  add('stance', 'style');
  add('motion', 'substate');
  add('on the ground', 'contact');
  const internals = el('details', { id: 'ac-internals' }, el('summary', {}, 'Details: MotionInterp and MotionTableManager state'));
  state.append(internals);
  add('substate speed', 'substate-mod', internals);
  add('interpreted fwd / side / turn', 'interpreted', internals);
  add('raw forward command (hold key)', 'raw', internals);
  add('modifiers', 'modifiers', internals);
  add('actions', 'actions', internals);
  add('hooks this step', 'hooks', internals);
  add('motions done', 'motions-done', internals);
  add('result', 'result', internals);

  const queues = el('details', { class: 'panel', id: 'ac-queues' }, el('summary', {}, 'Details: pending queues'));
  const tq = el('table', { class: 'q', id: 'ac-table-pending' });
  const iq = el('table', { class: 'q', id: 'ac-interp-pending' });
  const qcounter = el('span', { class: 'keys', id: 'ac-counter' });
  queues.append(el('h3', {}, 'MotionTableManager pending animations (motion, NumAnims) ', qcounter), tq,
    el('h3', {}, 'MotionInterp pending motions (motion, context, jump error)'), iq);

  const timelinePanel = el('details', { class: 'panel', id: 'ac-sequence' }, el('summary', {}, 'Details: the Sequence\'s animation list'));
  const timeline = el('div', { class: 'timeline', id: 'ac-timeline' });
  const seqInfo = el('div', { class: 'keys', id: 'ac-seq-info' });
  timelinePanel.append(el('p', { class: 'keys' }, 'dashed = link (plays once), green = cyclic (from the first-cyclic marker on); the outlined node is current.'), timeline, seqInfo);

  // ---- the server loop: jumping (hold J to charge) and the last UpdateMotion message
  let jumpHeld = null; // performance.now() when the charge started
  const startJump = () => {
    if (jumpHeld !== null) return;
    jumpHeld = performance.now();
    jumpBtn.classList.add('on');
    session.step({ op: 'charge_jump' });
  };
  const releaseJump = () => {
    if (jumpHeld === null) return;
    // A full second of charge is a full jump (extent 1).
    const extent = Math.round(Math.min(1, Math.max(0, (performance.now() - jumpHeld) / 1000)) * 100) / 100;
    jumpHeld = null;
    jumpBtn.classList.remove('on');
    session.apply([{ op: 'jump', extent }, { op: 'movement_data' }]);
  };
  const jumpBtn = el('button', { id: 'ac-jump', title: 'Hold to charge (up to 1 s), release to jump: charge_jump, then jump with the extent charged, then the UpdateMotion a server would send' }, 'Jump (hold J)');
  jumpBtn.addEventListener('pointerdown', (ev) => { ev.preventDefault(); startJump(); });
  jumpBtn.addEventListener('pointerup', releaseJump);
  jumpBtn.addEventListener('pointerleave', releaseJump);
  const wireHex = el('div', { class: 'hexdump', id: 'ac-update-motion' }, 'none yet');
  const wireInfo = el('div', { class: 'keys', id: 'ac-update-motion-info' });
  const wirePanel = el('div', { class: 'panel', id: 'ac-wire' }, el('h2', {}, 'Last UpdateMotion message (bytes a server sends)'),
    el('div', { class: 'row' }, jumpBtn,
      el('button', { id: 'ac-broadcast', title: 'movement_data: the UpdateMotion (0xF74C) a server would broadcast for the creature now', onclick: () => session.step({ op: 'movement_data' }) }, 'Send UpdateMotion (U)')),
    wireInfo, wireHex);
  let lastWire = null;
  const showWire = () => {
    if (!lastWire) {
      setText(wireHex, 'none yet: jump, or press "Send UpdateMotion"');
      setText(wireInfo, '');
      setValue(wireHex, '');
      return;
    }
    const bytes = lastWire.hex.match(/../g) || [];
    const rows = [];
    for (let i = 0; i < bytes.length; i += 16) rows.push(`${i.toString(16).padStart(4, '0')}  ${bytes.slice(i, i + 16).join(' ')}`);
    setText(wireHex, rows.join('\n'));
    setValue(wireHex, lastWire.hex);
    const op = bytes.length >= 4 ? bytes.slice(0, 4).reverse().join('') : '';
    setText(wireInfo, `${bytes.length} bytes, opcode 0x${op.toUpperCase()}${op.toUpperCase() === '0000F74C' ? ' (UpdateMotion)' : ''}, made at step ${lastWire.step}`);
  };

  const posPanel = el('div', { class: 'panel', id: 'ac-position' }, el('h2', {}, 'Position and velocity (root trail, top-down, +y forward)'));
  const trailCv = el('canvas', { class: 'view2d', id: 'ac-trail', height: 300 });
  posPanel.append(trailCv);
  add('origin', 'origin', posPanel);
  add('orientation [w,x,y,z]', 'orientation', posPanel);
  add('sequence velocity / omega', 'seq-vel', posPanel);
  add('body velocity', 'velocity', posPanel);
  add('cached velocity', 'cached', posPanel);

  // ---- network correction demo
  const dist = el('input', { type: 'number', id: 'ac-net-distance', value: 5, step: 1 });
  const pdist = el('input', { type: 'number', id: 'ac-net-player-distance', value: 50, step: 1 });
  const target = () => {
    const l = session.last();
    const o = l.frame.origin;
    const f = forwardOf(l.frame.orientation);
    const d = Number(dist.value) || 0;
    return [o[0] + f[0] * d, o[1] + f[1] * d, o[2]];
  };
  const net = el('details', { class: 'panel', id: 'ac-net' }, el('summary', {}, 'Details: network correction'),
    el('p', { class: 'keys' }, 'Send a server position some distance ahead of the object and tick: within the blip distance (100 outdoors) the interpolation manager queues it (and, as ACE does, never moves the object by correction; a failed 5-tick progress window blips); farther targets blip on the next tick.'),
    el('div', { class: 'row' },
      el('label', {}, 'distance', dist),
      el('button', { id: 'ac-interpolate', onclick: () => session.step({ op: 'interpolate_to', origin: target(), orientation: session.last().frame.orientation, keep_heading: false }) }, 'interpolate_to'),
      el('label', {}, 'player distance', pdist),
      el('button', { id: 'ac-move-or-teleport', onclick: () => session.step({ op: 'move_or_teleport', origin: target(), orientation: session.last().frame.orientation, timestamp: 0, contact: true, player_distance: Number(pdist.value) }) }, 'move_or_teleport'),
      el('button', { onclick: () => { dist.value = 150; } }, 'far (150)')));
  add('interp queue', 'interp-queue', net);
  add('interp manager', 'interp-mgr', net);

  // ---- the creature, drawn from the Sequence's part frames
  const figurePanel = el('div', { class: 'panel', id: 'ac-figure' }, el('h2', {}, 'Creature (Setup parts posed by the Sequence, root trail beneath)'));
  const figure = new AcFigure(figurePanel);
  await figure.init();
  let datChoice = null; // { table, setup } while a table of the user's DAT plays
  const dat = await datPanel(async (scenario, tableId, setupId) => {
    datChoice = { table: tableId, setup: setupId };
    await session.start(scenario);
  });

  // ---- the move-to world: objects 2 and 3, move-to / stick / leash steps, on a map
  const world = worldPanel(session, {
    scenario: info.more_scenarios && info.more_scenarios.world,
    before: () => { tb.player.pause(); session.replay.steps = []; session.replay.next = 0; datChoice = null; },
  });

  root.append(el('p', { class: 'intro', id: 'ac-intro' }, 'Press Play, then Walk, Run, Turn or Jump (keys W, Shift+W, A/D, hold J) to move the sample creature; '
    + '"Start the move-to world" puts three creatures on a map where one walks to another. Drag the picture to look around.'),
  el('details', { class: 'about' }, el('summary', {}, 'What this view shows'),
    el('p', { class: 'keys' }, "The Asheron's Call motion system as ACE ports it: a motion goes through MotionInterp (raw and interpreted states) to the MotionTableManager, which appends link and cycle animations to the Sequence; the root moves by the sequence's velocity and position frames. Every value shown is the engine's trace line.")),
  tb.bar, tb.status,
    el('div', { class: 'grid' },
      el('div', {}, ...(dat ? [dat] : []), figurePanel, inputs, world.panel, posPanel, timelinePanel, net),
      el('div', {}, state, wirePanel, queues, tablePanel, tb.extra)));

  // ---- keys
  const held = new Set();
  const keyMotion = { w: WALK, s: BACK, a: TURN_L, d: TURN_R, q: SIDE_L, e: SIDE_R };
  const active = () => !root.hidden && !['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement && document.activeElement.tagName);
  window.addEventListener('keydown', (ev) => {
    if (!active() || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    if (ev.key === 'Shift' && held.has('w')) {
      // The run hold key pressed while walking: re-issue the walk with it.
      motion('do_motion', WALK, { hold_key: 'run' });
      ev.preventDefault();
      return;
    }
    if (k === 'j') startJump();
    else if (k === 'u') session.step({ op: 'movement_data' });
    else if (keyMotion[k]) {
      held.add(k);
      const extra = k === 'w' ? { hold_key: ev.shiftKey ? 'run' : 'none' } : {};
      motion('do_motion', keyMotion[k], extra);
    } else if (k === 'x') stopAll();
    else if (k === 'z') session.step({ op: 'stop_completely' });
    else if (k === '1') root.querySelector('#ac-action').click();
    else if (k === 't') root.querySelector('#ac-style').click();
    else if (k === 'c') root.querySelector('#ac-contact').click();
    else if (k === 'p') tb.player.toggle();
    else if (k === ' ' && document.activeElement.tagName !== 'BUTTON') session.step({ op: 'tick', dt });
    else return;
    ev.preventDefault();
  });
  window.addEventListener('keyup', (ev) => {
    const k = ev.key.toLowerCase();
    if (k === 'j') {
      releaseJump();
      return;
    }
    if (ev.key === 'Shift' && held.has('w')) {
      if (active()) motion('do_motion', WALK, { hold_key: 'none' });
      return;
    }
    if (!held.has(k)) return;
    held.delete(k);
    if (active()) motion('stop_motion', keyMotion[k]);
  });

  let tableKey = null;
  function renderTable() {
    if (!table) {
      tableKey = null;
      tableBody.replaceChildren(el('div', { class: 'muted' }, 'no motion table description available'));
      return;
    }
    const l = session.last();
    const cur = l ? idOf(l.table.substate) : 0;
    const curStyle = l ? idOf(l.table.style) : 0;
    // Rebuilt only when the table or the row to mark changes, not at every step.
    const key = `${cur}/${curStyle}`;
    if (tableKey && tableKey.table === table && tableKey.key === key) return;
    tableKey = { table, key };
    const frames = table.anim_frames || {};
    const anims = (md) => (md.anims || []).map((a) => `${a.anim_id}${frames[a.anim_id] !== undefined ? `(${frames[a.anim_id]}f)` : ''}[${a.low_frame}..${a.high_frame}]@${a.framerate}`).join(' ');
    const phys = (md) => `${md.flags & 1 ? ' v' + fmt(md.velocity) : ''}${md.flags & 2 ? ' ω' + fmt(md.omega) : ''}`;
    const short = (id) => (id === null || id === undefined ? 'any' : (NAMES[idOf(id)] || hex(idOf(id))));
    const name = (key, id) => (id === null || id === undefined ? `key ${key}` : short(id));
    const click = (id) => (id === null || id === undefined ? undefined : () => motion('do_motion', idOf(id)));
    const rows = [el('div', { class: 'muted' }, `table ${table.id} · default style ${motionName(table.default_style)} · click a row to do_motion it`)];
    rows.push(el('div', { class: 'muted' }, '— styles → default substate'));
    for (const s of table.styles || []) rows.push(el('div', { class: idOf(s.style) === curStyle ? 'cur' : '', onclick: click(s.style) }, `${short(s.style)} → ${short(s.default_substate)}`));
    rows.push(el('div', { class: 'muted' }, '— cycles: style · motion: clips'));
    for (const c of table.cycles || []) rows.push(el('div', { class: idOf(c.motion) === cur && idOf(c.style) === curStyle ? 'cur' : '', onclick: click(c.motion) }, `${short(c.style)} · ${name(c.key, c.motion)}: ${anims(c.data)}${phys(c.data)}`));
    rows.push(el('div', { class: 'muted' }, '— links: style · from → to: clips'));
    for (const k of table.links || []) rows.push(el('div', { onclick: click(k.to) }, `${short(k.style)} · ${short(k.from)} → ${short(k.to)}: ${anims(k.data)}${phys(k.data)}`));
    rows.push(el('div', { class: 'muted' }, '— modifiers: style · motion'));
    for (const m of table.modifiers || []) rows.push(el('div', { onclick: click(m.motion) }, `${m.style === null ? 'any style' : short(m.style)} · ${name(m.key, m.motion)}: ${anims(m.data)}${phys(m.data)}`));
    tableBody.replaceChildren(...rows);
  }

  function drawTrail(l) {
    const cv = trailCv;
    const w = (cv.width = cv.clientWidth || 500), h = cv.height;
    const ctx = cv.getContext('2d');
    ctx.clearRect(0, 0, w, h);
    if (!trail.length) return;
    let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
    for (const p of trail) for (let i = 0; i < 2; i++) { lo[i] = Math.min(lo[i], p[i]); hi[i] = Math.max(hi[i], p[i]); }
    const span = Math.max(4, hi[0] - lo[0], hi[1] - lo[1]) * 1.2;
    const c = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2];
    const sc = Math.min(w, h) / span;
    const P = (p) => [w / 2 + (p[0] - c[0]) * sc, h / 2 - (p[1] - c[1]) * sc];
    // 1 m grid
    ctx.strokeStyle = '#eceee8';
    const step = span > 60 ? 10 : 1;
    for (let x = Math.floor((c[0] - span) / step) * step; x < c[0] + span; x += step) { const a = P([x, 0]); ctx.beginPath(); ctx.moveTo(a[0], 0); ctx.lineTo(a[0], h); ctx.stroke(); }
    for (let y = Math.floor((c[1] - span) / step) * step; y < c[1] + span; y += step) { const a = P([0, y]); ctx.beginPath(); ctx.moveTo(0, a[1]); ctx.lineTo(w, a[1]); ctx.stroke(); }
    ctx.strokeStyle = '#1f6feb';
    ctx.lineWidth = 2;
    ctx.beginPath();
    trail.forEach((p, i) => (i ? ctx.lineTo(...P(p)) : ctx.moveTo(...P(p))));
    ctx.stroke();
    const o = P(l.frame.origin);
    const f = forwardOf(l.frame.orientation);
    ctx.fillStyle = '#c62828';
    ctx.beginPath(); ctx.arc(o[0], o[1], 5, 0, 7); ctx.fill();
    ctx.strokeStyle = '#c62828';
    ctx.beginPath(); ctx.moveTo(...o); ctx.lineTo(o[0] + f[0] * 22, o[1] - f[1] * 22); ctx.stroke();
    for (const n of l.interp_queue || []) {
      const q = P(n.origin);
      ctx.strokeStyle = '#b35900';
      ctx.strokeRect(q[0] - 5, q[1] - 5, 10, 10);
    }
    ctx.lineWidth = 1;
    ctx.fillStyle = '#6b7377';
    ctx.fillText(`span ${span.toFixed(1)} m`, 6, h - 6);
  }

  function ingest(lines, reset) {
    if (reset) {
      trail.length = 0;
      lastWire = null;
    }
    for (const l of lines) {
      trail.push(l.frame.origin.slice(0, 2));
      if (l.wire && l.wire.length) lastWire = { hex: l.wire[l.wire.length - 1], step: l.step };
    }
    if (trail.length > 3000) trail.splice(0, trail.length - 3000);
  }

  function update() {
    const l = session.last();
    if (!l) return;
    const setV = (k, text, value) => {
      setText(F[k], text);
      setValue(F[k], value);
    };
    const t = l.table, ip = l.interp;
    const i = ip.interpreted;
    // One sentence: the forward, sidestep and turn commands in force, in plain words.
    const parts = [];
    const fwd0 = idOf(i.forward_command);
    parts.push(fwd0 === READY || fwd0 === 0 ? 'Standing' : plainMotion(fwd0, i.forward_speed).replace(/ \(.*$/, ''));
    if (idOf(i.sidestep_command)) parts.push(plainMotion(i.sidestep_command, i.sidestep_speed).replace(/ \(.*$/, '').toLowerCase());
    if (idOf(i.turn_command)) parts.push(plainMotion(i.turn_command, i.turn_speed).replace(/ \(.*$/, '').toLowerCase());
    setText(doing, `${parts.join(', ')}${l.phys.contact ? '' : ' — in the air'}.`);
    setV('style', plainMotion(t.style), t.style);
    setV('substate', plainMotion(t.substate, t.substate_mod), t.substate);
    setV('substate-mod', fmt(t.substate_mod));
    // A movement button is lit only while the engine is in the motion it starts (the
    // motion table's substate: RunForward after Run, WalkForward after Walk).
    const fwd = idOf(t.substate);
    for (const [id, motionId] of [['ac-walk', 0x45000005], ['ac-run', 0x44000007], ['ac-back', 0x45000006]]) {
      const b = document.getElementById(id);
      if (!b) continue;
      if (b.classList.contains('on') !== (fwd === motionId)) b.classList.toggle('on', fwd === motionId);
      const pressed = fwd === motionId ? 'true' : 'false';
      if (b.getAttribute('aria-pressed') !== pressed) b.setAttribute('aria-pressed', pressed);
    }
    setV('interpreted', `${plainMotion(i.forward_command, i.forward_speed)} / ${plainMotion(i.sidestep_command, i.sidestep_speed)} / ${plainMotion(i.turn_command, i.turn_speed)}`, i.forward_command);
    setV('raw', `${plainMotion(ip.raw.forward_command, ip.raw.forward_speed)}; hold key ${ip.raw.forward_hold_key} (held now: ${ip.raw.current_hold_key})`);
    setV('modifiers', t.modifiers.map(([m, sp]) => plainMotion(m, sp)).join(', ') || '—');
    setV('actions', t.actions.map(([m, sp]) => plainMotion(m, sp)).join(', ') || '—');
    setV('hooks', l.hooks.join(', ') || '—');
    setV('motions-done', l.motions_done.map(([m, ok]) => `${plainMotion(m)} ${ok ? 'ok' : 'failed'}`).join(', ') || '—');
    setV('result', l.result, l.result);
    setV('contact', `${l.phys.contact ? 'yes' : 'no (in the air)'}${l.phys.on_walkable ? '' : ', not on walkable ground'}${ip.is_animating ? ' · animating' : ''}`, l.phys.contact);
    setText(qcounter, `counter ${t.counter}`);
    const empty = [[{ text: 'empty', class: 'keys' }]];
    syncRows(tq, t.pending.length ? t.pending.map(([m, n]) => [plainMotion(m), String(n)]) : empty);
    syncRows(iq, ip.pending_detail.length ? ip.pending_detail.map(([m, c, e]) => [plainMotion(m), String(c), e]) : empty);
    const sq = l.seq;
    syncList(timeline, sq.anims, () => el('div', { class: 'node' }, el('span', {}), el('div', { class: 'bar' }, el('i', {}))), (n, a, k) => {
      const cyclic = sq.first_cyclic !== null && k >= sq.first_cyclic;
      setClass(n, `node ${cyclic ? 'cyclic' : 'link'}${k === sq.curr ? ' current' : ''}`);
      if (n.dataset.index !== String(k)) n.dataset.index = String(k);
      setText(n.firstChild, `${k}: ${a.anim} [${a.low}..${a.high}] @${fmt(a.framerate)} ${cyclic ? 'cyclic' : 'link'}`);
      const bar = n.lastChild;
      bar.hidden = k !== sq.curr;
      if (k === sq.curr) {
        const span = a.high - a.low || 1;
        const left = `${Math.max(0, Math.min(1, (sq.frame - a.low) / span)) * 100}%`;
        if (bar.firstChild.style.left !== left) bar.firstChild.style.left = left;
      }
    });
    setText(seqInfo, `current node ${sq.curr ?? '—'}, first cyclic ${sq.first_cyclic ?? '—'}, frame ${fmt(sq.frame)}`);
    setValue(seqInfo, sq.curr);
    setV('origin', fmt(l.frame.origin));
    setV('orientation', fmt(l.frame.orientation));
    setV('seq-vel', `${fmt(sq.velocity)} / ${fmt(sq.omega)}`);
    setV('velocity', fmt(l.phys.velocity));
    setV('cached', fmt(l.phys.cached_velocity));
    setV('interp-queue', (l.interp_queue || []).map((n) => `${n.type} ${fmt(n.origin)}`).join('\n') || 'empty');
    const m = l.interp_mgr;
    const far = (d) => (d > 1e30 ? 'none yet' : fmt(d));
    setV('interp-mgr', m ? `frames ${m.frame_counter}, fails ${m.node_fail_counter}, original distance ${far(m.original_distance)}, keep heading ${m.keep_heading}${m.blip_to ? `, blip to ${fmt(m.blip_to.origin)}` : ''}` : 'none yet');
    showWire();
    drawTrail(l);
    figure.pose(l, trail, world.others(l));
    renderTable();
  }

  let assetsLoaded = Promise.resolve();
  const updateSoon = perFrame(update);
  session.subscribe((lines, reset) => {
    if (reset) {
      assetsLoaded = api('GET', `/sessions/${session.id}/assets`).then((r) => {
        table = r.assets && r.assets.table ? r.assets.table : null;
        if (table && table.names) for (const [k, v] of Object.entries(table.names)) NAMES[idOf(k)] = v;
        tableKey = null;
        update();
      }).catch(() => { table = null; renderTable(); });
      const fromDat = session.scenario && session.scenario.asset_dat !== undefined && datChoice;
      const figureUrl = !fromDat ? `/sessions/${session.id}/figure`
        : datChoice.setup ? `/ac/dat/figure?table=${datChoice.table}&setup=${datChoice.setup}` : null;
      const figureLoaded = (figureUrl ? api('GET', figureUrl) : Promise.resolve({ figure: { reason: 'no Setup chosen' } })).then((r) => {
        figure.load(r.figure);
        figure.pose(session.last(), trail, world.others(session.last()));
      }).catch((e) => figure.load({ reason: String(e.message || e) }));
      assetsLoaded = Promise.all([assetsLoaded, figureLoaded]);
    }
    ingest(lines, reset);
    updateSoon();
  });
  await session.start(null);
  await assetsLoaded; // the view is ready once it can name what it shows
  return { session };
}
