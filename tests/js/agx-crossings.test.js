// Issue 18: an inbound AGX message crosses the JS/WASM boundary at most twice before it is acted on
// (the wrap in with the verdict, the opened message and the actions out; a host's authorize answer
// in with the rest of the actions out), and the core's constants table is the one copy of the AGX
// numbers. Every function of the core module and every method of its classes is counted while an
// AgxClient ingests one wrap; for a task request, up to the first outbound step (its receipt, which
// goes before its handler runs: the receipt and the result are outbound messages of their own).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { core } from '../../js/core.js';

const { agx, LocalSigner } = nostr;

function instrument(c) {
  const calls = [];
  const undo = [];
  for (const k of Object.keys(c)) {
    const v = c[k];
    if (typeof v !== 'function') continue;
    const proto = v.prototype;
    const methods = proto ? Object.getOwnPropertyNames(proto).filter((m) => m !== 'constructor' && typeof proto[m] === 'function') : [];
    if (/^[A-Z]/.test(k) && methods.length) {
      for (const m of methods) {
        const f = proto[m];
        proto[m] = function (...a) {
          calls.push(`${k}.${m}`);
          return f.apply(this, a);
        };
        undo.push(() => (proto[m] = f));
      }
    } else if (!/^[A-Z]/.test(k)) {
      c[k] = (...a) => {
        calls.push(k);
        return v(...a);
      };
      undo.push(() => (c[k] = v));
    }
  }
  return { calls, restore: () => undo.forEach((u) => u()) };
}

describe('AGX inbound: JS/WASM crossings per message', () => {
  let sender;
  let recipient;
  let probe;
  before(() => {
    sender = LocalSigner.generate();
    recipient = LocalSigner.generate();
  });
  after(() => {
    probe?.restore();
    sender.dispose();
    recipient.dispose();
  });

  async function crossings(options, rumor) {
    let atHandler = null;
    const client = new agx.AgxClient({
      signer: recipient,
      relays: ['ws://127.0.0.1:9'],
      pollInterval: 0,
      onWarning: () => {},
      onError: () => {},
      onMessage: () => {},
      handlers: { echo: (p) => ((atHandler = [...probe.calls]), p) },
      ...options,
    });
    const wrap = await agx.wrapRumor(rumor, sender, recipient.publicKey);
    probe = instrument(core());
    let verdict;
    try {
      verdict = await client.ingest(wrap);
    } finally {
      probe.restore();
    }
    const all = atHandler ?? probe.calls;
    await client.stop();
    const out = all.findIndex((c) => !c.startsWith('AgxEndpoint.'));
    return { verdict, calls: out < 0 ? all : all.slice(0, out), rest: out < 0 ? [] : all.slice(out) };
  }

  it('a message: one crossing (the wrap in; verdict, message and actions out)', async () => {
    const { verdict, calls } = await crossings({ acceptAll: true }, agx.createMessageRumor('hi', sender.publicKey, recipient.publicKey));
    assert.equal(verdict, 'processed');
    assert.ok(calls.length <= 2, calls.join(' '));
    assert.deepEqual(calls, ['AgxEndpoint.receiveWithHandle']);
  });

  it('a task request: one crossing with accept-all, two with an authorize function, until its handler runs', async () => {
    const req = () => agx.createTaskRequestRumor({ taskId: `t${Math.random()}`, capability: 'echo', payload: 1 }, sender.publicKey, recipient.publicKey);
    const a = await crossings({ acceptAll: true }, req());
    assert.equal(a.verdict, 'processed');
    assert.deepEqual(a.calls, ['AgxEndpoint.receiveWithHandle']);
    assert.ok(a.rest.includes('agxReceiptRumor'), 'then the receipt, before the handler');
    const b = await crossings({ authorize: async () => true }, req());
    assert.equal(b.verdict, 'processed');
    assert.deepEqual(b.calls, ['AgxEndpoint.receiveWithHandle', 'AgxEndpoint.hostVerdict']);
  });

  it('a replayed wrap: one crossing, nothing acted on', async () => {
    const client = new agx.AgxClient({ signer: recipient, relays: ['ws://127.0.0.1:9'], pollInterval: 0, acceptAll: true, onWarning: () => {} });
    const wrap = await agx.wrapRumor(agx.createMessageRumor('once', sender.publicKey, recipient.publicKey), sender, recipient.publicKey);
    assert.equal(await client.ingest(wrap), 'processed');
    probe = instrument(core());
    try {
      assert.equal(await client.ingest(wrap), 'replay');
    } finally {
      probe.restore();
    }
    assert.deepEqual(probe.calls, ['AgxEndpoint.receiveWithHandle']);
    await client.stop();
  });

  it("the public constants are the core's table", () => {
    const c = core().agxConstants();
    assert.equal(agx.MESSAGE_KIND, c.kinds.message);
    assert.equal(agx.RECEIPT_KIND, c.kinds.receipt);
    assert.equal(agx.GIFT_WRAP_KIND, c.kinds.giftWrap);
    assert.equal(agx.POW_BITS, c.powBits);
    assert.equal(agx.CARD_KIND, c.kinds.card);
    assert.equal(agx.RELAY_LIST_KIND, c.kinds.relayList);
    assert.equal(c.maxWrapBackdate, 172800);
    assert.equal(c.seenRetention, 3 * 86400);
  });
});
