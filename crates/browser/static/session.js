// One live engine session on the server, plus the controls every view shares:
// play/step at a fixed cadence, reset, export the trace or the scenario, load a
// scenario file and replay it step by step, and send any step as JSON.

import { api, el } from './api.js';

const HISTORY = 4000; // trace lines kept in the page (the server keeps them all)

export class EngineSession {
  constructor(engine) {
    this.engine = engine;
    this.id = null;
    this.lines = [];
    this.stepCount = 0;
    this.listeners = [];
    this.statusEl = null;
    // Steps go to the server one request at a time, in the order they were asked for,
    // so the page's history is in step order even when buttons and Play overlap.
    this.queue = Promise.resolve();
  }

  // fn(newLines, reset: bool) is called after every change.
  subscribe(fn) {
    this.listeners.push(fn);
  }

  emit(lines, reset) {
    for (const fn of this.listeners) {
      try {
        fn(lines, reset);
      } catch (e) {
        console.error(e);
        this.status(`page error: ${e.message}`, true);
      }
    }
  }

  last() {
    return this.lines[this.lines.length - 1];
  }

  status(text, isError = false) {
    if (!this.statusEl) return;
    this.statusEl.textContent = text;
    this.statusEl.classList.toggle('error', isError);
  }

  async start(scenario) {
    const body = { engine: this.engine };
    if (scenario) body.scenario = scenario;
    const resp = await api('POST', '/sessions', body);
    if (this.id) api('DELETE', `/sessions/${this.id}`).catch(() => {});
    this.id = resp.id;
    const view = document.getElementById(`view-${this.engine}`);
    if (view) view.dataset.session = resp.id;
    this.scenario = resp.scenario;
    this.lines = resp.lines.slice();
    this.stepCount = resp.step_count;
    this.emit(this.lines, true);
    this.status(`session ${this.id}: setup done`);
    return resp;
  }

  // Apply steps; returns their lines, or null after showing the error.
  apply(steps) {
    const run = this.queue.then(() => this.applyNow(steps));
    this.queue = run.catch(() => null);
    return run;
  }

  async applyNow(steps) {
    if (!this.id) return null;
    try {
      const resp = await api('POST', `/sessions/${this.id}/steps`, { steps });
      this.lines.push(...resp.lines);
      if (this.lines.length > HISTORY) this.lines.splice(0, this.lines.length - HISTORY);
      this.stepCount = resp.step_count;
      this.emit(resp.lines, false);
      const l = resp.lines[resp.lines.length - 1];
      this.status(`step ${this.stepCount}: ${l ? l.op : ''}${l && l.result != null ? ' → ' + l.result : ''}`);
      return resp.lines;
    } catch (e) {
      this.status(e.message, true);
      return null;
    }
  }

  async step(step) {
    return this.apply([step]);
  }

  async reset() {
    if (!this.id) return;
    try {
      const resp = await api('POST', `/sessions/${this.id}/reset`);
      this.lines = [resp.line];
      this.stepCount = 0;
      this.emit(this.lines, true);
      this.status('reset to the setup state');
    } catch (e) {
      this.status(e.message, true);
    }
  }

  download(kind) {
    if (!this.id) return;
    const a = el('a', { href: `api/sessions/${this.id}/${kind}`, download: '' });
    document.body.append(a);
    a.click();
    a.remove();
  }
}

// Calls `tick` at `hz`, never overlapping: a slow step delays the next one.
export class Player {
  constructor(tick, hz = 25) {
    this.tick = tick;
    this.period = 1000 / hz;
    this.timer = null;
    this.onchange = () => {};
  }
  get playing() {
    return this.timer !== null;
  }
  play() {
    if (this.timer) return;
    const loop = async () => {
      const t0 = performance.now();
      const ok = await this.tick();
      if (!this.timer) return;
      if (ok === false) {
        this.pause();
        return;
      }
      this.timer = setTimeout(loop, Math.max(0, this.period - (performance.now() - t0)));
    };
    this.timer = setTimeout(loop, 0);
    this.onchange(true);
  }
  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.onchange(false);
  }
  toggle() {
    this.playing ? this.pause() : this.play();
  }
}

