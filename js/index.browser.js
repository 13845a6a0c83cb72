// Browser (and bundler) entry: the .wasm is fetched with streaming compilation from the loader's
// wasmUrl(), `new URL('./core.wasm', import.meta.url)` in dist/core.mjs: next to the loader when
// unbundled, and the asset Vite, webpack 5 and Parcel copy. No top-level effect: a bundle keeps
// only what the app imports (package.json "sideEffects": false).
import createCore, { wasmUrl } from '../dist/core.mjs';
import { initWith } from './core.js';
import { loadWasm } from './load-wasm.js';

const getRandomValue = () => crypto.getRandomValues(new Uint32Array(1))[0];

/** Loads and compiles the WASM module once; later calls return the same promise. */
export function init() {
  return initWith(() => loadWasm(createCore, wasmUrl(), { getRandomValue }));
}

export * from './api.js';
