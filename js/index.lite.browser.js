// Browser (and bundler) entry of `nostr-agents/lite`: like index.browser.js, with the smaller
// dist/core-lite.wasm (the loader's wasmUrl(), see index.browser.js).
import createCore, { wasmUrl } from '../dist/core-lite.mjs';
import { initWith } from './core.js';
import { loadWasm } from './load-wasm.js';

const getRandomValue = () => crypto.getRandomValues(new Uint32Array(1))[0];

/** Loads and compiles the WASM module once; later calls return the same promise. */
export function init() {
  return initWith(() => loadWasm(createCore, wasmUrl(), { getRandomValue }));
}

export * from './api.lite.js';
