// End-to-end test of the model browser in a real (headless) Chromium.
//
//   node e2e.mjs http://127.0.0.1:PORT/
//
// Starts nothing itself: the server is started by crates/browser/tests/e2e.rs (or by
// hand with `retroanim browse`). For each view it loads the page, clicks a control and
// checks that what the page shows changed as the engine says (the page's fields are
// compared with the session's last trace line fetched from the API). A view whose
// engine is not built yet is skipped with a notice. With RETROANIM_SCREENSHOTS=1 a
// PNG of each view is written to docs/screenshots/.
//
// Exit status 0 = all checks passed; the last line reads "N passed, M failed".

import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.argv[2];
if (!url) {
  console.error('usage: node e2e.mjs URL');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const shotsDir = join(here, '..', '..', '..', 'docs', 'screenshots');
const shots = process.env.RETROANIM_SCREENSHOTS === '1';
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

let passed = 0;
let failed = 0;
const skipped = [];

function check(cond, what) {
  if (cond) {
    passed++;
    console.log(`ok   ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}`);
  }
  return cond;
}

const profile = mkdtempSync(join(tmpdir(), 'retroanim-e2e-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: 1400, height: 1000 },
  acceptDownloads: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    // WebGL through the software rasteriser, so the HERC view draws with three.js.
    '--enable-unsafe-swiftshader',
  ],
});
const page = context.pages()[0] || (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.on('console', (m) => {
  if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
});

// The server the page under test talks to (the DAT checks switch to a second one).
let base = url;

async function api(path) {
  // A page exported by `retroanim export-site` has no server: ask its in-page engines.
  if (process.env.RETROANIM_E2E_WASM === '1') {
    return page.evaluate((p) => import(new URL('static/wasm-api.js', document.baseURI).href).then((m) => m.api('GET', p)), path);
  }
  const r = await page.request.get(new URL('api' + path, base).toString());
  return r.json();
}

// Open a view; returns false (with a notice) when its engine is not built.
async function open(view) {
  await page.goto(new URL(`#${view}`, url).toString());
  await page.waitForFunction((v) => document.getElementById(`view-${v}`).dataset.ready, view, { timeout: 20000 });
  const ready = await page.getAttribute(`#view-${view}`, 'data-ready');
  if (ready === 'notbuilt') {
    const text = await page.textContent(`#${view}-notbuilt`);
    console.log(`SKIP ${view}: the page says "${text.trim()}"`);
    skipped.push(view);
    return false;
  }
  check(ready === 'yes', `${view}: view mounted`);
  return ready === 'yes';
}

const value = (sel) => page.getAttribute(sel, 'data-value');

// Wait until pred(data-value of sel, arg) holds; pred runs in the page, so it may
// only use its two parameters.
async function waitValue(sel, pred, what, timeout = 10000, arg = null) {
  try {
    await page.waitForFunction(
      ([s, p, a]) => {
        const e = document.querySelector(s);
        return e && new Function('v', 'a', `return (${p})(v, a)`)(e.dataset.value, a);
      },
      [sel, pred.toString(), arg],
      { timeout },
    );
    return true;
  } catch (_) {
    console.log(`     (timed out waiting for ${what}; ${sel} = ${await value(sel)})`);
    return false;
  }
}

async function sessionLine(view) {
  const id = await page.getAttribute(`#view-${view}`, 'data-session');
  const s = await api(`/sessions/${id}`);
  return { id, line: s.line, steps: s.step_count };
}

async function screenshot(view) {
  if (!shots) return;
  mkdirSync(shotsDir, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(shotsDir, `${view}.png`), fullPage: false });
  console.log(`     screenshot docs/screenshots/${view}.png`);
}

async function downloadText(selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFileSync(await dl.path(), 'utf8');
}

// Export glTF of `view` (the server's answer, or the static site's second module): the
// .glb's magic, file name and clip names.
async function checkGltf(view, filename, clips, when = '') {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(`#${view}-export-gltf`)]);
  const glb = readFileSync(await dl.path());
  const doc = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
  const names = (doc.animations || []).map((a) => a.name);
  const want = Array.isArray(clips) ? clips : null;
  check(glb.subarray(0, 4).toString('latin1') === 'glTF' && dl.suggestedFilename() === filename
    && (want ? JSON.stringify(names) === JSON.stringify(want) : names.length === clips),
    `${view}: Export glTF${when} downloads ${dl.suggestedFilename()}, a .glb with ${names.length} clips (${names.slice(0, 3).join(', ')}…)`);
}

// The drawn DTS meshes of the HERC view (window.__hercMeshes: each group's first point as
// the page placed it) against the current trace line: the point through its node's Q14
// world transform, written out here (M5 row vectors), not imported from the page. Both
// the server and the static site's in-page module answer the meshes endpoint (the sample
// biped's DTS is built into the module): a view that falls back to the stick figure fails.
async function hercMeshesFollowTrace(when, source = 'biped.dts') {
  const { id, line } = await sessionLine('herc');
  let m = null;
  try {
    m = await api(`/sessions/${id}/meshes`);
  } catch (e) {
    m = { error: String(e) };
  }
  if (!check(m && Array.isArray(m.meshes), `herc: GET /sessions/ID/meshes answers the DTS meshes ${when} (${m && m.error ? m.error : 'ok'})`)) return;
  await page.waitForFunction(([step, sid]) => window.__hercMeshes && window.__hercMeshes.step === step && window.__hercMeshes.session === sid
    && window.__hercMeshes.groups.length > 0, [line.step, id], { timeout: 10000 }).catch(() => {});
  const drawn = await page.evaluate(() => window.__hercMeshes);
  if (!check(drawn && m.source === source && m.meshes.length === 14 && drawn.groups.length === m.meshes.length,
    `herc: the ${m.meshes.length} DTS meshes of ${m.source} are drawn ${when} (${drawn ? drawn.groups.length : 0} groups)`)) return;
  let worst = 0;
  let moved = 0;
  m.meshes.forEach((g, k) => {
    const T = line.world[g.node];
    const p = g.points[0];
    const M = T.m;
    const want = [
      (p[0] * M[0] + p[1] * M[2] + p[2] * M[6]) / 16384 + T.t[0],
      (p[0] * M[1] + p[1] * M[3] + p[2] * M[7]) / 16384 + T.t[1],
      (p[0] * M[4] + p[1] * M[5] + p[2] * M[8]) / 16384 + T.t[2],
    ];
    const got = drawn.groups[k].point;
    worst = Math.max(worst, ...want.map((v, i) => Math.abs(v - got[i])));
    moved = Math.max(moved, ...p.map((v, i) => Math.abs(got[i] - v)));
  });
  check(drawn.step === line.step && drawn.session === id && worst < 1e-3 && moved > 100,
    `herc: ${when}, each mesh's first point sits at its node's world matrix (step ${drawn.step} of ${line.step}, worst error ${worst.toExponential(1)}, placed up to ${moved.toFixed(0)} units from node space)`);
  const three = await page.evaluate(() => !!document.querySelector('#herc-canvas.view3d'));
  console.log(`     herc meshes drawn with ${three ? 'three.js (WebGL)' : 'the 2D fallback'}`);
}

// The sample biped drawn with its own palette and textures (H82–H84): the meshes come with
// the palette and bitmap array beside the shape (or, for an ES2 folder, the theater palette
// and the chassis's bank), and a textured face shows its frame: on the torso and pelvis
// sides the plate texture (biped.dba frame 0) has a darker panel line across texel rows
// 7–8 (grey ramp step 3) between lighter plate (step 5); one face, one light, two rows:
// the line must be darker and both bluish grey (blue above red, as the palette's greys).
// Guessed colours would draw each face in one flat colour.
async function hercTextured(when, palette, bitmaps) {
  const mats = await page.evaluate(() => window.__hercMaterials);
  check(mats && mats.palette === palette && mats.bitmaps === bitmaps && mats.frames === 4 && mats.problems.length === 0,
    `herc: ${when}, the biped is drawn with ${palette} and ${bitmaps} (${JSON.stringify(mats)})`);
  const note = await page.textContent('#herc-mesh-source').catch(() => '');
  check(note.includes(`colours from ${palette}, 4 textures from ${bitmaps}`),
    `herc: ${when}, the view says what the shape is drawn with ("${note.trim()}")`);
  // [group, face name, point at v = 0.25 (plate), point at v = 0.5 (panel line)]
  const faces = [
    [1, 'torso −y', [0, -60, 37.5], [0, -60, 75]],
    [1, 'torso +x', [95, 0, 37.5], [95, 0, 75]],
    [0, 'pelvis −y', [0, -45, -12.5], [0, -45, 5]],
    [0, 'pelvis +x', [80, 0, -12.5], [80, 0, 5]],
  ];
  const samples = await page.evaluate((faces) => faces.map(([k, name, a, b]) => ({
    name, plate: window.__hercPixel && window.__hercPixel(k, a), line: window.__hercPixel && window.__hercPixel(k, b),
  })), faces);
  const three = await page.evaluate(() => !!document.querySelector('#herc-canvas.view3d'));
  if (!three) {
    console.log(`     SKIP herc texture pixels ${when}: no WebGL (the 2D fallback draws outlines)`);
    return;
  }
  const lum = (c) => c[0] + c[1] + c[2];
  const ok = samples.filter((f) => f.plate && f.line && lum(f.plate.rgba) - lum(f.line.rgba) > 20
    && f.plate.rgba[2] > f.plate.rgba[0] && f.line.rgba[2] > f.line.rgba[0]);
  check(ok.length > 0,
    `herc: ${when}, the biped is drawn textured in its palette's colours: plate / panel line ${samples.map((f) => `${f.name} ${f.plate ? f.plate.rgba.slice(0, 3) : '-'} / ${f.line ? f.line.rgba.slice(0, 3) : '-'}`).join('; ')}`);
}

