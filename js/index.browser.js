// Browser (and bundler) entry: the .wasm is fetched next to this package's dist/core.mjs, with
// streaming compilation.
import createCore from '../dist/core.mjs';
import { setLoader } from './core.js';

setLoader(() =>
  createCore({
    locateFile: (file) => new URL(`../dist/${file}`, import.meta.url).href,
    getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0],
  }),
);

export * from './api.js';
