// Node entry of `nostr-agents/lite`: like index.node.js, with the smaller dist/core-lite.wasm.
import { readFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import createCore from '../dist/core-lite.mjs';
import { setLoader } from './core.js';

setLoader(async () => {
  const wasmBinary = await readFile(new URL('../dist/core-lite.wasm', import.meta.url));
  return createCore({ wasmBinary, getRandomValue: randomUint32 });
});

const cryptoApi = globalThis.crypto ?? webcrypto;
function randomUint32() {
  return cryptoApi.getRandomValues(new Uint32Array(1))[0];
}

export * from './api.lite.js';
