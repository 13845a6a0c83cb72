// Browser (and bundler) entry of `nostr-agents/lite`: like index.browser.js, with the smaller
// dist/core-lite.wasm (found next to dist/core-lite.mjs, see index.browser.js).
import createCore from '../dist/core-lite.mjs';
import { setLoader } from './core.js';

setLoader(() =>
  createCore({
    getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0],
  }),
);

export * from './api.lite.js';