// ---- HERC: request walk, play until the thread arrives, export and replay
async function herc() {
  if (!(await open('herc'))) return;
  await waitValue('#herc-seq', (v) => v !== '' && v !== undefined, 'the first trace line');
  const before = await value('#herc-target-seq');
  check(before === '-1', `herc: no pending request at setup (target ${before})`);
  await hercMeshesFollowTrace('at setup');
  await hercTextured('at setup', 'biped.dpl', 'biped.dba');
  await page.waitForSelector('#herc-seq-list [data-seq]');
  const walk = await page.$$eval('#herc-seq-list [data-seq]', (rows) => {
    const r = rows.find((x) => /\bwalk\b/.test(x.textContent));
    return r ? r.dataset.seq : null;
  });
  check(walk !== null, `herc: the sequence list offers walk (seq ${walk})`);
  await page.click(`#herc-seq-list [data-seq="${walk}"]`);
  await page.click('#herc-request');
  await waitValue('#herc-target-seq', (v) => v !== '-1', 'the request to show');
  const shown = await value('#herc-target-seq');
  const { line } = await sessionLine('herc');
  const th = line.threads[line.slots[0]];
  check(shown === walk && th.target_seq === Number(walk),
    `herc: after "Request walk" the panel shows target seq ${shown}, the engine says ${th.target_seq}`);
  check(line.op === 'request', `herc: the last step the engine applied is a request (${line.op})`);
  // Step the 25 Hz clock until the thread plays walk.
  let arrived = false;
  for (let i = 0; i < 60 && !arrived; i++) {
    await page.click('#herc-step');
    await page.waitForFunction((n) => document.getElementById('herc-step-count').textContent.startsWith(`${n} `), i + 2);
    arrived = (await value('#herc-seq')) === walk;
  }
  const after = await sessionLine('herc');
  check(arrived && after.line.threads[after.line.slots[0]].seq === Number(walk),
    `herc: stepping reaches walk (page seq ${await value('#herc-seq')}, engine seq ${after.line.threads[after.line.slots[0]].seq}) after ${after.steps} steps`);
  // "Show root motion" moves the drawing by the machine's object, not the trace.
  check(!(await page.isChecked('#herc-root-motion')), 'herc: "Show root motion" is off initially (H25)');
  await page.click('#herc-root-motion');
  for (let i = 0; i < 6; i++) await page.click('#herc-step');
  await page.waitForFunction((n) => document.getElementById('herc-step-count').textContent.startsWith(`${n} `), after.steps + 6);
  const moved = (await sessionLine('herc')).line.object.position;
  check(moved[1] !== 0 && (await page.textContent('#herc-object')).includes(moved.join(', ')),
    `herc: walking moved the machine to ${JSON.stringify(moved)} and the panel shows it`);
  await page.click('#herc-root-motion');
  await hercMeshesFollowTrace('after walking');
  await screenshot('herc');

  // Export the trace and the scenario, then load the scenario back: the replay
  // must produce the identical trace.
  const trace = await downloadText('#herc-export-trace');
  const scen = await downloadText('#herc-export-scenario');
  const count = (await sessionLine('herc')).steps;
  const lines = trace.trim().split('\n');
  check(lines.length === count + 1 && JSON.parse(lines[0]).op === 'setup',
    `herc: exported trace has ${lines.length} lines for ${count} steps`);
  await page.setInputFiles('#herc-load-file', { name: 'replay.json', mimeType: 'application/json', buffer: Buffer.from(scen) });
  await page.waitForFunction(() => /replayed \d+ steps/.test(document.getElementById('herc-status').textContent), null, { timeout: 30000 });
  const again = await downloadText('#herc-export-trace');
  check(again === trace, 'herc: loading the exported scenario replays to the identical trace');
  await checkGltf('herc', 'herc-biped.glb', ['idle', 'walk', 'run', 'turn', 'stop', 'twist', 'pitch', 'idle_reverse']);

  // Mech mode: the chassis's threads driven by the throttle (the mech extension).
  await page.selectOption('#herc-mode', 'mech');
  await page.waitForSelector('#herc-mech-controls:not([hidden])');
  await page.click('#herc-mech-forward');
  for (let i = 0; i < 8; i++) await page.click('#herc-step');
  await page.waitForFunction(() => document.getElementById('herc-step-count').textContent.startsWith('9 '));
  const mech = (await sessionLine('herc')).line;
  const shownThrottle = await value('#herc-mech-throttle');
  check(mech.mech && mech.mech.inputs.throttle_axis === -256 && mech.mech.throttle !== 0
    && shownThrottle === String(mech.mech.throttle),
    `herc: mech mode, throttle forward: the page shows throttle ${shownThrottle}, the engine says ${mech.mech && mech.mech.throttle} (speed ${mech.mech && mech.mech.speed})`);
  await page.selectOption('#herc-mode', 'threads');
  await page.waitForSelector('#herc-thread-controls:not([hidden])');
}


// A real click: press, hold 80 ms, release (what a person's click is; a row rebuilt
// between press and release loses it).
async function realClick(selector) {
  // A click earlier may have scrolled the page (the static page's AC view has its DAT
  // panel above the figure): the mouse presses where the element is on screen.
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(80);
  await page.mouse.up();
}

// Frames the page draws per second over `ms` (requestAnimationFrame callbacks).
async function framesPerSecond(ms) {
  return page.evaluate((t) => new Promise((done) => {
    let n = 0;
    const t0 = performance.now();
    const f = () => {
      n++;
      if (performance.now() - t0 < t) requestAnimationFrame(f);
      else done((n * 1000) / (performance.now() - t0));
    };
    requestAnimationFrame(f);
  }), ms);
}

async function linesFrom(id, from) {
  const out = [];
  for (let at = from; ;) {
    const r = await api(`/sessions/${id}/lines?from=${at}`);
    out.push(...r.lines);
    at = r.from + r.lines.length;
    if (!r.lines.length || at >= r.total) return out;
  }
}

const measured = {};

// Retry `fn` (async, returning a value or a falsy one) until it gives a truthy value or
// `ms` pass; returns the last value.
async function eventually(fn, ms = 10000) {
  const end = Date.now() + ms;
  let v = await fn();
  while (!v && Date.now() < end) {
    await page.waitForTimeout(100);
    v = await fn();
  }
  return v;
}

