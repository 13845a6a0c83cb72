// An AgxRequester composed as on the built demo page, in its own process (the test process's core
// is the full one): the pool and the LocalSigner on the page's module (dist/core-web.wasm, linked
// without the AGX bindings), the AGX code on the AGX module (dist/core-agx.wasm, without the
// serving side's bindings), the key reached through the Signer methods.
//   node agx-requester-child.mjs <relayUrl> <peerHex> <capability> <payloadJson>
// Prints one JSON line: {webLacks, agxLacks, local, output, receipts, updates} or {error: code}.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { init, core, setLoader } from '../../js/core.js';
import createCore from '../../dist/core-web.mjs';
import createAgx from '../../dist/core-agx.mjs';
import { LocalSigner } from '../../js/signer.js';

register(new URL('./agx-module-hooks.mjs', import.meta.url));
const { loadAgxCore, core: agxCore } = await import('../../web-demo/agx-module.js');
const { AgxRequester } = await import('../../js/agx/requester.js');
const { localHandle } = await import('../../js/agx/util.js');

const dist = new URL('../../dist/', import.meta.url);
const getRandomValue = () => crypto.getRandomValues(new Uint32Array(1))[0];
setLoader(() => createCore({ wasmBinary: readFileSync(new URL('core-web.wasm', dist)), getRandomValue }));
await init();
await loadAgxCore(() => createAgx({ wasmBinary: readFileSync(new URL('core-agx.wasm', dist)), getRandomValue }));
const [relay, peer, capability, payload] = process.argv.slice(2);
// The page's module has no AGX binding; the AGX module not the serving side's.
const webLacks = ['AgxEndpoint', 'AgxWrapJob', 'agxUnwrapWithHandle', 'AgxRelayRoutes'].filter((n) => !(n in core()));
const agxLacks = ['AgxTaskGate', 'AgxAutoReply', 'agxTaskResultRumor', 'agxReceiptRumor', 'agxFindHandler', 'agxCardTemplate'].filter((n) => !(n in agxCore()));
const signer = LocalSigner.generate();
const local = localHandle(signer); // the key is in the page's module, not AGX's: 0
const receipts = [];
const updates = [];
const client = new AgxRequester({ signer, relays: [relay], pollInterval: 0, onReceipt: (r) => receipts.push(r.status) });
client.onTaskUpdate((u) => updates.push(u.state));
let out;
try {
  await client.start();
  const output = await client.request(peer, capability, JSON.parse(payload), { timeout: 30000 });
  // the receipt is published before the handler runs, so it is in by now or about to be
  for (let i = 0; i < 200 && receipts.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  out = { webLacks, agxLacks, local, output, receipts, updates };
} catch (err) {
  out = { webLacks, agxLacks, local, error: err?.code ?? String(err) };
} finally {
  await client.stop();
  signer.dispose();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
