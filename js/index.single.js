// Single-file entry: the .wasm is embedded (base64) in the module, for bundlers that do not copy
// assets. Larger than the split build and without streaming compilation.
import createCore from '../dist/core-single.mjs';
import { setLoader } from './core.js';
import './agx/nip05-node.js'; // verifyNip05's DNS check and https GET when it runs in Node

setLoader(() => createCore({ getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0] }));

export * from './api.js';
