// The static page's "open your own files" controls: a file button and a drop zone for
// client_portal.dat (AC view) and for an Earthsiege 2 folder's VOL files (HERC view). The file stays where it is: the module's Web Worker reads the
// slices it needs (wasm-api.js openFile), so nothing is uploaded and a 1 GB DAT is
// never read whole.

import { el } from './api.js';

// The control; onListing(listing) gets the DAT's listing once it is read.
export function openUserDat(onListing) {
  const status = el('p', { class: 'keys', id: 'ac-dat-status' },
    'Open or drop your client_portal.dat here to list its motion tables and play them. Your file is read in place, never uploaded.');
  const input = el('input', { type: 'file', id: 'ac-dat-open', accept: '.dat' });
  const open = async (file) => {
    if (!file) return;
    status.textContent = `Reading ${file.name} (${file.size} bytes)…`;
    try {
      const { openFile } = await import('./wasm-api.js');
      const listing = await openFile(file);
      status.textContent = `${file.name} is open.`;
      onListing(listing);
    } catch (e) {
      // The module's message names the file and where it went wrong.
      status.textContent = String(e.message || e);
      status.classList.add('error');
      return;
    }
    status.classList.remove('error');
  };
  input.addEventListener('change', () => open(input.files && input.files[0]));
  const zone = el('div', { class: 'drop', id: 'ac-dat-drop' }, status, el('label', {}, 'Your DAT file ', input));
  zone.addEventListener('dragover', (ev) => { ev.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (ev) => {
    ev.preventDefault();
    zone.classList.remove('over');
    open(ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0]);
  });
  return zone;
}

// The HERC view's control; onListing(listing) gets the archives' listing once read.
export function openUserVols(onListing) {
  const status = el('p', { class: 'keys', id: 'herc-es2-status' },
    'Open or drop your Earthsiege 2 folder\'s VOL files (SIMVOL0.VOL and the others) to list their shapes and play them. Read in place, never uploaded.');
  const input = el('input', { type: 'file', id: 'herc-es2-open', accept: '.vol,.VOL', multiple: true });
  const open = async (files) => {
    if (!files || !files.length) return;
    status.textContent = `Reading ${files.length} files…`;
    try {
      const { openVols } = await import('./wasm-api.js');
      const listing = await openVols([...files]);
      status.textContent = `${files.length} files are open.`;
      status.classList.remove('error');
      onListing(listing);
    } catch (e) {
      status.textContent = String(e.message || e);
      status.classList.add('error');
    }
  };
  input.addEventListener('change', () => open(input.files));
  const zone = el('div', { class: 'drop panel', id: 'herc-es2-drop' }, status, el('label', {}, 'Your VOL files ', input));
  zone.addEventListener('dragover', (ev) => { ev.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (ev) => {
    ev.preventDefault();
    zone.classList.remove('over');
    open(ev.dataTransfer && ev.dataTransfer.files);
  });
  return zone;
}
