// Which WebSocket class the pool uses: the one injected, else `ws` in Node (imported only there,
// by a specifier bundlers do not follow, so browser bundles never pull it), else the global one.
import { NostrError } from '../errors.js';

const isNode = /* @__PURE__ */ (() => typeof process !== 'undefined' && process.versions != null && process.versions.node != null)();

let nodeWs = null;

async function importWs() {
  const specifier = ['ws'].join(''); // not a literal: esbuild would bundle ws's browser stub
  const mod = await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
  return mod.WebSocket ?? mod.default;
}

/** Resolves the WebSocket constructor for `injected` (a class, or undefined for the default). */
export function resolveWebSocket(injected) {
  if (injected) return Promise.resolve(injected);
  if (isNode) {
    if (!nodeWs)
      nodeWs = importWs().catch((err) => {
        nodeWs = null;
        if (typeof globalThis.WebSocket === 'function') return globalThis.WebSocket;
        throw new NostrError('NO_WEBSOCKET', 'install the `ws` package or pass { WebSocket } to RelayPool', { cause: err });
      });
    return nodeWs;
  }
  if (typeof globalThis.WebSocket === 'function') return Promise.resolve(globalThis.WebSocket);
  return Promise.reject(new NostrError('NO_WEBSOCKET', 'no global WebSocket: pass { WebSocket } to RelayPool'));
}
