// Node entry: reads the .wasm from disk and hands it to the loader (the 3.1.6 loader would
// otherwise try fetch() on a file path, which Node's fetch rejects).
import { readFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import createCore from '../dist/core.mjs';
import { setLoader } from './core.js';
import './nip05-node.js'; // NIP-05's DNS check and https GET (nip05, agx.verifyNip05)

setLoader(async () => {
  const wasmBinary = await readFile(new URL('../dist/core.wasm', import.meta.url));
  return createCore({ wasmBinary, getRandomValue: randomUint32 });
});

const cryptoApi = globalThis.crypto ?? webcrypto;
function randomUint32() {
  return cryptoApi.getRandomValues(new Uint32Array(1))[0];
}

export * from './api.js';
