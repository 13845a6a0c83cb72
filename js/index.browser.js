// Browser (and bundler) entry: the .wasm is fetched with streaming compilation.
//
// No locateFile on purpose: the Emscripten loader then finds the .wasm as
// `new URL('core.wasm', import.meta.url)` inside dist/core.mjs. Unbundled, that is next to
// dist/core.mjs; in an esbuild bundle (which keeps import.meta.url as it is) it is next to the
// bundle, where the README tells users to copy dist/core.wasm; and it is the form bundlers that
// follow `new URL(…, import.meta.url)` (webpack 5, Vite, Parcel) pick up as an asset. A locateFile
// computed from this file's URL pointed bundles at `<bundle dir>/../dist/core.wasm` instead.
import createCore from '../dist/core.mjs';
import { setLoader } from './core.js';

setLoader(() =>
  createCore({
    getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0],
  }),
);

export * from './api.js';