// ---- HERC while playing: real clicks land, the plain buttons and keys drive the engine,
// the rate shown is the rate delivered, the view is framed where the machine is.
async function hercPlay() {
  if (skipped.includes('herc')) return;
  await page.goto(new URL('#herc', url).toString());
  await page.waitForFunction(() => document.getElementById('view-herc').dataset.ready === 'yes', null, { timeout: 20000 });
  await page.selectOption('#herc-mode', 'threads');
  await page.waitForSelector('#herc-thread-controls:not([hidden])');
  await page.click('#herc-reset');
  await page.waitForFunction(() => document.getElementById('herc-step-count').textContent.startsWith('0 '));
  const intro = await page.textContent('#herc-intro');
  const folded = await page.evaluate(() => !document.getElementById('herc-transition').open);
  check(/Walk, Run, Turn or Stop/.test(intro) && folded, `herc: the view starts with what you can do ("${intro.slice(0, 60)}…") and the engine details are folded`);
  const { id } = await sessionLine('herc');
  await page.waitForSelector('#herc-seq-list [data-seq]');
  const seqOf = (name) => page.$$eval('#herc-seq-list [data-seq]', (rows, n) => {
    const r = rows.find((x) => new RegExp(`^\\d+ ${n}$`).test(x.firstChild.textContent));
    return r ? Number(r.dataset.seq) : null;
  }, name);
  const walk = await seqOf('walk');
  const run = await seqOf('run');
  await realClick('#herc-play');
  await page.waitForFunction(() => parseInt(document.getElementById('herc-step-count').textContent, 10) > 5);
  // Rows picked with real clicks while the list is being updated every step.
  let landed = 0;
  for (let k = 0; k < 10; k++) {
    const want = k % 2 ? run : walk;
    await realClick(`#herc-seq-list [data-seq="${want}"]`);
    if (await page.$eval(`#herc-seq-list [data-seq="${want}"]`, (r) => r.classList.contains('sel'))) landed++;
  }
  check(landed === 10, `herc: 10 real 80 ms clicks on the sequence list while playing select the row clicked (${landed} of 10)`);
  await realClick(`#herc-seq-list [data-seq="${walk}"]`);
  const n0 = await stepCount('herc');
  await realClick('#herc-request');
  const requested = await eventually(async () => (await linesFrom(id, n0)).find((l) => l.op === 'request'));
  check(requested && requested.threads.some((t) => t.target_seq === walk || t.seq === walk),
    `herc: Play, a real click on "walk", a real click on "Request selected": the engine got the request for walk (${requested ? 'step ' + requested.step : 'no request line'})`);
  // The plain buttons and keys, while playing.
  const n1 = await stepCount('herc');
  await realClick('#herc-do-run');
  await page.focus('#herc-step-count').catch(() => {});
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press('t');
  const turn = await seqOf('turn');
  let reqs = [];
  await eventually(async () => {
    reqs = (await linesFrom(id, n1)).filter((l) => l.op === 'request').map((l) => l.threads[l.slots[0]].target_seq);
    return reqs.includes(run) && reqs.includes(turn);
  });
  check(reqs.includes(run) && reqs.includes(turn), `herc: the Run button and the T key request run and turn while playing (requests ${JSON.stringify(reqs)})`);
  // Stop, by its button and by its key: each asks for the idle sequence.
  const idle = await seqOf('idle');
  for (const [how, act] of [['the Stop button', () => realClick('#herc-do-stop')], ['the X key', async () => {
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('x');
  }]]) {
    await realClick('#herc-do-walk');
    const ns = await stepCount('herc');
    await act();
    let stops = [];
    await eventually(async () => {
      stops = (await linesFrom(id, ns)).filter((l) => l.op === 'request').map((l) => l.threads[l.slots[0]].target_seq);
      return stops.includes(idle);
    });
    check(stops.includes(idle), `herc: ${how} requests idle while playing (requests ${JSON.stringify(stops)})`);
  }
  // Playback speed: steps per second delivered and frames drawn.
  await realClick('#herc-do-walk');
  const s0 = await stepCount('herc');
  const t0 = Date.now();
  const fps = await framesPerSecond(5000);
  const s1 = await stepCount('herc');
  const sps = ((s1 - s0) * 1000) / (Date.now() - t0);
  const shown = Number(await value('#herc-real-rate'));
  measured.herc = { sps, fps, shown };
  check(sps >= 24 && fps >= 30 && Math.abs(shown - sps) < 4,
    `herc: playing at 25 Hz delivers ${sps.toFixed(1)} steps/s at ${fps.toFixed(1)} frames/s; the page says ${shown.toFixed(1)} steps/s`);
  await realClick('#herc-play');
  // Root motion on after walking: the view is framed where the machine is drawn. Walk
  // from idle first (a turn may have no authored way into walk).
  await page.waitForFunction(() => document.getElementById('herc-play').textContent.includes('Play'));
  await page.click('#herc-reset');
  await page.waitForFunction(() => document.getElementById('herc-step-count').textContent.startsWith('0 '));
  await page.click('#herc-do-walk');
  await page.waitForFunction(() => parseInt(document.getElementById('herc-step-count').textContent, 10) >= 1);
  for (let i = 0; i < 40; i++) await page.click('#herc-step');
  await page.waitForFunction(() => parseInt(document.getElementById('herc-step-count').textContent, 10) >= 41, null, { timeout: 20000 });
  await page.click('#herc-root-motion');
  await page.click('#herc-step');
  await page.waitForFunction(() => window.__hercFrame && window.__hercFrame.object, null, { timeout: 10000 }).catch(() => {});
  const fr = await page.evaluate(() => window.__hercFrame);
  const far = fr && fr.object ? Math.hypot(fr.center[0] - fr.object[0], fr.center[1] - fr.object[1]) : Infinity;
  check(fr && fr.object && Math.hypot(fr.object[0], fr.object[1]) > fr.radius && far < fr.radius,
    `herc: "Show root motion" after walking frames the machine where it walked to (${fr && fr.object ? fr.object.map((v) => v.toFixed(0)).join(', ') : '—'}; view centre ${far.toFixed(0)} units from it, radius ${fr ? fr.radius.toFixed(0) : '—'})`);
  await page.click('#herc-root-motion');
  // Add thread plays at a visible rate.
  const before = (await sessionLine('herc')).line.threads.length;
  const counted = await stepCount('herc');
  await page.click('#herc-add-thread');
  await page.waitForFunction((n) => parseInt(document.getElementById('herc-step-count').textContent, 10) >= n, counted + 2);
  const added = (await sessionLine('herc')).line;
  check(added.threads.length === before + 1 && added.threads[before].rate === 256,
    `herc: "Add thread" adds thread ${before} playing at rate ${added.threads[before] && added.threads[before].rate}`);
  // A loaded sample whose thread runs backwards: the slider shows its rate.
  await page.selectOption('#herc-samples', 'turn_in_place.json');
  await page.waitForFunction(() => /replayed \d+ steps/.test(document.getElementById('herc-status').textContent), null, { timeout: 30000 });
  await page.waitForTimeout(200);
  const tl = (await sessionLine('herc')).line;
  const slider = Number(await page.inputValue('#herc-rate'));
  const label = await page.textContent('#herc-rate-label');
  check(slider === tl.threads[tl.slots[0]].rate && label.startsWith(String(slider)),
    `herc: after turn_in_place.json the rate slider shows ${slider} ("${label}"), the thread runs at ${tl.threads[tl.slots[0]].rate}`);
}

// ---- A 29,000-step HERC file at top speed: progress n / N, finished within a minute.
async function hercLong() {
  if (skipped.includes('herc')) return;
  await page.goto(new URL('#herc', url).toString());
  await page.waitForFunction(() => document.getElementById('view-herc').dataset.ready === 'yes', null, { timeout: 20000 });
  const N = 29000;
  const doc = JSON.stringify({
    engine: 'herc', asset: '../biped.json',
    setup: { threads: [{ seq: 0, rate: 256 }], object: { euler: [0, 0, 0], position: [0, 0, 0] } },
    steps: [{ op: 'request', thread: 0, seq: 1, frame: -1, stop_on_arrival: false }, ...Array.from({ length: N - 1 }, () => ({ op: 'step_ms', ms: 40 }))],
  });
  await page.selectOption('#herc-cadence', 'fast');
  const t0 = Date.now();
  await page.setInputFiles('#herc-load-file', { name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(doc) });
  await page.waitForFunction(() => /^long\.json: \d+ \/ 29000$/.test(document.getElementById('herc-progress').textContent)
    && parseInt(document.getElementById('herc-progress').textContent.split(': ')[1], 10) > 1000, null, { timeout: 30000 }).catch(() => {});
  const mid = await page.textContent('#herc-progress');
  const midRate = Number(await value('#herc-real-rate'));
  const done = await page.waitForFunction(() => /long\.json: replayed 29000 steps/.test(document.getElementById('herc-status').textContent), null, { timeout: 90000 }).then(() => true, () => false);
  const seconds = (Date.now() - t0) / 1000;
  const { steps } = await sessionLine('herc');
  measured.long = { seconds, midRate };
  check(done && steps === N && seconds < 60 && /\d+ \/ 29000/.test(mid),
    `herc: the ${N}-step file replays at top speed in ${seconds.toFixed(1)} s (progress shown "${mid}", ${midRate.toFixed(0)} steps/s; ${steps} steps played${done ? '' : '; status: ' + (await page.textContent('#herc-status'))})`);
  await page.selectOption('#herc-cadence', '25');
  await page.click('#herc-reset');
  await page.waitForFunction(() => document.getElementById('herc-step-count').textContent.startsWith('0 '));
}