// The shared toolbar: play/pause/step (with the engine's own clock step), reset,
// exports, load scenario, status, "any step" box and the last trace line.
// The server answers the download itself; the static site builds the .glb in a second
// WebAssembly module, fetched on the first click, and saves it as a Blob.
async function exportGltf(session) {
  if (!globalThis.RETROANIM_WASM) return session.download('gltf');
  if (!session.id) return;
  try {
    const { filename, bytes } = await (await import('./retroanim-gltf-wasm.js')).exportGltf(session.id);
    const a = el('a', { href: URL.createObjectURL(new Blob([bytes], { type: 'model/gltf-binary' })), download: filename });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) {
    session.status(`Export glTF: ${e.message}`, true);
  }
}

export function toolbar(session, { clockStep, clockLabel, playId, keys = true }) {
  const prefix = session.engine;
  // While a loaded scenario is being replayed, Play and Step send its steps in order
  // instead of the clock step; Reset or loading another scenario drops the rest.
  const replay = { name: '', steps: [], next: 0 };
  session.replay = replay;
  const nextStep = () => {
    if (replay.next < replay.steps.length) return replay.steps[replay.next++];
    return clockStep();
  };
  const stepOnce = async () => {
    const wasReplaying = replay.next < replay.steps.length;
    const r = await session.step(nextStep());
    if (wasReplaying && replay.next === replay.steps.length && r !== null) {
      session.status(`${replay.name}: replayed ${replay.steps.length} steps`);
      replay.steps = [];
      replay.next = 0;
      return 'finished';
    }
    return r;
  };
  const player = new Player(async () => {
    const r = await stepOnce();
    return r !== null && r !== 'finished';
  });
  const playBtn = el('button', { id: playId || `${prefix}-play`, onclick: () => player.toggle(), title: 'Play / pause at 25 Hz' }, '▶ Play');
  player.onchange = (p) => {
    playBtn.textContent = p ? '❚❚ Pause' : '▶ Play';
    playBtn.classList.toggle('on', p);
  };
  const stepBtn = el('button', { id: `${prefix}-step`, onclick: () => stepOnce(), title: 'One clock step (or the next step of a scenario being replayed)' }, `Step (${clockLabel})`);
  // Playback cadence: the nominal 25 Hz, or slower to follow each step (the step itself
  // is unchanged, only how often it is sent).
  const cadence = el('select', { id: `${prefix}-cadence`, title: 'How often Play sends the clock step' },
    ...[[25, '25 Hz (nominal)'], [5, '5 Hz (slow)'], [1, '1 Hz']].map(([hz, t]) => el('option', { value: hz }, t)));
  cadence.addEventListener('change', () => (player.period = 1000 / Number(cadence.value)));
  const file = el('input', { type: 'file', accept: '.json,application/json', id: `${prefix}-load-file`, class: 'hidden' });
  file.addEventListener('change', async () => {
    const f = file.files[0];
    file.value = '';
    if (f) await loadScenario(session, player, replay, await f.text(), f.name);
  });
  // Sample scenarios shipped in assets/<engine>/scenarios/: pick one to replay it.
  const samples = el('select', { id: `${prefix}-samples`, title: 'Replay a sample scenario from the asset folder' },
    el('option', { value: '' }, 'Sample scenarios…'));
  api('GET', `/engines/${prefix}/samples`).then((r) => {
    for (const n of r.samples) samples.append(el('option', { value: n }, n));
    samples.disabled = r.samples.length === 0;
  }).catch(() => (samples.disabled = true));
  samples.addEventListener('change', async () => {
    const name = samples.value;
    samples.value = '';
    if (!name) return;
    try {
      const doc = await api('GET', `/engines/${prefix}/samples/${encodeURIComponent(name)}`);
      await loadScenario(session, player, replay, JSON.stringify(doc), name);
    } catch (e) {
      session.status(`${name}: ${e.message}`, true);
    }
  });
  const status = el('div', { class: 'status', id: `${prefix}-status`, role: 'status' });
  session.statusEl = status;
  const lastLine = el('pre', { class: 'json', id: `${prefix}-last-line` });
  const anyStep = el('textarea', { rows: 3, id: `${prefix}-any-step`, spellcheck: 'false' });
  const bar = el('div', { class: 'toolbar' },
    playBtn, cadence, stepBtn,
    el('button', { onclick: () => { player.pause(); replay.steps = []; replay.next = 0; session.reset(); }, id: `${prefix}-reset`, title: 'Back to the setup state; forgets the steps' }, 'Reset'),
    el('span', { class: 'sep' }),
    el('button', { onclick: () => session.download('trace'), id: `${prefix}-export-trace`, title: 'The JSON Lines trace of what was played (what `retroanim run` writes)' }, 'Export trace (.jsonl)'),
    el('button', { onclick: () => session.download('scenario'), id: `${prefix}-export-scenario`, title: 'The scenario with every step played so far' }, 'Export scenario'),
    el('button', { onclick: () => exportGltf(session), id: `${prefix}-export-gltf`, title: 'The model on screen and every clip it plays, as binary glTF 2.0 (docs/export.md)' }, 'Export glTF'),
    el('button', { onclick: () => file.click(), id: `${prefix}-load`, title: 'Load a scenario file and replay its steps at 25 Hz' }, 'Load scenario…'),
    file, samples,
    el('span', { class: 'steps', id: `${prefix}-step-count` }),
  );
  const stepCount = bar.querySelector('.steps');
  const extra = el('div', { class: 'extra' },
    el('details', {},
      el('summary', {}, 'Send any step (JSON, the engine\'s own step ops)'),
      anyStep,
      el('button', {
        onclick: async () => {
          let v;
          try {
            v = JSON.parse(anyStep.value);
          } catch (e) {
            session.status(`not JSON: ${e.message}`, true);
            return;
          }
          await session.apply(Array.isArray(v) ? v : [v]);
        },
      }, 'Apply'),
    ),
    el('details', {}, el('summary', {}, 'Last trace line'), lastLine),
  );
  if (keys) {
    // P plays / pauses, Space steps, while this view is shown and no field has focus.
    window.addEventListener('keydown', (ev) => {
      const view = document.getElementById(`view-${prefix}`);
      const tag = document.activeElement && document.activeElement.tagName;
      if (!view || view.hidden || ['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (ev.key === 'p' || ev.key === 'P') player.toggle();
      else if (ev.key === ' ' && tag !== 'BUTTON') session.step(clockStep()); // Space on a button presses it
      else return;
      ev.preventDefault();
    });
  }
  session.subscribe(() => {
    const l = session.last();
    lastLine.textContent = l ? JSON.stringify(l, null, 1) : '';
    stepCount.textContent = `${session.stepCount} step${session.stepCount === 1 ? '' : 's'}`;
  });
  return { bar, status, extra, player, anyStep };
}

// Start a session from a scenario file, then replay its steps through the view's
// player (pause and step work as usual while it plays them).
async function loadScenario(session, player, replay, text, name) {
  player.pause();
  replay.steps = [];
  replay.next = 0;
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    session.status(`${name}: not JSON: ${e.message}`, true);
    return;
  }
  let resp;
  try {
    resp = await session.start(doc);
  } catch (e) {
    session.status(`${name}: ${e.message}`, true);
    return;
  }
  const steps = resp.pending_steps || [];
  if (!steps.length) {
    session.status(`${name}: loaded (no steps)`);
    return;
  }
  replay.name = name;
  replay.steps = steps;
  replay.next = 0;
  session.status(`${name}: replaying ${steps.length} steps (Pause stops, Step goes one at a time)`);
  player.play();
}
