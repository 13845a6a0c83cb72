// Single-file entry: the .wasm is embedded (base64) in the module, for bundlers that do not copy
// assets. Larger than the split build and without streaming compilation. init() also sets
// the NIP-05 fetch's Node defaults (nip05, agx.verifyNip05), for when it runs in Node.
import createCore from '../dist/core-single.mjs';
import { initWith } from './core.js';
import { useNodeNip05Defaults } from './nip05-node.js';

/** Loads and compiles the WASM module once; later calls return the same promise. */
export function init() {
  useNodeNip05Defaults();
  return initWith(() => createCore({ getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0] }));
}

export * from './api.js';
