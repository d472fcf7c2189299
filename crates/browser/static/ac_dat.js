// AC view, the user's own DAT (retroanim browse --ac-dat FILE): lists every motion
// table with the Setups naming it, plays the chosen table (the scenario's asset_dat
// "user" names the DAT the server opened) and draws the chosen Setup.

import { api, el } from './api.js';

// The panel, or null when the server opened no DAT. onPlay(scenario, table, setup).
export async function datPanel(onPlay) {
  const listing = await api('GET', '/ac/dat').catch(() => null);
  if (!listing || !listing.open) return null; // no --ac-dat
  const panel = el('div', { class: 'panel', id: 'ac-dat' }, el('h2', {}, 'Your DAT'));
  const tables = listing.tables || [];
  panel.append(el('p', { class: 'keys', id: 'ac-dat-file' },
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
      note: 'A motion table of the DAT given with --ac-dat ("user"); to replay with retroanim run, put the DAT path here.',
      setup: { motion_table: tableSel.value, origin: [0, 0, 0], orientation: [1, 0, 0, 0], contact: true, on_walkable: true, in_cell: true, run_rate: 1, is_creature: true },
    };
    onPlay(scenario, tableSel.value, setupSel.value || null);
  } }, 'Play this table');
  panel.append(el('div', { class: 'row' }, el('label', {}, 'motion table', tableSel), el('label', {}, 'Setup', setupSel), play));
  return panel;
}
