// An AgxRequester on the demo page's WASM module (dist/core-web.wasm, linked without
// bindings/agx_serve.cpp), in its own process (the test process's core is the full one):
//   node agx-requester-child.mjs <relayUrl> <peerHex> <capability> <payloadJson>
// Prints one JSON line: {lacks, output, receipts, updates} or {error: code}.
import { readFileSync } from 'node:fs';
import { init, core, setLoader } from '../../js/core.js';
import createCore from '../../dist/core-web.mjs';
import { LocalSigner } from '../../js/signer.js';
import { AgxRequester } from '../../js/agx/requester.js';

const dist = new URL('../../dist/', import.meta.url);
setLoader(() =>
  createCore({
    wasmBinary: readFileSync(new URL('core-web.wasm', dist)),
    getRandomValue: () => crypto.getRandomValues(new Uint32Array(1))[0],
  }),
);
await init();
const [relay, peer, capability, payload] = process.argv.slice(2);
// The serving side's bindings are not in this module.
const lacks = ['AgxTaskGate', 'AgxAutoReply', 'agxTaskResultRumor', 'agxReceiptRumor', 'agxFindHandler', 'agxCardTemplate'].filter((n) => !(n in core()));
const signer = LocalSigner.generate();
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
  out = { lacks, output, receipts, updates };
} catch (err) {
  out = { lacks, error: err?.code ?? String(err) };
} finally {
  await client.stop();
  signer.dispose();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
