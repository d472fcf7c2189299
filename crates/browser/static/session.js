// One live engine session on the server, plus the controls every view shares:
// play/step at a fixed cadence, reset, export the trace or the scenario, load a
// scenario file and replay it step by step, and send any step as JSON.

import { api, el, perFrame, setText, setValue } from './api.js';

const HISTORY = 4000; // trace lines kept in the page (the server keeps them all)
const REFETCH = 1000; // lines fetched again when the session replaced them (`rebuilt`)
// Steps Play sends in one request when it has fallen behind its rate, and the batch
// of fast-forward (top speed), within the API's 1,000 steps per request.
const MAX_CATCH_UP = 12;
const FAST_BATCH = 200;
// Steps of a loaded file above which it is not checked whole before it plays (a check
// of 30,000 steps would take the server's whole time budget of one request).
const LONG_FILE = 2000;

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
    setText(this.statusEl, text);
    if (this.statusEl.classList.contains('error') !== isError) this.statusEl.classList.toggle('error', isError);
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
      this.stepCount = resp.step_count;
      if (resp.rebuilt) {
        // A step of a kind the session had not seen changed what every line carries
        // (the AC server loop's keys): the session replayed its steps; take the new lines.
        // The last REFETCH lines, in as many answers as the lines endpoint's 1 MiB needs.
        const total = resp.step_count + 1;
        const lines = [];
        for (let at = Math.max(0, total - REFETCH); at < total;) {
          const got = await api('GET', `/sessions/${this.id}/lines?from=${at}&to=${total}`);
          if (!got.lines.length) break;
          for (const l of got.lines) lines.push(l);
          at = got.from + got.lines.length;
        }
        this.lines = lines;
        this.emit(this.lines, true);
      } else {
        for (const l of resp.lines) this.lines.push(l);
        if (this.lines.length > HISTORY) this.lines.splice(0, this.lines.length - HISTORY);
        this.emit(resp.lines, false);
      }
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

