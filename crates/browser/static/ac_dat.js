// AC view, the user's own DAT: lists every motion table with the Setups naming it,
// plays the chosen table (the scenario's asset_dat "user" names the DAT) and draws the
// chosen Setup. On the server the DAT is the one given with `retroanim browse --ac-dat
// FILE`; the static page opens one the visitor picks or drops here, read in place by
// the module's worker (user_files.js), nothing uploaded.

import { api, el } from './api.js';
import { openUserDat } from './user_files.js';

// Fill `panel` with the listing's table and Setup choices and the Play button.
function fill(panel, listing, onPlay) {
  panel.querySelectorAll('.dat-listing').forEach((e) => e.remove());
  const tables = listing.tables || [];
  const box = el('div', { class: 'dat-listing' });
  box.append(el('p', { class: 'keys', id: 'ac-dat-file' },
    `${listing.file}: ${tables.length} motion tables, ${listing.setup_count} Setups` +
    (listing.unreadable_setups ? ` (${listing.unreadable_setups} unreadable: ${listing.first_unreadable_setup})` : '') + '. Read-only.'));
  const tableSel = el('select', { id: 'ac-dat-table' });
  for (const t of tables) tableSel.append(el('option', { value: t.id }, `${t.id}${t.setups.length ? ` (${t.setups.length} Setups)` : ' (no Setup names it)'}`));
  const setupSel = el('select', { id: 'ac-dat-setup' });
  const fillSetups = () => {
    const t = tables.find((x) => x.id === tableSel.value);
    setupSel.replaceChildren(el('option', { value: '' }, 'no figure'), ...((t && t.setups) || []).map((s) => el('option', { value: s }, s)));
    if (t && t.setups.length) setupSel.value = t.setups[0];
  };
  tableSel.addEventListener('change', fillSetups);
  fillSetups();
  const play = el('button', { id: 'ac-dat-play', onclick: () => {
    const scenario = {
      engine: 'ac', asset_dat: 'user',
      note: 'A motion table of your own DAT ("user"); to replay with retroanim run, put the DAT path here.',
      setup: { motion_table: tableSel.value, origin: [0, 0, 0], orientation: [1, 0, 0, 0], contact: true, on_walkable: true, in_cell: true, run_rate: 1, is_creature: true },
    };
    onPlay(scenario, tableSel.value, setupSel.value || null);
  } }, 'Play this table');
  box.append(el('div', { class: 'row' }, el('label', {}, 'motion table', tableSel), el('label', {}, 'Setup', setupSel), play));
  panel.append(box);
}

// The panel, or null when there is no DAT to show (a server started without --ac-dat).
// onPlay(scenario, table, setup).
export async function datPanel(onPlay) {
  const listing = await api('GET', '/ac/dat').catch(() => null);
  const panel = el('div', { class: 'panel', id: 'ac-dat' }, el('h2', {}, 'Your DAT'));
  if (globalThis.RETROANIM_WASM) {
    panel.append(openUserDat((l) => fill(panel, l, onPlay)));
    if (listing && listing.open) fill(panel, listing, onPlay);
    return panel;
  }
  if (!listing || !listing.open) return null; // no --ac-dat
  fill(panel, listing, onPlay);
  return panel;
}
