// The worker of RelayPool's `verifyWorkers` option (verify-workers.js): its own instance of the
// package's WASM module checks the events of the frames it is sent. It answers, per frame, '1'
// when the frame is an EVENT frame whose event verifies (the core's relay decode and BIP-340
// batch verification, relayVerifyFramesScratch), else '0'; the pool's machine checks those itself.
// Runs as a module Web Worker in browsers and as a worker_threads Worker in Node.
import createCore, { wasmUrl } from '../../dist/core.mjs';
import { core, initWith, scratchBytes, writeScratchRecords } from '../core.js';
import { loadWasm } from '../load-wasm.js';

const NODE_WORKER = /* @__PURE__ */ ['node', 'worker_threads'].join(':');
const NODE_FS = /* @__PURE__ */ ['node', 'fs/promises'].join(':');
const inNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof self === 'undefined';
const getRandomValue = () => crypto.getRandomValues(new Uint32Array(1))[0];
const decoder = new TextDecoder();

async function load() {
  if (inNode) {
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS);
    return createCore({ wasmBinary: await readFile(wasmUrl()), getRandomValue });
  }
  return loadWasm(createCore, wasmUrl(), { getRandomValue });
}

// '0'/'1' per frame.
function verifyFrames(frames) {
  const c = core();
  const total = writeScratchRecords(frames);
  if (c.relayVerifyFramesScratch(frames.length, total) !== 0) throw new Error('bad batch layout');
  const flags = scratchBytes(0, frames.length).slice();
  for (let i = 0; i < flags.length; i++) flags[i] += 48;
  return decoder.decode(flags);
}

async function main() {
  let post;
  let listen;
  if (inNode) {
    const { parentPort } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_WORKER);
    post = (m) => parentPort.postMessage(m);
    listen = (fn) => parentPort.on('message', fn);
  } else {
    post = (m) => self.postMessage(m);
    listen = (fn) => self.addEventListener('message', (e) => fn(e.data));
  }
  // Messages that come while the module loads wait for it, in order.
  const ready = initWith(load);
  listen((m) => {
    ready.then(
      () => {
        if (!m || !Array.isArray(m.frames)) return;
        let valid;
        try {
          valid = verifyFrames(m.frames);
        } catch (err) {
          post({ id: m.id, error: String(err?.message ?? err) });
          return;
        }
        post({ id: m.id, valid });
      },
      (err) => post({ id: m?.id, error: String(err?.message ?? err) }),
    );
  });
}

main();
