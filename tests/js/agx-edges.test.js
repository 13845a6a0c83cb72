// AGX extensions and edges: our status and input envelopes reach only requesters that said they
// understand them (their request's "accepts"; a reference-shaped request gets a receipt and a
// result, nothing else); messages of unknown content types are dropped (SPEC.md "Content types":
// ignored) unless the host keeps them; denied and unserviceable task traffic gets no reply handle.
// Over a real dev relay; the peers that are not AgxClients publish hand-made rumors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner, RelayPool } = nostr;
const TASK = 'application/agx-task+json';

describe('AGX extensions and edges', () => {
  const env = useAgxRelay();
  let pool;
  before(() => {
    pool = new RelayPool({ relays: [env.relay.url], relayInfo: false });
    env.stops.push(() => pool.close());
  });

  // A peer that is not an AgxClient: wraps whatever rumor it is given; its inbox is what the relay
  // holds for it, opened with the core's checks.
  function rawPeer() {
    const signer = LocalSigner.generate();
    env.stops.push(() => signer.dispose());
    return {
      signer,
      pk: signer.publicKey,
      async deliver(to, text, contentType, contextId) {
        const rumor = agx.createMessageRumor(text, signer.publicKey, to, { contentType, contextId });
        const wrap = await agx.wrapRumor(rumor, signer, to);
        const [r] = await pool.publish(wrap);
        assert.equal(r.status, 'accepted', r.message);
        return rumor;
      },
      async inbox() {
        const wraps = await pool.query([{ kinds: [1059], '#p': [signer.publicKey] }]);
        return wraps.map((w) => agx.unwrapAgx(w, signer));
      },
    };
  }

  describe('status and input updates', () => {
    let alice;
    const seen = [];
    before(async () => {
      alice = env.client({ authorize: 'accept-all' });
      alice.handle('report', async (payload, ctx) => {
        const working = await ctx.working('on it');
        let input;
        try {
          input = await ctx.requestInput('which quarter?', { timeout: 15_000 });
        } catch (err) {
          input = err.code;
        }
        seen.push({ from: ctx.from, updates: ctx.updates, working });
        return { input };
      });
      await alice.start({ advertise: false });
    });

    it('an AgxClient requester says it understands them: working and input-required reach it, its answer resumes the handler', async () => {
      const bob = env.client();
      await bob.start({ advertise: false });
      const states = [];
      const out = await bob.request(alice.publicKey, 'report', {}, {
        timeout: 20_000,
        onUpdate: (u) => {
          states.push(u.state);
          if (u.state === 'input-required') return u.respond('Q3');
        },
      });
      assert.deepEqual(out, { input: 'Q3' });
      assert.deepEqual(states, ['working', 'input-required']);
      assert.deepEqual(seen.find((s) => s.from === bob.publicKey), { from: bob.publicKey, updates: { status: true, input: true }, working: true });
    });

    it('a reference-shaped request (no "accepts") gets a receipt and its result, and no status update', async () => {
      const ref = rawPeer();
      const taskId = 'ref-task-1';
      const request = await ref.deliver(alice.publicKey, JSON.stringify({ t: 'req', taskId, capability: 'report', payload: {} }), TASK, taskId);
      let inbox = [];
      await until(async () => (inbox = await ref.inbox()).some((o) => o.class === 'task-result'), 'the result');
      // the handler ran on, told that nothing extra can go to this requester
      assert.deepEqual(seen.find((s) => s.from === ref.pk), { from: ref.pk, updates: { status: false, input: false }, working: false });
      assert.deepEqual(inbox.map((o) => o.class).sort(), ['receipt', 'task-result']);
      assert.equal(inbox.find((o) => o.class === 'receipt').receipt.refEventId, request.id);
      const result = inbox.find((o) => o.class === 'task-result').task;
      assert.deepEqual([result.taskId, result.status, result.output], [taskId, 'completed', { input: 'AGX_INPUT_UNSUPPORTED' }]);
    });

    it('a request that accepts status only gets working, never an input-required it could not answer', async () => {
      const peer = rawPeer();
      const taskId = 'status-only-1';
      await peer.deliver(alice.publicKey, JSON.stringify({ t: 'req', taskId, capability: 'report', payload: {}, accepts: ['status'] }), TASK, taskId);
      let inbox = [];
      await until(async () => (inbox = await peer.inbox()).some((o) => o.class === 'task-result'), 'the result');
      assert.deepEqual(inbox.map((o) => o.class).sort(), ['receipt', 'task-result', 'task-status']);
      assert.equal(inbox.find((o) => o.class === 'task-status').task.status, 'working');
      assert.deepEqual(inbox.find((o) => o.class === 'task-result').task.output, { input: 'AGX_INPUT_UNSUPPORTED' });
    });
  });

  it('a message of an unknown content type is dropped (and reported) by default; keepUnknownContentTypes delivers it, unanswered', async () => {
    const errors = [];
    const got = [];
    const dropper = env.client({ onError: (e) => errors.push(e), onMessage: (m) => got.push(m) });
    const keeper = env.client({ keepUnknownContentTypes: true, onMessage: (m) => got.push(m) });
    await Promise.all([dropper.start({ advertise: false }), keeper.start({ advertise: false })]);
    const peer = rawPeer();
    await peer.deliver(dropper.publicKey, 'opaque bytes', 'application/x-unknown');
    await peer.deliver(keeper.publicKey, 'opaque bytes', 'application/x-unknown');
    await until(() => errors.some((e) => e.code === 'AGX_CONTENT_TYPE_UNKNOWN'), 'the drop reported');
    await until(() => got.length === 1, 'the kept one delivered');
    const err = errors.find((e) => e.code === 'AGX_CONTENT_TYPE_UNKNOWN');
    assert.equal(err.from, peer.pk);
    assert.equal(err.contentType, 'application/x-unknown');
    const [m] = got;
    assert.equal(m.class, 'unknown');
    assert.equal(m.reason, 'unknown-content-type');
    assert.equal(m.text, 'opaque bytes');
    assert.equal(m.reply, undefined, 'never answered');
    // a task envelope under another label is not a task: never run, not even kept as one
    await peer.deliver(keeper.publicKey, JSON.stringify({ t: 'req', taskId: 't', capability: 'x' }), 'text/plain');
    await until(() => got.length === 2, 'delivered as opaque');
    assert.equal(got[1].task, null);
    assert.equal(got.filter((x) => x.reason === 'plain-message').length, 0);
  });

  it('denied and unserviceable task traffic has no reply handle; a plain message has one', async () => {
    const got = [];
    let answered = 0;
    const alice = env.client({
      authorize: ({ from }) => from === 'nobody',
      onMessage: async (m) => {
        if (m.reply) await m.reply(`re: ${m.reason}`);
        got.push(m);
        answered++;
      },
    });
    alice.handle('echo', (p) => p);
    await alice.start({ advertise: false });
    const mallory = rawPeer();
    const send = (text, ct = TASK) => mallory.deliver(alice.publicKey, text, ct);
    await send(JSON.stringify({ t: 'req', taskId: 'd1', capability: 'echo', payload: 1 })); // denied
    await send(JSON.stringify({ t: 'req', taskId: 'u1', capability: 'nope', payload: 1 })); // unknown capability
    await send(JSON.stringify({ t: 'res', taskId: 'r1', status: 'completed', output: 1 })); // unmatched result
    await send('{"t":"req"}'); // malformed
    await send('hello', 'application/a2a+json'); // plain
    await until(() => answered === 5, 'all five delivered');
    const byReason = Object.fromEntries(got.map((m) => [m.reason, typeof m.reply]));
    assert.deepEqual(byReason, {
      denied: 'undefined',
      'unknown-capability': 'undefined',
      'unmatched-result': 'undefined',
      'malformed-task': 'undefined',
      'plain-message': 'function',
    });
    // what reached mallory: the one reply to the plain message, no receipt, no result
    const inbox = await mallory.inbox();
    assert.deepEqual(inbox.map((o) => [o.class, o.message?.text]), [['text', 're: plain-message']]);
  });
});
