// Tabs: each view is mounted the first time it is shown (a canvas needs its size).

import { api, el } from './api.js';

const views = {
  herc: () => import('./herc.js'),
  ac: () => import('./ac.js'),
  actor: () => import('./actor.js'),
};
const titles = { herc: 'HERC', ac: 'AC', actor: 'actor' };
const mounted = {};
let engines = null;

async function show(name) {
  if (!views[name]) name = 'herc';
  for (const n of Object.keys(views)) {
    document.getElementById(`view-${n}`).hidden = n !== name;
    document.getElementById(`tab-${n}`).classList.toggle('active', n === name);
  }
  if (mounted[name]) {
    mounted[name].then((v) => v && v.shown && v.shown());
    return;
  }
  const root = document.getElementById(`view-${name}`);
  mounted[name] = (async () => {
    if (!engines) engines = await api('GET', '/engines');
    const info = engines.engines.find((e) => e.name === name);
    if (!info || !info.built) {
      root.append(el('p', { class: 'notbuilt', id: `${name}-notbuilt` },
        `The ${titles[name]} engine is not built into this browser yet: this view will drive it once the `
        + `engine crate lands.`));
      root.dataset.ready = 'notbuilt';
      return null;
    }
    if (!info.assets_present) {
      root.append(el('p', { class: 'notbuilt', id: `${name}-notbuilt` },
        `The sample assets of the ${titles[name]} engine are missing (expected assets/${name}/ under the assets root).`));
      root.dataset.ready = 'notbuilt';
      return null;
    }
    const mod = await views[name]();
    const view = await mod.mount(root, info);
    root.dataset.ready = 'yes';
    return view;
  })().catch((e) => {
    root.append(el('p', { class: 'status error' }, `cannot start this view: ${e.message}`));
    root.dataset.ready = 'error';
    return null;
  });
}

window.addEventListener('hashchange', () => show(location.hash.slice(1)));
show(location.hash.slice(1) || 'herc');
