// Node entry: reads the .wasm from disk and hands it to the loader (the 3.1.6 loader would
// otherwise try fetch() on a file path, which Node's fetch rejects). No top-level effect: init()
// also sets the NIP-05 fetch's Node defaults (DNS and an https GET; nip05, agx.verifyNip05).
import { readFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import createCore from '../dist/core.mjs';
import { initWith } from './core.js';
import { useNodeNip05Defaults } from './nip05-node.js';

/** Loads and compiles the WASM module once; later calls return the same promise. */
export function init() {
  useNodeNip05Defaults();
  return initWith(async () => {
    const wasmBinary = await readFile(new URL('../dist/core.wasm', import.meta.url));
    return createCore({ wasmBinary, getRandomValue: randomUint32 });
  });
}

function randomUint32() {
  return (globalThis.crypto ?? webcrypto).getRandomValues(new Uint32Array(1))[0];
}

export * from './api.js';
