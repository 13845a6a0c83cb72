// The built page's AGX module (dist/core-agx.wasm, shipped as agx.wasm): the AGX bindings with a
// crypto copy of their own, loaded with the AGX panel's code the first time the panel is used.
// scripts/build-demo.mjs makes this file what js/agx/ imports as its core.js (and what
// ./agx-lazy.js loads as ./agx-core.js): the package's AGX code then runs on this instance, and
// everything else of the package (the pool, the page's signer) on the page's core.wasm. Nothing
// secret crosses: a LocalSigner's key handle is only good in its own module (js/signer.js), so
// AGX seals and opens through the signer's methods, as it does with a NIP-07 extension.
import createAgx, { wasmUrl } from '../dist/core-agx.mjs';
import { NostrError } from '../js/errors.js';
import { putSecretIn, throwLastErrorOf, writeScratchIn } from '../js/core.js';
import { loadWasm } from '../js/load-wasm.js';

let instance = null;
let pending = null;

const getRandomValue = () => crypto.getRandomValues(new Uint32Array(1))[0];

/**
 * Loads and compiles agx.wasm once (`load`: another way to make the instance, for a test in Node,
 * where fetch() takes no file: URL); a failed load is tried again by the next call.
 */
export function loadAgxCore(load = () => loadWasm(createAgx, wasmUrl(), { getRandomValue })) {
  if (instance) return Promise.resolve();
  pending ??= Promise.resolve().then(load).then(
    (m) => {
      m.prepare();
      instance = m;
    },
    (err) => {
      pending = null;
      throw new NostrError('INIT_FAILED', `could not load the AGX module: ${err?.message ?? err}`, { cause: err });
    },
  );
  return pending;
}

// js/core.js's functions that js/agx/ imports, on this instance.
export function core() {
  if (instance === null) throw new NostrError('NOT_INITIALIZED', 'the AGX module is not loaded');
  return instance;
}

export function checked(value) {
  if (value === undefined) throwLastErrorOf(instance);
  return value;
}

export const putSecret = (secretKey, code) => putSecretIn(core(), secretKey, code);
export const writeScratch = (text, offset) => writeScratchIn(core(), text, offset);