// ---- Limits: one set, in the same plain words on the server and the static site. The
// page's limits answer names 30,000 steps per session; a file of 30,001 steps is refused at
// once with that limit, and a file over the 1 MiB request body limit with that limit.
async function limits() {
  if (skipped.includes('herc')) return;
  await page.goto(new URL('#herc', url).toString());
  await page.waitForFunction(() => document.getElementById('view-herc').dataset.ready === 'yes', null, { timeout: 20000 });
  const engines = await api('/engines');
  check(engines.limits && engines.limits.steps_per_session === 30000 && engines.limits.steps_per_request === 1000,
    `limits: the site answers 30000 steps per session and 1000 per request (${JSON.stringify(engines.limits)})`);
  const statusAfter = async (name, doc) => {
    await page.evaluate(() => { document.getElementById('herc-status').textContent = ''; });
    await page.setInputFiles('#herc-load-file', { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await page.waitForFunction((n) => document.getElementById('herc-status').textContent.startsWith(`${n}:`), name, { timeout: 20000 }).catch(() => {});
    return page.textContent('#herc-status');
  };
  const scen = { engine: 'herc', asset: '../biped.json', setup: { threads: [{ seq: 0, rate: 256 }], object: { euler: [0, 0, 0], position: [0, 0, 0] } } };
  const over = await statusAfter('over.json', { ...scen, steps: Array.from({ length: 30001 }, () => ({ op: 'step_ms', ms: 40 })) });
  check(over === 'over.json: scenario.steps: too many steps (30001; at most 30000)',
    `limits: a file of 30,001 steps is refused with the limit ("${over}")`);
  const before = pageErrors.length;
  const big = await statusAfter('big.json', { ...scen, description: 'x'.repeat(1100000), steps: [{ op: 'step_ms', ms: 40 }] });
  // The server's 413 is the answer expected here; Chromium logs every 4xx fetch as a
  // console error, so that one line is not a page error.
  const logged = pageErrors.splice(before).filter((e) => !/status of 413 \(Payload Too Large\)/.test(e));
  pageErrors.push(...logged);
  check(big === 'big.json: request body too large: the limit is 1 MiB (1048576 bytes)',
    `limits: a file over the request body limit is refused with the limit ("${big}")`);
}

// ---- AC idle with visible motion: the sample humanoid standing in Ready while playing.
// Its Ready cycle (0x03000101, 30 frames at 30 fps) swings the arms ±12° and the torso
// ±3° about their X axes, and nods the head ±6° a quarter cycle later, so two looks half a
// second (about 15 frames) apart differ: the drawn part orientations by several degrees
// and the canvas's pixels, while the root stays where it is.
async function acIdle() {
  if (skipped.includes('ac')) return;
  await page.goto(new URL('#ac', url).toString());
  await page.waitForFunction(() => document.getElementById('view-ac').dataset.ready === 'yes', null, { timeout: 20000 });
  await page.click('#ac-world-single');
  await page.waitForFunction(() => document.getElementById('ac-step-count').textContent.startsWith('0 '), null, { timeout: 10000 });
  const three = await page.evaluate(() => !!document.querySelector('#ac-figure canvas.view3d'));
  // One look: the drawn parts and the figure canvas's pixels (read through a 2D canvas;
  // the renderer keeps its drawing buffer).
  const look = (slot) => page.evaluate((slot) => {
    const f = window.__acFigure;
    const cv = document.querySelector('#ac-figure canvas.view3d');
    if (cv) {
      const c = document.createElement('canvas');
      c.width = cv.width;
      c.height = cv.height;
      const g = c.getContext('2d');
      g.drawImage(cv, 0, 0);
      window[slot] = g.getImageData(0, 0, c.width, c.height).data;
    }
    return { step: f.step, anim: f.anim, parts: f.parts.map((p) => ({ origin: p.origin, orientation: p.orientation })) };
  }, slot);
  await realClick('#ac-play');
  await page.waitForFunction(() => parseInt(document.getElementById('ac-step-count').textContent, 10) >= 3, null, { timeout: 10000 });
  const a = await look('__idleA');
  const t0 = Date.now();
  await page.waitForTimeout(500);
  const b = await look('__idleB');
  const waited = Date.now() - t0;
  await realClick('#ac-play');
  // The angle between two unit quaternions [w, x, y, z], in degrees.
  const angle = (p, q) => (2 * Math.acos(Math.min(1, Math.abs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]))) * 180) / Math.PI;
  const turned = a.parts.map((p, i) => angle(p.orientation, b.parts[i].orientation));
  const still = a.parts.every((p, i) => p.origin.every((v, k) => Math.abs(v - b.parts[i].origin[k]) < 1e-6));
  const { id } = await sessionLine('ac');
  const lines = await linesFrom(id, 0);
  const idle = lines.filter((l) => l.step >= a.step && l.step <= b.step);
  const standing = idle.length === b.step - a.step + 1 && idle.every((l) => l.table.substate === '0x41000003'
    && near(l.frame.origin, lines[0].frame.origin) && l.seq.anims[l.seq.curr].anim === '0x03000101');
  check(a.anim === '0x03000101' && b.anim === a.anim && b.step > a.step && standing && still && Math.max(...turned) >= 3,
    `ac: standing still in Ready, the figure moves: ${waited} ms apart (steps ${a.step} → ${b.step}, clip ${b.anim}, root unmoved: ${standing && still}) the parts turned up to ${Math.max(...turned).toFixed(1)}° (${turned.map((d) => d.toFixed(1)).join(', ')})`);
  if (!three) {
    check(false, 'ac: the idle figure needs WebGL to compare its pixels (the 2D fallback draws outlines only)');
    return;
  }
  // Pixels whose colour moved by more than 30 (sum over r, g, b) between the two looks.
  const changed = await page.evaluate(() => {
    const [p, q] = [window.__idleA, window.__idleB];
    let n = 0;
    for (let k = 0; k < Math.min(p.length, q.length); k += 4) {
      if (Math.abs(p[k] - q[k]) + Math.abs(p[k + 1] - q[k + 1]) + Math.abs(p[k + 2] - q[k + 2]) > 30) n++;
    }
    return n;
  });
  check(changed >= 100, `ac: the two pictures of the idle figure half a second apart differ in ${changed} pixels`);
}

// ---- AC while playing: plain words, the floor under the running creature, the jump
// key and the UpdateMotion bytes.
async function acPlay() {
  if (skipped.includes('ac')) return;
  await page.goto(new URL('#ac', url).toString());
  await page.waitForFunction(() => document.getElementById('view-ac').dataset.ready === 'yes', null, { timeout: 20000 });
  await page.click('#ac-world-single');
  await page.waitForFunction(() => document.getElementById('ac-step-count').textContent.startsWith('0 '), null, { timeout: 10000 });
  const intro = await page.textContent('#ac-intro');
  const folded = await page.evaluate(() => !document.getElementById('ac-internals').open && !document.getElementById('ac-queues').open);
  check(/Walk, Run, Turn or Jump/.test(intro) && folded, 'ac: the view starts with what you can do and the engine details are folded');
  await page.click('#ac-turn-left');
  await page.waitForFunction(() => /turn/i.test(document.getElementById('ac-doing').textContent));
  const doing = await page.textContent('#ac-doing');
  const interp = await page.textContent('#ac-interpreted');
  check(/turn left/i.test(doing) && interp.includes('Turn left (') && !/^TurnRight/.test(interp.split(' / ')[2] || ''),
    `ac: "Turn left" reads "${doing}" (interpreted: ${interp.split(' / ')[2]})`);
  await page.click('#ac-stop-completely');
  await waitValue('#ac-substate', (v) => v === '0x41000003', 'Ready');
  // Run for 6 s of play: the floor stays under the creature.
  await page.click('#ac-run');
  await realClick('#ac-play');
  await page.waitForTimeout(6000);
  await realClick('#ac-play');
  let id, line, floor;
  await eventually(async () => {
    ({ id, line } = await sessionLine('ac'));
    floor = await page.evaluate(() => window.__acFloor);
    return floor && Math.hypot(floor[0] - line.frame.origin[0], floor[1] - line.frame.origin[1]) < 1;
  }, 5000);
  const o = line.frame.origin;
  check(floor && Math.hypot(o[0], o[1]) > 15 && Math.hypot(floor[0] - o[0], floor[1] - o[1]) < 1,
    `ac: after ${line.step} steps of running the creature is ${Math.hypot(o[0], o[1]).toFixed(1)} m out and the floor is centred ${floor ? Math.hypot(floor[0] - o[0], floor[1] - o[1]).toFixed(2) : '—'} m from it`);
  // Jump: hold J half a second, release.
  await page.click('#ac-stop-completely');
  await waitValue('#ac-substate', (v) => v === '0x41000003', 'Ready');
  const n0 = await stepCount('ac');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.down('j');
  await page.waitForTimeout(500);
  await page.keyboard.up('j');
  await waitSteps('ac', n0 + 3);
  await waitValue('#ac-update-motion', (v) => !!v, 'the UpdateMotion bytes');
  await ticks(8);
  const lines = await linesFrom(id, n0);
  const charge = lines.find((l) => l.op === 'charge_jump');
  const jump = lines.find((l) => l.op === 'jump');
  const md = lines.find((l) => l.op === 'movement_data');
  const shownHex = await value('#ac-update-motion');
  const up = Math.max(...lines.map((l) => l.frame.origin[2]));
  check(charge && jump && md && md.wire && md.wire.length === 1 && md.wire[0] === shownHex && shownHex.startsWith('4cf70000') && up > 0,
    `ac: holding J charges and releasing jumps (${charge ? 'charge_jump' : 'no charge'}, ${jump ? `jump → ${jump.result}` : 'no jump'}, highest point ${up.toFixed(3)} m); the panel shows the UpdateMotion the engine wrote (${shownHex ? shownHex.length / 2 : 0} bytes, ${shownHex ? shownHex.slice(0, 8) : '—'}…)`);
  await screenshot('ac_jump');
}

// ---- HERC with --es2: the folder's shape (the sample biped's DTS inside a SIMVOL0.VOL the
// test wrote) is listed, plays on a click, and its meshes are drawn at the node matrices.
async function hercEs2() {
  let r = null;
  try {
    r = await api('/herc/es2');
  } catch (_) {
    r = null;
  }
  if (!r || !r.open) {
    console.log('SKIP herc --es2: the server was started without an Earthsiege 2 folder');
    return;
  }
  if (!(await open('herc'))) return;
  await hercEs2Plays('herc --es2');
}

// ---- HERC with the VOL files a visitor opens in the static page (RETROANIM_E2E_VOL_FILE,
// a SIMVOL0.VOL written by the project's VOL writer): listed and played as under --es2.
async function hercEs2File(vol) {
  if (!(await open('herc'))) return;
  await page.waitForSelector('#herc-es2-open');
  await page.setInputFiles('#herc-es2-open', { name: 'OTHER.VOL', mimeType: 'application/octet-stream', buffer: Buffer.alloc(64, 1) });
  await page.waitForFunction(() => /SIMVOL0/.test(document.getElementById('herc-es2-status').textContent), null, { timeout: 10000 });
  const bad = await page.textContent('#herc-es2-status');
  check(bad.includes('no SIMVOL0.VOL') && bad.includes('found OTHER.VOL') && !(await page.$('#herc-es2')),
    `herc VOL files: files without SIMVOL0.VOL are refused with what was found ("${bad.trim()}")`);
  await page.setInputFiles('#herc-es2-open', vol);
  await hercEs2Plays('herc VOL files');
  await screenshot('static_user_vol');
}

