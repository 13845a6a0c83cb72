// Single-file entry: the .wasm is embedded (base64) in the module, for bundlers that do not copy
// assets. Larger than the split build and without streaming compilation.
import createCore from '../dist/core-single.mjs';
import { setLoader } from './core.js';
import './nip05-node.js'; // NIP-05's DNS check and https GET (nip05, agx.verifyNip05) when it runs in Node

setLoader(() => createCore({ getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0] }));

export * from './api.js';
