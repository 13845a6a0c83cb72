// Where the AGX panel's code runs. On the dev page, the package's own module, which has AGX in
// it: nothing more to load. The built page (`npm run build:demo`) swaps in ./agx-module.js, a
// WASM module of AGX's own (agx.wasm), so the page's core.wasm leaves the AGX bindings out.
export const loadAgxCore = () => Promise.resolve();