async function hercEs2Plays(label) {
  const row = '#herc-es2 [data-entry$="BIPED.DTS"]';
  await page.waitForSelector(row, { timeout: 10000 });
  const text = await page.textContent(row);
  check(text.includes('15 nodes · 8 sequences · 14 meshes'), `${label}: the folder's shape is listed (${text.trim()})`);
  const before = await page.getAttribute('#view-herc', 'data-session');
  await page.click(row);
  await page.waitForFunction((b) => {
    const v = document.getElementById('view-herc');
    return v.dataset.session && v.dataset.session !== b;
  }, before, { timeout: 10000 });
  const { id } = await sessionLine('herc');
  const s = await api(`/sessions/${id}`);
  check(s.scenario.asset_es2 && s.scenario.asset_es2.entry === 'dts\\BIPED.DTS' && s.line.threads.length === 1,
    `${label}: clicking the shape starts a session on it (${JSON.stringify(s.scenario.asset_es2)})`);
  await hercMeshesFollowTrace('for the ES2 shape', 'SIMVOL0.VOL:dts\\BIPED.DTS');
  await hercTextured('for the ES2 shape', 'SIMVOL0.VOL:dpl\\WORLD1.DPL', 'SIMVOL0.VOL:dba\\LIGHT.DBA');
  // H85: the chassis record dat\BIPED.DAT names the sequences by role and the cockpit node.
  await page.waitForFunction(() => /\bwalk\b/.test(document.getElementById('herc-seq-list').textContent), null, { timeout: 10000 }).catch(() => {});
  const seqs = await page.$$eval('#herc-seq-list [data-seq]', (r) => r.map((x) => x.textContent.trim()));
  const parts = await page.textContent('#herc-parts').catch(() => '');
  check(seqs.some((t) => /^1 walk\b/.test(t)) && seqs.some((t) => /^7 idle_reverse\b/.test(t)) && parts.includes('cockpit (3)') && parts.includes('node 2 (2)'),
    `${label}: sequences and the cockpit node are named from the chassis record, others numbered (${seqs.slice(0, 3).join(' | ')}…; parts ${parts.includes('cockpit (3)') ? 'cockpit (3)' : 'no cockpit'})`);
  for (let i = 0; i < 5; i++) await page.click('#herc-step');
  await page.waitForFunction(() => document.getElementById('herc-step-count').textContent.startsWith('5 '));
  await hercMeshesFollowTrace('for the ES2 shape after 5 steps', 'SIMVOL0.VOL:dts\\BIPED.DTS');
  // The shape on screen: a DTS names no sequences; its clips take the names the view shows,
  // the roles its chassis record gives them (H85).
  await checkGltf('herc', 'herc-BIPED.glb', ['idle', 'walk', 'run', 'turn', 'death', 'twist', 'pitch', 'idle_reverse'], ' for the ES2 shape');
}

// ---- AC: run, tick, the substate and position follow the engine
// The drawn parts of the AC creature (window.__acFigure, the world frames the page
// gives its three.js meshes) against the current trace line: root frame combined with
// the part frames of the Sequence's current clip at floor(seq.frame), taken from the
// figure endpoint's clip frames. Rotation written out here, not imported from the page.
async function figureFollowsTrace(when, figurePath = null) {
  const { id, line } = await sessionLine('ac');
  await page.waitForFunction((step) => window.__acFigure && window.__acFigure.step === step, line.step, { timeout: 10000 }).catch(() => {});
  const drawn = await page.evaluate(() => window.__acFigure);
  const fig = (await api(figurePath || `/sessions/${id}/figure`)).figure;
  if (!check(drawn && fig && fig.setup, `ac: the creature is drawn ${when} (${drawn ? drawn.parts.length : 0} parts)`)) return;
  const node = line.seq.anims[line.seq.curr];
  const frames = fig.anims[node.anim][Math.floor(line.seq.frame)];
  const [w, x, y, z] = line.frame.orientation;
  const rot = (v) => {
    // v' = q v q*, expanded as a rotation matrix
    return [
      (1 - 2 * (y * y + z * z)) * v[0] + 2 * (x * y - w * z) * v[1] + 2 * (x * z + w * y) * v[2],
      2 * (x * y + w * z) * v[0] + (1 - 2 * (x * x + z * z)) * v[1] + 2 * (y * z - w * x) * v[2],
      2 * (x * z - w * y) * v[0] + 2 * (y * z + w * x) * v[1] + (1 - 2 * (x * x + y * y)) * v[2],
    ];
  };
  let worst = 0;
  frames.forEach((f, i) => {
    const r = rot([f[0], f[1], f[2]]);
    const want = [line.frame.origin[0] + r[0], line.frame.origin[1] + r[1], line.frame.origin[2] + r[2]];
    const got = drawn.parts[i].origin;
    worst = Math.max(worst, ...want.map((v, k) => Math.abs(v - got[k])));
  });
  check(drawn.step === line.step && drawn.anim === node.anim && drawn.parts.length === frames.length && worst < 1e-4,
    `ac: ${when}, the ${drawn.parts.length} drawn parts sit at the part frames of ${node.anim} frame ${Math.floor(line.seq.frame)} on the root (step ${drawn.step} of ${line.step}, worst error ${worst.toExponential(1)} m)`);
  const three = await page.evaluate(() => !!document.querySelector('#ac-figure canvas.view3d'));
  console.log(`     ac figure drawn with ${three ? 'three.js (WebGL)' : 'the 2D fallback'}`);
}

// The sample humanoid is drawn textured, not flat-shaded: on each side face of its
// torso (a 0.4 × 0.2 × 0.5 m box centred on the part, DXT1 image of 8 horizontal
// stripes, 4 texels each of 32, blue 0x2050c0 and light grey 0xe0e0e0 from the top,
// v = 0 at the top) the points at v = 2/32 (z = 0.25 − 0.5·2/32) and v = 6/32 lie in a
// blue and a grey stripe of the same face. A flat-shaded face has one colour at both; a
// textured one shows a bluish pixel (blue over red by more than 40) above a brighter one.
async function figureIsTextured(when, figurePath = null) {
  const { id } = await sessionLine('ac');
  const fig = (await api(figurePath || `/sessions/${id}/figure`)).figure;
  const torso = fig.surfaces && fig.surfaces['0x08000101'];
  check(torso && torso.format === 'DXT1' && torso.width === 32 && typeof torso.rgba === 'string' && torso.rgba.length === Math.ceil(32 * 32 * 4 / 3) * 4,
    `ac: ${when}, the figure endpoint sends the torso's DXT1 surface decoded (${torso ? `${torso.width}×${torso.height} ${torso.format}` : 'missing'})`);
  const three = await page.evaluate(() => !!document.querySelector('#ac-figure canvas.view3d'));
  if (!three) {
    check(false, `ac: ${when}, the textured figure needs WebGL (the 2D fallback draws outlines only)`);
    return;
  }
  const faces = [[0, -0.1, 'front −y'], [0, 0.1, 'back +y'], [0.2, 0, 'side +x'], [-0.2, 0, 'side −x']];
  const samples = await page.evaluate((faces) => faces.map(([x, y, name]) => ({
    name,
    blue: window.__acFigurePixel(1, [x, y, 0.25 - 0.5 * 2 / 32]),
    grey: window.__acFigurePixel(1, [x, y, 0.25 - 0.5 * 6 / 32]),
  })), faces);
  const lum = (c) => c[0] + c[1] + c[2];
  const textured = samples.filter((f) => f.blue && f.grey
    && f.blue.rgba[2] - f.blue.rgba[0] > 40 && lum(f.grey.rgba) - lum(f.blue.rgba) > 60);
  check(textured.length > 0,
    `ac: ${when}, the torso is drawn textured: stripes of one face differ (${samples.map((f) => `${f.name} ${f.blue ? f.blue.rgba.slice(0, 3) : '-'} / ${f.grey ? f.grey.rgba.slice(0, 3) : '-'}`).join('; ')})`);
}

