// The AGX panel's part of the package (Agent Cards, the requesting side of AGX: its wrap, unwrap,
// routes and replay guard), imported by the page the first time the panel looks up a card or
// sends a task: a page that only chats never loads it. It runs with the page's pool and signer;
// on the built page on a WASM module of its own (./agx-core.js, swapped for ./agx-module.js by
// `npm run build:demo`, which makes this a chunk of its own).
import { agx } from '../dist/index.browser.js';
import { loadAgxCore } from './agx-core.js';

/** `{ agx }`, once the module it runs on is ready. */
export async function loadAgxPanel() {
  await loadAgxCore();
  return { agx };
}
