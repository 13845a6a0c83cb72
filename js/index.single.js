// Single-file entry: the .wasm is embedded (base64) in the module, for bundlers that do not copy
// assets. Larger than the split build and without streaming compilation.
import createCore from '../dist/core-single.mjs';
import { setLoader } from './core.js';

setLoader(() => createCore({ getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0] }));

export * from './api.js';