async function ac() {
  if (!(await open('ac'))) return;
  await waitValue('#ac-substate', (v) => v !== '' && v !== undefined, 'the first trace line');
  // The motion table panel (GET /sessions/ID/assets), under the server and in the static page.
  const listed = await page.waitForFunction(() => /table 0x09000001/.test(document.getElementById('ac-table-list').textContent), null, { timeout: 10000 }).then(() => true, () => false);
  const tableRows = await page.$$eval('#ac-table-list > div', (d) => d.map((x) => x.textContent));
  check(listed && tableRows.some((r) => r.startsWith('NonCombat · WalkForward: 0x03000102(30f)')),
    `ac: the motion table panel lists table 0x09000001 (${tableRows.length} rows, NonCombat WalkForward with its 30-frame clip)`);
  const before = await value('#ac-substate');
  await page.click('#ac-run');
  await waitValue('#ac-substate', (v, a) => v !== a, 'the substate to change', 5000, before);
  const shown = await value('#ac-substate');
  const { line } = await sessionLine('ac');
  check(shown !== before && shown === line.table.substate,
    `ac: after "Run" the page shows substate ${shown} (was ${before}); the engine says ${line.table.substate}`);
  check(line.op === 'do_motion' && line.interp.raw.forward_command !== undefined, `ac: the engine applied do_motion (${line.op}, result ${line.result})`);
  const o0 = line.frame.origin;
  for (let i = 0; i < 10; i++) await page.click('#ac-step');
  await page.waitForFunction(() => document.getElementById('ac-step-count').textContent.startsWith('11 '));
  const moved = await sessionLine('ac');
  const o1 = moved.line.frame.origin;
  const shownOrigin = await page.textContent('#ac-origin');
  const shownNums = (shownOrigin.match(/-?[\d.]+(e-?\d+)?/g) || []).map(Number);
  check(Math.hypot(o1[0] - o0[0], o1[1] - o0[1]) > 0 && shownNums.length === 3
    && shownNums.every((x, i) => Math.abs(x - o1[i]) < 1e-3),
    `ac: running moves the root from ${JSON.stringify(o0)} to ${JSON.stringify(o1)} (shown ${shownOrigin})`);
  await figureFollowsTrace('while running');
  await figureIsTextured('while running');
  const nodes = await page.$$eval('#ac-timeline .node', (n) => n.length);
  check(nodes === moved.line.seq.anims.length, `ac: the timeline shows the ${moved.line.seq.anims.length} animation nodes`);
  // Back to walking: a link animation then the walk cycle, visible in the timeline.
  await page.click('#ac-walk');
  for (let i = 0; i < 2; i++) await page.click('#ac-step');
  await page.waitForFunction(() => document.getElementById('ac-step-count').textContent.startsWith('14 '));
  const walking = await sessionLine('ac');
  const shownNodes = await page.$$eval('#ac-timeline .node', (n) => n.map((x) => x.className));
  check(shownNodes.length === walking.line.seq.anims.length
    && shownNodes.filter((c) => c.includes('current')).length === (walking.line.seq.curr === null ? 0 : 1),
    `ac: after "Walk" the timeline shows ${shownNodes.length} nodes with the current one marked (engine: curr ${walking.line.seq.curr} of ${walking.line.seq.anims.length})`);
  await figureFollowsTrace('after walking');
  await screenshot('ac');

  // Keys: W held walks (do_motion on press), released stops (stop_motion).
  // The page applies steps in order, but the display still shows the walk from above until
  // "Stop completely" is answered: wait for Ready first, or the W wait below could pass on
  // that stale walk and the final read could land between the key's two steps.
  await page.click('#ac-stop-completely');
  const readyFirst = await waitValue('#ac-substate', (v) => v === '0x41000003', 'Ready after "Stop completely"');
  await page.focus('body');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.down('w');
  const walkKey = await waitValue('#ac-substate', (v) => v === '0x45000005', 'WalkForward from the W key');
  await page.keyboard.up('w');
  const stopKey = await waitValue('#ac-substate', (v) => v === '0x41000003', 'Ready after releasing W');
  const keyed = (await sessionLine('ac')).line;
  check(readyFirst && walkKey && stopKey && keyed.op === 'stop_motion' && keyed.table.substate === '0x41000003',
    `ac: holding W walks and releasing it stops (last op ${keyed.op}, substate ${keyed.table.substate})`);
}

// ---- AC move-to world: place object 2, move object 1 to it, move the target twice
// while it is chased, tick to the arrival; the page's map and lists follow the trace's
// `moveto` key, and the exported scenario replays to the identical trace.
const stepCount = async (view) => parseInt(await page.textContent(`#${view}-step-count`), 10);
async function waitSteps(view, n) {
  await page.waitForFunction(([v, m]) => parseInt(document.getElementById(`${v}-step-count`).textContent, 10) === m, [view, n], { timeout: 20000 });
}
// Viewport coordinates of world point (x, y) on the world map (scrolled into view).
async function mapPoint(x, y) {
  return page.evaluate(([wx, wy]) => {
    const cv = document.getElementById('ac-world-map');
    cv.scrollIntoView({ block: 'center' });
    const r = cv.getBoundingClientRect();
    const [px, py] = window.__acWorld.toPixel(wx, wy);
    return [r.left + (px * r.width) / cv.width, r.top + (py * r.height) / cv.height];
  }, [x, y]);
}
async function ticks(n) {
  const at = await stepCount('ac');
  for (let i = 0; i < n; i++) await page.click('#ac-step');
  await waitSteps('ac', at + n);
}
const near = (a, b) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) < 1e-6);
const objectOrigin = (line, id) => line.moveto.objects.find((o) => o.id === id).frame.origin;

