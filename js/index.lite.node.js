// Node entry of `nostr-agents/lite`: like index.node.js, with the smaller dist/core-lite.wasm.
import { readFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import createCore from '../dist/core-lite.mjs';
import { initWith } from './core.js';

/** Loads and compiles the WASM module once; later calls return the same promise. */
export function init() {
  return initWith(async () => {
    const wasmBinary = await readFile(new URL('../dist/core-lite.wasm', import.meta.url));
    return createCore({ wasmBinary, getRandomValue: randomUint32 });
  });
}

function randomUint32() {
  return (globalThis.crypto ?? webcrypto).getRandomValues(new Uint32Array(1))[0];
}

export * from './api.lite.js';