// Plays at `hz` steps per second of wall-clock time: `tick(n)` applies n steps and
// resolves to how many it applied (false stops). When a step takes longer than its
// period the player does not fall further behind: the next request carries the steps
// that are due (at most MAX_CATCH_UP). `fast` plays at top speed, FAST_BATCH steps per
// request. `rate()` is the measured steps per second over the last two seconds.
export class Player {
  constructor(tick, hz = 25) {
    this.tick = tick;
    this.hz = hz;
    this.fast = false;
    this.timer = null;
    this.running = false;
    this.done = [];
    this.onchange = () => {};
  }
  get playing() {
    return this.running;
  }
  set period(ms) {
    this.hz = 1000 / ms;
    this.anchor();
  }
  anchor() {
    this.t0 = performance.now();
    this.count = 0;
  }
  // Samples [time, steps played so far]; one older than two seconds is kept as the anchor.
  record(n) {
    const now = performance.now();
    this.total += n;
    this.done.push([now, this.total]);
    while (this.done.length > 2 && now - this.done[1][0] >= 2000) this.done.shift();
  }
  rate() {
    if (!this.running || this.done.length < 2) return 0;
    const [t0, n0] = this.done[0];
    const [t1, n1] = this.done[this.done.length - 1];
    return t1 > t0 ? ((n1 - n0) * 1000) / (t1 - t0) : 0;
  }
  play() {
    if (this.running) return;
    this.running = true;
    this.total = 0;
    this.done = [[performance.now(), 0]];
    this.anchor();
    const loop = async () => {
      this.timer = null;
      if (!this.running) return;
      let want;
      if (this.fast) {
        want = FAST_BATCH;
      } else {
        const due = Math.floor(((performance.now() - this.t0) * this.hz) / 1000) + 1 - this.count;
        if (due > this.hz) {
          // More than a second behind (a slow machine, a background tab): start over from now.
          this.anchor();
          want = 1;
        } else {
          want = Math.min(MAX_CATCH_UP, due);
        }
      }
      if (want > 0) {
        const n = await this.tick(want);
        if (!this.running) return;
        if (n === false) {
          this.pause();
          return;
        }
        this.count += n;
        this.record(n);
      }
      const wait = this.fast ? 0 : Math.max(0, this.t0 + ((this.count) * 1000) / this.hz - performance.now());
      this.timer = setTimeout(loop, wait);
    };
    this.timer = setTimeout(loop, 0);
    this.onchange(true);
  }
  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const was = this.running;
    this.running = false;
    if (was) this.onchange(false);
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
  // The next n steps: the rest of a loaded scenario first (never mixed with clock steps
  // in one request), else n clock steps.
  const nextSteps = (n) => {
    if (replay.next < replay.steps.length) {
      const out = replay.steps.slice(replay.next, replay.next + n);
      replay.next += out.length;
      return out;
    }
    return Array.from({ length: n }, clockStep);
  };
  const finishReplay = () => {
    session.status(`${replay.name}: replayed ${replay.steps.length} steps`);
    replay.steps = [];
    replay.next = 0;
  };
  const stepOnce = async () => {
    const wasReplaying = replay.next < replay.steps.length;
    const r = await session.step(nextStep());
    showProgress();
    if (wasReplaying && replay.next === replay.steps.length && r !== null) {
      finishReplay();
      return 'finished';
    }
    return r;
  };
  const player = new Player(async (n) => {
    const wasReplaying = replay.next < replay.steps.length;
    const steps = nextSteps(n);
    const r = await session.apply(steps);
    showProgress();
    if (r === null) return false;
    if (wasReplaying && replay.next === replay.steps.length) {
      finishReplay();
      return false;
    }
    return steps.length;
  });
  const playBtn = el('button', { id: playId || `${prefix}-play`, onclick: () => player.toggle(), title: 'Play / pause (P)' }, '▶ Play');
  player.onchange = (p) => {
    playBtn.textContent = p ? '❚❚ Pause' : '▶ Play';
    playBtn.classList.toggle('on', p);
    showRate();
  };
  const stepBtn = el('button', { id: `${prefix}-step`, onclick: () => stepOnce(), title: 'One clock step (or the next step of a scenario being replayed)' }, `Step (${clockLabel})`);
  // Playback cadence: the nominal 25 Hz, slower to follow each step, or as fast as the
  // engine answers (the steps themselves are unchanged, only how often they are sent).
  const cadence = el('select', { id: `${prefix}-cadence`, title: 'How often Play sends the steps' },
    ...[[25, '25 Hz (nominal)'], [5, '5 Hz (slow)'], [1, '1 Hz'], ['fast', 'top speed (fast-forward)']].map(([hz, t]) => el('option', { value: hz }, t)));
  cadence.addEventListener('change', () => {
    player.fast = cadence.value === 'fast';
    if (!player.fast) player.period = 1000 / Number(cadence.value);
    showRate();
  });
  // What Play really delivers, beside what it aims at.
  const rateV = el('span', { class: 'steps', id: `${prefix}-real-rate`, title: 'Steps per second Play delivers (measured over the last 2 s)' });
  const showRate = () => {
    const r = player.rate();
    setText(rateV, player.playing ? `${r.toFixed(1)} steps/s${player.fast ? ' (top speed)' : ` of ${Math.round(player.hz)}`}` : '');
    setValue(rateV, player.playing ? r.toFixed(2) : '');
  };
  setInterval(showRate, 500);
  // n / N of a loaded scenario being replayed.
  const progress = el('span', { class: 'steps', id: `${prefix}-progress` });
  const showProgress = () => {
    const active = replay.steps.length > 0;
    setText(progress, active ? `${replay.name}: ${replay.next} / ${replay.steps.length}` : '');
    setValue(progress, active ? `${replay.next}/${replay.steps.length}` : '');
  };
  replay.shown = showProgress;
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
    el('button', { onclick: () => { player.pause(); replay.steps = []; replay.next = 0; showProgress(); session.reset(); }, id: `${prefix}-reset`, title: 'Back to the setup state; forgets the steps' }, 'Reset'),
    el('span', { class: 'sep' }),
    el('button', { onclick: () => session.download('trace'), id: `${prefix}-export-trace`, title: 'The JSON Lines trace of what was played (what `retroanim run` writes)' }, 'Export trace (.jsonl)'),
    el('button', { onclick: () => session.download('scenario'), id: `${prefix}-export-scenario`, title: 'The scenario with every step played so far' }, 'Export scenario'),
    el('button', { onclick: () => exportGltf(session), id: `${prefix}-export-gltf`, title: 'The model on screen and every clip it plays, as binary glTF 2.0 (docs/export.md)' }, 'Export glTF'),
    el('button', { onclick: () => file.click(), id: `${prefix}-load`, title: 'Load a scenario file and replay its steps at 25 Hz' }, 'Load scenario…'),
    file, samples,
    el('span', { class: 'steps', id: `${prefix}-step-count` }), rateV, progress,
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
  // The last line's JSON is large: written only while its panel is open.
  const lastDetails = lastLine.parentElement;
  const showLast = () => {
    if (!lastDetails.open) return;
    const l = session.last();
    lastLine.textContent = l ? JSON.stringify(l, null, 1) : '';
  };
  lastDetails.addEventListener('toggle', showLast);
  const showCount = perFrame(() => {
    setText(stepCount, `${session.stepCount} step${session.stepCount === 1 ? '' : 's'}`);
    showLast();
  });
  session.subscribe(showCount);
  return { bar, status, extra, player, anyStep };
}

// Start a session from a scenario file, then replay its steps through the view's
// player (pause and step work as usual while it plays them).
async function loadScenario(session, player, replay, text, name) {
  player.pause();
  replay.steps = [];
  replay.next = 0;
  if (replay.shown) replay.shown();
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    session.status(`${name}: not JSON: ${e.message}`, true);
    return;
  }
  // A long file starts without its steps and plays them in batches (each batch checked as
  // it is sent); a short one is checked whole first, so a bad step is named at once.
  const long = doc && typeof doc === 'object' && Array.isArray(doc.steps) && doc.steps.length > LONG_FILE;
  let held = null;
  if (long) {
    // Not sent whole, so not counted by the session's check: refuse a file over the
    // session's step limit here, with the words the session uses for a whole upload.
    let most = null;
    try {
      const info = await api('GET', '/engines');
      most = info && info.limits ? info.limits.steps_per_session : null;
    } catch (_) {
      most = null;
    }
    if (most && doc.steps.length > most) {
      session.status(`${name}: scenario.steps: too many steps (${doc.steps.length}; at most ${most})`, true);
      return;
    }
    held = doc.steps;
    doc = { ...doc };
    delete doc.steps;
  }
  let resp;
  try {
    resp = await session.start(doc);
  } catch (e) {
    session.status(`${name}: ${e.message}`, true);
    return;
  }
  const steps = held || resp.pending_steps || [];
  if (!steps.length) {
    session.status(`${name}: loaded (no steps)`);
    return;
  }
  replay.name = name;
  replay.steps = steps;
  replay.next = 0;
  if (replay.shown) replay.shown();
  session.status(`${name}: replaying ${steps.length} steps (Pause stops, Step goes one at a time; "top speed" fast-forwards)`);
  player.play();
}