async function acWorld() {
  if (skipped.includes('ac')) return;
  await page.goto(new URL('#ac', url).toString());
  await page.waitForFunction(() => document.getElementById('view-ac').dataset.ready === 'yes', null, { timeout: 20000 });
  await page.click('#ac-world-start');
  await page.waitForFunction(() => document.getElementById('ac-world').dataset.active === 'yes'
    && document.getElementById('ac-step-count').textContent.startsWith('0 '), null, { timeout: 20000 });
  const start = await sessionLine('ac');
  check(start.line.moveto && start.line.moveto.objects.map((o) => o.id).join() === '0x00000002,0x00000003',
    `ac world: the move-to world starts with objects 2 and 3 beside the main object (${start.line.moveto ? start.line.moveto.objects.length : 0} others)`);

  // Place object 2 at (5, 5) by clicking the map.
  await page.selectOption('#ac-world-click', '0x00000002');
  const [px, py] = await mapPoint(5, 5);
  await page.mouse.click(px, py);
  await waitSteps('ac', 1);
  let w = (await sessionLine('ac')).line;
  const row2 = JSON.parse(await page.getAttribute('#ac-world-objects tr[data-id="0x00000002"]', 'data-origin'));
  check(w.op === 'move_object' && near(objectOrigin(w, '0x00000002'), [5, 5, 0]) && near(row2, [5, 5, 0]),
    `ac world: a click on the map placed object 2 at ${JSON.stringify(objectOrigin(w, '0x00000002'))} (the page lists ${JSON.stringify(row2)})`);

  // Object 1 moves to object 2.
  await page.selectOption('#ac-world-mover', '0x00000001');
  await page.selectOption('#ac-world-target', '0x00000002');
  await page.click('#ac-move-to-object');
  await waitSteps('ac', 2);
  w = (await sessionLine('ac')).line;
  await waitValue('#ac-mt-type', (v) => v === 'MoveToObject', 'the move to show');
  const shownNodes = await page.$$eval('#ac-mt-nodes li', (li) => li.map((x) => x.textContent));
  check(w.op === 'move_to_object' && w.moveto.mgr.movement_type === 'MoveToObject'
    && (await value('#ac-mt-type')) === 'MoveToObject'
    && shownNodes.length === w.moveto.mgr.pending.length && shownNodes.every((t, i) => t.startsWith(w.moveto.mgr.pending[i][0])),
    `ac world: move_to_object started; the node list shows ${JSON.stringify(shownNodes)}, the engine's pending actions are ${JSON.stringify(w.moveto.mgr.pending)}`);
  await ticks(20);

  // Drag the target away twice while it is chased.
  const drag = async (from, to) => {
    const n = await stepCount('ac');
    const a = await mapPoint(...from);
    await page.mouse.move(a[0], a[1]);
    await page.mouse.down();
    const b = await mapPoint(...to);
    await page.mouse.move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, { steps: 4 });
    await page.mouse.move(b[0], b[1], { steps: 4 });
    await page.mouse.up();
    await waitSteps('ac', n + 1);
    const l = (await sessionLine('ac')).line;
    check(l.op === 'move_object' && near(objectOrigin(l, '0x00000002'), [...to, 0]),
      `ac world: dragging object 2 from ${JSON.stringify(from)} to ${JSON.stringify(to)} moved it to ${JSON.stringify(objectOrigin(l, '0x00000002'))} (mover at ${JSON.stringify(l.frame.origin)}, ${l.moveto.mgr.movement_type})`);
  };
  await drag([5, 5], [8, 0]);
  await ticks(20);
  await drag([8, 0], [6, -4]);
  await ticks(10);
  if (shots) {
    // mid-chase: the node list, the line to the last reported target position, trails
    await page.evaluate(() => document.getElementById('ac-world').scrollIntoView({ block: 'start' }));
    mkdirSync(shotsDir, { recursive: true });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(shotsDir, 'ac_moveto.png') });
    console.log('     screenshot docs/screenshots/ac_moveto.png');
  }
  // Tick until the mover's move-to ends.
  let arrived = false;
  for (let i = 0; i < 20 && !arrived; i++) {
    await ticks(10);
    arrived = (await value('#ac-mt-type')) === 'Invalid';
  }
  w = (await sessionLine('ac')).line;
  const t2 = objectOrigin(w, '0x00000002');
  const gap = Math.hypot(w.frame.origin[0] - t2[0], w.frame.origin[1] - t2[1]);
  check(arrived && w.moveto.mgr.movement_type === 'Invalid' && w.moveto.last_weenie === 'None'
    && (await value('#ac-mt-last')) === 'None' && gap < 0.6 + 0.5 + 0.5 + 0.1,
    `ac world: the chase arrived (move complete ${w.moveto.last_weenie}, page ${await value('#ac-mt-last')}); object 1 at ${JSON.stringify(w.frame.origin)}, ${gap.toFixed(3)} m from object 2's centre`);
  const drawn = await page.evaluate(() => window.__acWorld.drawn);
  const engineObjs = [w.frame.origin, ...w.moveto.objects.map((o) => o.frame.origin)];
  check(drawn.step === w.step && drawn.objects.length === 3 && drawn.objects.every((o, i) => near(o.origin, engineObjs[i]))
    && drawn.objects[0].trail > 30 && drawn.objects[1].trail === 4,
    `ac world: the map draws the 3 objects where the engine has them, with trails of ${drawn.objects.map((o) => o.trail).join(', ')} points`);
  const in3d = await page.evaluate(() => window.__acFigureOthers);
  check(in3d && in3d.length === 2 && in3d.every((o, i) => near(o.origin, engineObjs[i + 1]) && o.in3d),
    `ac world: objects 2 and 3 are drawn in 3D beside the creature (${JSON.stringify(in3d && in3d.map((o) => o.origin))})`);
  if (shots) {
    await page.evaluate(() => document.getElementById('ac-figure').scrollIntoView({ block: 'start' }));
    mkdirSync(shotsDir, { recursive: true });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(shotsDir, 'ac_moveto_3d.png') });
    console.log('     screenshot docs/screenshots/ac_moveto_3d.png');
  }

  // Every action was a step: the exported scenario replays to the same trace.
  const trace = await downloadText('#ac-export-trace');
  const scen = await downloadText('#ac-export-scenario');
  const count = await stepCount('ac');
  check(trace.trim().split('\n').length === count + 1 && JSON.parse(scen).steps.length === count,
    `ac world: the exported trace has ${trace.trim().split('\n').length} lines and the scenario ${JSON.parse(scen).steps.length} steps for ${count} steps`);
  await page.setInputFiles('#ac-load-file', { name: 'world.json', mimeType: 'application/json', buffer: Buffer.from(scen) });
  await page.waitForFunction(() => /replayed \d+ steps/.test(document.getElementById('ac-status').textContent), null, { timeout: 60000 });
  const again = await downloadText('#ac-export-trace');
  check(again === trace, 'ac world: loading the exported scenario replays to the identical trace');

  // Export glTF: the sample humanoid as binary glTF with the 28 clips of its motion table.
  await checkGltf('ac', 'ac-0x02000001-0x09000001.glb', 28);

  // Stick and leash (the move has ended), then a turn to a heading.
  const cell = (id, col) => page.$eval(`#ac-world-objects tr[data-id="${id}"] td:nth-child(${col})`, (e) => e.textContent);
  const n0 = await stepCount('ac');
  await page.click('#ac-stick');
  await waitSteps('ac', n0 + 1);
  let l = (await sessionLine('ac')).line;
  const stuck = await cell('0x00000001', 5);
  check(l.op === 'stick_to' && l.moveto.sticky.target === '0x00000002' && stuck === '2',
    `ac world: "Stick to target" sticks object 1 to ${l.moveto.sticky && l.moveto.sticky.target} (the table says ${stuck})`);
  await page.click('#ac-constrain');
  await waitSteps('ac', n0 + 2);
  l = (await sessionLine('ac')).line;
  const leash = await cell('0x00000001', 6);
  const c = l.moveto.constraint;
  check(l.op === 'constrain_to' && c.constrained && c.start === 2 && c.max === 4 && near(c.position.origin, [0, 0, 0]) && leash === '[0, 0, 0] (2..4)',
    `ac world: "Leash to position" constrains object 1 to the picked position (engine ${JSON.stringify(c && c.position.origin)} ${c && c.start}..${c && c.max}; the table says ${leash})`);
  await page.click('#ac-unconstrain');
  await page.click('#ac-unstick');
  await waitSteps('ac', n0 + 4);
  l = (await sessionLine('ac')).line;
  check(l.op === 'unstick' && l.moveto.constraint.constrained === false && l.moveto.sticky.target === '0x00000000'
    && (await cell('0x00000001', 5)) === '—' && (await cell('0x00000001', 6)) === '—',
    'ac world: "Unleash" and "Unstick" free object 1 (engine and table)');
  await page.fill('#ac-mt-heading', '90');
  await page.click('#ac-turn-to-heading');
  await waitSteps('ac', n0 + 5);
  l = (await sessionLine('ac')).line;
  const turnNodes = await page.$$eval('#ac-mt-nodes li', (li) => li.map((x) => x.textContent));
  check(l.op === 'turn_to_heading' && l.moveto.mgr.movement_type === 'TurnToHeading'
    && JSON.stringify(l.moveto.mgr.pending) === '[["TurnToHeading",90]]' && JSON.stringify(turnNodes) === '["TurnToHeading 90°"]',
    `ac world: "Turn to heading" 90 queues ${JSON.stringify(l.moveto.mgr.pending)} (the node list shows ${JSON.stringify(turnNodes)})`);
}

// ---- AC with the user's DAT (`browse --ac-dat FILE`, a second server given by
// RETROANIM_E2E_DAT_URL; the DAT is written by the project's own writer from the sample
// records): the table list appears, one table plays, the figure is drawn from the DAT.
async function acDat(datUrl) {
  base = datUrl;
  try {
    await page.goto(new URL('#ac', datUrl).toString());
    await page.waitForFunction(() => document.getElementById('view-ac').dataset.ready, null, { timeout: 20000 });
    check((await page.getAttribute('#view-ac', 'data-ready')) === 'yes', 'ac DAT: view mounted with --ac-dat');
    await page.waitForSelector('#ac-dat-table');
    await acDatPlays('ac DAT', 'ac_dat');
  } finally {
    base = url;
  }
}

// ---- AC with a DAT the visitor opens in the static page (RETROANIM_E2E_DAT_FILE,
// written by the project's own writer): the file goes through the file input, the
// module's worker reads it in slices, and the listing and playback are the server's.
async function acDatFile(file) {
  await page.goto(new URL('#ac', url).toString());
  await page.waitForFunction(() => document.getElementById('view-ac').dataset.ready, null, { timeout: 20000 });
  await page.waitForSelector('#ac-dat-open');
  // A file that is not a DAT: a located message in the panel, nothing listed.
  await page.setInputFiles('#ac-dat-open', { name: 'not_a.dat', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2048, 7) });
  await page.waitForFunction(() => /not_a\.dat:/.test(document.getElementById('ac-dat-status').textContent), null, { timeout: 10000 });
  const bad = await page.textContent('#ac-dat-status');
  check(bad.startsWith('not_a.dat: not a DAT container') && bad.includes('0x140') && !(await page.$('#ac-dat-table')),
    `ac DAT file: a file that is not a DAT is refused with its name and where the magic should be ("${bad.trim()}")`);
  await page.setInputFiles('#ac-dat-open', file);
  await page.waitForSelector('#ac-dat-table', { timeout: 20000 });
  await acDatPlays('ac DAT file', 'static_user_dat');
}

// The panel of an open DAT lists the sample table and Setup, plays the table and draws
// the figure from the DAT (both sites).
async function acDatPlays(label, shot) {
  const listing = await api('/ac/dat');
  const fileText = await page.textContent('#ac-dat-file');
  const tables = await page.$$eval('#ac-dat-table option', (o) => o.map((x) => x.value));
  const setups = await page.$$eval('#ac-dat-setup option', (o) => o.map((x) => x.value).filter(Boolean));
  check(listing.open && tables.join() === '0x09000001' && setups.join() === '0x02000001'
    && fileText.includes('1 motion tables, 1 Setups') && fileText.includes(listing.file),
    `${label}: the panel lists the DAT's tables ${JSON.stringify(tables)} with their Setups ${JSON.stringify(setups)} ("${fileText.trim()}")`);
  const before = await page.getAttribute('#view-ac', 'data-session');
  await page.click('#ac-dat-play');
  await page.waitForFunction((b) => document.getElementById('view-ac').dataset.session !== b, before, { timeout: 10000 });
  const id = await page.getAttribute('#view-ac', 'data-session');
  const s = await api(`/sessions/${id}`);
  check(s.scenario.asset_dat === 'user' && s.scenario.setup.motion_table === '0x09000001' && s.step_count === 0,
    `${label}: "Play this table" started a session on the DAT's table (asset_dat ${s.scenario.asset_dat}, table ${s.scenario.setup.motion_table})`);
  await page.click('#ac-run');
  await waitValue('#ac-substate', (v) => v === '0x44000007', 'RunForward from the DAT table');
  await ticks(6);
  const { line } = await sessionLine('ac');
  check(line.table.substate === '0x44000007' && line.frame.origin[1] > 0 && (await value('#ac-substate')) === line.table.substate,
    `${label}: the table plays: Run gives substate ${line.table.substate} and the root moved to ${JSON.stringify(line.frame.origin)}`);
  await figureFollowsTrace(`${label}: from the DAT`, '/ac/dat/figure?table=0x09000001&setup=0x02000001');
  // The DAT (the server's, or the file opened in the static page) carries the sample's
  // texture records: drawn textured, not flat, on both sites.
  await figureIsTextured(`${label}: from the DAT`, '/ac/dat/figure?table=0x09000001&setup=0x02000001');
  await screenshot(shot);
}

