// AgxRequester: the requesting side of AGX alone (what the demo page uses), over a real relay with
// the AGX write policy, against an AgxClient that serves; a bundle of it leaves the serving side
// out, and it runs as the built demo page composes it: on the AGX module, which lacks the serving
// side's bindings, beside the page's module, which lacks AGX's.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nostr } from './helpers.js';
import { until } from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const { agx, LocalSigner, NostrError } = nostr;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./agx-requester-child.mjs', import.meta.url));

describe('AgxRequester', () => {
  let relay;
  const stops = [];
  before(async () => {
    relay = await startDevRelay({ memory: true, agxPolicy: true });
  });
  after(async () => {
    for (const f of stops.reverse()) await f();
    await relay.close();
  });

  function track(client, signer) {
    stops.push(async () => {
      await client.stop();
      signer.dispose();
    });
    return client;
  }

  // An AgxClient that serves demo.echo (reporting working, asking for input when the payload says so).
  async function server(opts = {}) {
    const signer = LocalSigner.generate();
    const errors = [];
    const client = track(
      new agx.AgxClient({ signer, relays: [relay.url], pollInterval: 0, authorize: 'accept-all', onError: (e) => errors.push(e), onWarning: () => {}, ...opts }),
      signer,
    );
    client.handle('demo.echo', async (payload, ctx) => {
      await ctx.working('on it');
      if (payload?.ask) return { echo: payload, input: await ctx.requestInput('more?', { timeout: 20000 }) };
      return { echo: payload };
    });
    await client.start();
    return { signer, client, errors };
  }

  it('sends a task and gets its receipt, status updates and result; answers input-required', async () => {
    const bob = await server();
    const signer = LocalSigner.generate();
    const receipts = [];
    const updates = [];
    const errors = [];
    const alice = track(new agx.AgxRequester({ signer, relays: [relay.url], pollInterval: 0, onReceipt: (r) => receipts.push(r), onError: (e) => errors.push(e) }), signer);
    alice.onTaskUpdate((u) => updates.push(u.state));
    await alice.start();
    assert.equal(alice.publicKey, signer.publicKey);

    assert.deepEqual(await alice.request(bob.signer.publicKey, 'demo.echo', { n: 1 }, { timeout: 20000 }), { echo: { n: 1 } });
    await until(() => receipts.length === 1, 'the receipt');
    assert.equal(receipts[0].from, bob.signer.publicKey);
    assert.equal(receipts[0].status, 'delivered');
    assert.deepEqual(updates, ['working']);

    const output = await alice.request(bob.signer.publicKey, 'demo.echo', { ask: true }, {
      timeout: 20000,
      onUpdate: (u) => (u.state === 'input-required' ? u.respond({ pin: 7 }) : undefined),
    });
    assert.deepEqual(output, { echo: { ask: true }, input: { pin: 7 } });
    assert.equal(alice.pendingCount, 0);
    assert.deepEqual(alice.taskStats, { duplicateResults: 0 });
    assert.deepEqual([...errors, ...bob.errors], []);

    // A failed task rejects as AGX_TASK_FAILED (with the peer's result), as with AgxClient.
    bob.client.handle('demo.fail', () => {
      throw new agx.AgxPublicError('no such thing');
    });
    await assert.rejects(alice.request(bob.signer.publicKey, 'demo.fail', null, { timeout: 20000 }), (err) => err instanceof NostrError && err.code === 'AGX_TASK_FAILED' && err.result.error === 'no such thing');
    await alice.stop();
    await assert.rejects(alice.request(bob.signer.publicKey, 'demo.echo', {}), (err) => err.code === 'AGX_CLOSED');
  });

  it('serves nothing: a task request sent to it takes the plain path, unanswered, and has no reply()', async () => {
    const signer = LocalSigner.generate();
    const messages = [];
    const warnings = [];
    const carol = track(new agx.AgxRequester({ signer, relays: [relay.url], pollInterval: 0, onMessage: (m) => messages.push(m), onWarning: (w) => warnings.push(w) }), signer);
    await carol.start();
    const bob = await server();
    await assert.rejects(bob.client.request(signer.publicKey, 'demo.echo', { n: 2 }, { timeout: 1500 }), (err) => err.code === 'AGX_TIMEOUT');
    await until(() => messages.length === 1, 'the task request on the plain path');
    assert.equal(messages[0].class, 'task-request');
    assert.equal(messages[0].reason, 'unknown-capability');
    assert.equal(messages[0].from, bob.signer.publicKey);
    assert.equal(messages[0].reply, undefined);
    assert.deepEqual(warnings, []);
    // The serving API is AgxClient's only; an AgxClient is an AgxRequester.
    for (const name of ['handle', 'capabilities', 'autoReply', 'resetAutoDepth', 'serve'])
      assert.equal(name in carol, false, name);
    assert.ok(bob.client instanceof agx.AgxRequester);
    assert.equal(carol instanceof agx.AgxClient, false);
  });

  it('checks its options like AgxClient', () => {
    assert.throws(() => new agx.AgxRequester({ relays: [relay.url] }), (err) => err.code === 'INVALID_ARGUMENT');
    assert.throws(() => new agx.AgxRequester({ signer: LocalSigner.generate() }), (err) => err.code === 'INVALID_ARGUMENT');
    assert.throws(() => new agx.AgxRequester({ signer: LocalSigner.generate(), relays: [relay.url], requestTimeout: -1 }), (err) => err.code === 'INVALID_ARGUMENT');
  });

  it('a bundle that imports it alone leaves the serving side (and its core bindings) out', async () => {
    const { build } = await import('esbuild');
    const bundle = async (name) =>
      (await build({ stdin: { contents: `export { ${name} } from './js/agx/index.js';`, resolveDir: ROOT }, bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, external: ['ws', 'node:*'], logLevel: 'error' })).outputFiles[0].text;
    const serving = /AgxTaskGate|AgxAutoReply|agxTaskResultRumor|agxReceiptRumor|agxReplyDepth|agxFindHandler|agxCardTemplate|agxCardRetraction|handler failed/;
    assert.doesNotMatch(await bundle('AgxRequester'), serving);
    assert.match(await bundle('AgxClient'), serving);
  });

  it("runs as on the built demo page: AGX on its own module (without the serving side's bindings), the pool and the local key on the page's", async () => {
    const bob = await server();
    const { stdout } = await promisify(execFile)(process.execPath, [CHILD, relay.url, bob.signer.publicKey, 'demo.echo', JSON.stringify({ page: true })], { timeout: 60000 });
    const out = JSON.parse(stdout.trim().split('\n').pop());
    assert.deepEqual(out.webLacks, ['AgxEndpoint', 'AgxWrapJob', 'agxUnwrapWithHandle', 'AgxRelayRoutes']);
    assert.deepEqual(out.agxLacks, ['AgxTaskGate', 'AgxAutoReply', 'agxTaskResultRumor', 'agxReceiptRumor', 'agxFindHandler', 'agxCardTemplate']);
    assert.equal(out.local, 0, "the page's key handle is not used in the AGX module");
    assert.deepEqual(out.output, { echo: { page: true } });
    assert.deepEqual(out.receipts, ['delivered']);
    assert.deepEqual(out.updates, ['working']);
    assert.deepEqual(bob.errors, []);
  });
});