// ---- actor: a forced request starts the group at once
async function actor() {
  if (!(await open('actor'))) return;
  const intro = await page.textContent('#actor-intro');
  const folded = await page.evaluate(() => [...document.querySelectorAll('#view-actor details')].every((d) => !d.open));
  check(/^Press Play/.test(intro) && folded, `actor: the view starts with what you can do ("${intro.slice(0, 50)}…") and its details are folded`);
  // A sample scenario from assets/actor/scenarios/ replays through the player.
  const samples = await page.$$eval('#actor-samples option', (o) => o.map((x) => x.value).filter(Boolean));
  if (samples.length) {
    const name = samples.includes('moving_view.json') ? 'moving_view.json' : samples[0];
    await page.selectOption('#actor-samples', name);
    await page.waitForFunction(() => /replayed \d+ steps/.test(document.getElementById('actor-status').textContent), null, { timeout: 60000 });
    const doc = await api(`/engines/actor/samples/${name}`);
    const { steps } = await sessionLine('actor');
    check(steps === doc.steps.length, `actor: the sample ${name} replays all ${doc.steps.length} steps (${steps})`);
    // Back to the setup state of that scenario for the checks below.
    await page.click('#actor-reset');
    await page.waitForFunction(() => document.getElementById('actor-step-count').textContent.startsWith('0 '));
  }
  await waitValue('#actor-current', (v) => v !== undefined && v !== '', 'the first trace line');
  const before = await value('#actor-current');
  await page.waitForSelector('#actor-group option', { state: 'attached' });
  const groups = await page.$$eval('#actor-group option', (o) => o.map((x) => x.value));
  const target = groups.find((g) => g !== before);
  check(target !== undefined, `actor: the group list offers a group other than the current ${before} (${groups})`);
  await page.selectOption('#actor-group', target);
  await page.click('#actor-force');
  await waitValue('#actor-current', (v) => v !== undefined, 'the forced request');
  await page.waitForFunction(() => /force_request/.test(document.getElementById('actor-result').textContent));
  const shown = await value('#actor-current');
  const { line } = await sessionLine('actor');
  const selected = await page.inputValue('#actor-select');
  const a = line.actors.find((x) => x.id === selected);
  check(shown === target && a.anim.current === Number(target),
    `actor: after a forced request for group ${target} the page shows current ${shown} (was ${before}); the engine says ${a.anim.current} (${line.result})`);
  for (let i = 0; i < 8; i++) await page.click('#actor-step');
  await page.waitForFunction(() => document.getElementById('actor-step-count').textContent.startsWith('9 '));
  const rows = await page.$$eval('#actor-members tr', (r) => r.length - 1);
  const last = (await sessionLine('actor')).line;
  check(rows === last.members.length, `actor: the update list shows all ${last.members.length} actors with the reason`);
  await checkGltf('actor', 'actor-flag2.glb', ['idle', 'wave', 'gust']);
  await screenshot('actor');
}

// Each view's exported trace and scenario, after two more steps, into `dir` as
// VIEW.jsonl and VIEW.json (the caller replays the scenario with `retroanim run`).
async function saveExports(dir) {
  for (const view of ['herc', 'ac', 'actor']) {
    await page.goto(new URL(`#${view}`, url).toString());
    await page.waitForFunction((v) => document.getElementById(`view-${v}`).dataset.ready, view, { timeout: 20000 });
    if ((await page.getAttribute(`#view-${view}`, 'data-ready')) !== 'yes') continue;
    const count = async () => parseInt(await page.textContent(`#${view}-step-count`), 10);
    const n = await count();
    for (let i = 0; i < 2; i++) await page.click(`#${view}-step`);
    await page.waitForFunction(([v, m]) => parseInt(document.getElementById(`${v}-step-count`).textContent, 10) === m, [view, n + 2]);
    writeFileSync(join(dir, `${view}.jsonl`), await downloadText(`#${view}-export-trace`));
    writeFileSync(join(dir, `${view}.json`), await downloadText(`#${view}-export-scenario`));
    check(true, `${view}: exported the trace and scenario after ${n + 2} steps`);
  }
}

// The `retroanim bench ac` workload (10,000 creatures) through the in-page module, three
// times; with RETROANIM_E2E_EXPORTS the rates and the checksum (as `retroanim bench` prints
// it) go to bench.json there, for the caller to set beside the native figures.
async function benchInPage(ticks) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const r = await page.evaluate((t) => import(new URL('static/wasm-api.js', document.baseURI).href).then((m) => m.benchAc(10000, t)), Number(ticks));
    r.checksum = BigInt.asUintN(64, BigInt(r.checksum)).toString(16).padStart(16, '0');
    console.log(`     wasm bench ac: ${r.entities} entities x ${r.ticks} ticks in ${r.seconds.toFixed(3)} s = ${Math.round(r.rate)} entity-ticks/s (checksum ${r.checksum})`);
    runs.push(r);
  }
  if (process.env.RETROANIM_E2E_EXPORTS) writeFileSync(join(process.env.RETROANIM_E2E_EXPORTS, 'bench.json'), JSON.stringify(runs));
}

// The page's first animated frame: the herc view (the page's default) marks
// `retroanim:first-frame` when it first draws the engine's state, and the Performance API
// times that mark from the start of the navigation. Run first, so nothing is cached (the
// profile is new). The static site must draw it within 1.5 s.
async function firstFrame() {
  await page.goto(new URL('#herc', url).toString());
  const mark = await page.waitForFunction(() => {
    const m = performance.getEntriesByName('retroanim:first-frame')[0];
    return m ? m.startTime : false;
  }, null, { timeout: 20000 }).then((h) => h.jsonValue());
  await page.waitForFunction(() => document.getElementById('view-herc').dataset.ready, null, { timeout: 20000 });
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    const end = (name) => {
      const r = res.find((e) => e.name.endsWith(name));
      return r ? Math.round(r.responseEnd) : null;
    };
    return { dom: nav ? Math.round(nav.domContentLoadedEventEnd) : null, wasm: end('retroanim.wasm'), three: end('three.module.min.js') };
  });
  const wasm = process.env.RETROANIM_E2E_WASM === '1';
  console.log(`     first frame: ${mark.toFixed(0)} ms after navigation start (DOM ready ${t.dom} ms${wasm ? `, module downloaded ${t.wasm} ms` : ''}, three.js ${t.three} ms)`);
  if (wasm) check(mark <= 1500, `static site: the first animated frame is drawn ${mark.toFixed(0)} ms after navigation (at most 1500)`);
}

try {
  // RETROANIM_E2E_ONLY=hercPlay,acPlay runs only those checks (while working on them).
  const only = process.env.RETROANIM_E2E_ONLY ? process.env.RETROANIM_E2E_ONLY.split(',') : null;
  const runView = async (view) => {
    if (only && !only.includes(view.name)) return;
    try {
      await view();
    } catch (e) {
      check(false, `${view.name}: ${e.message.split('\n')[0]}`);
    }
  };
  await runView(firstFrame);
  for (const view of [herc, hercPlay, hercLong, ac, acIdle, acPlay, acWorld, actor, limits]) await runView(view);
  if (measured.herc) console.log(`     measured: HERC ${measured.herc.sps.toFixed(1)} steps/s, ${measured.herc.fps.toFixed(1)} fps; 29,000 steps in ${measured.long ? measured.long.seconds.toFixed(1) : '—'} s`);
  // Exported before the --es2 check moves the herc view onto the folder's shape (a
  // scenario naming the server's folder, which `retroanim run` cannot replay), so every
  // view's export is compared with `retroanim run` in both modes.
  if (process.env.RETROANIM_E2E_EXPORTS && !only) await saveExports(process.env.RETROANIM_E2E_EXPORTS);
  await runView(hercEs2);
  if (process.env.RETROANIM_E2E_DAT_URL && !only) {
    try {
      await acDat(process.env.RETROANIM_E2E_DAT_URL);
    } catch (e) {
      check(false, `acDat: ${e.message.split('\n')[0]}`);
    }
  }
  if (process.env.RETROANIM_E2E_DAT_FILE && (!only || only.includes('acDatFile'))) {
    try {
      await acDatFile(process.env.RETROANIM_E2E_DAT_FILE);
    } catch (e) {
      check(false, `acDatFile: ${e.message.split('\n')[0]}`);
    }
  }
  if (process.env.RETROANIM_E2E_VOL_FILE && (!only || only.includes('hercEs2File'))) {
    try {
      await hercEs2File(process.env.RETROANIM_E2E_VOL_FILE);
    } catch (e) {
      check(false, `hercEs2File: ${e.message.split('\n')[0]}`);
    }
  }
  if (process.env.RETROANIM_E2E_BENCH) await benchInPage(process.env.RETROANIM_E2E_BENCH);
  check(pageErrors.length === 0, `no errors in the page${pageErrors.length ? ': ' + pageErrors.join(' | ') : ''}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (skipped.length) console.log(`skipped views (engine not built): ${skipped.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
