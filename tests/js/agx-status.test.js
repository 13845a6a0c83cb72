// AGX task status updates (SPEC.md "Task lifecycle": working / input-required are "reserved for
// status updates"): a handler reports working and asks for input, the requester sees typed
// updates and answers; both directions are bound to the task's peer, over a real relay with the
// AGX write policy and three identities (alice requests, bob handles, mallory meddles).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { sleep, until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner, RelayPool } = nostr;

describe('AGX task status updates', () => {
  const env = useAgxRelay();

  function party(opts = {}) {
    const signer = opts.signer ?? LocalSigner.generate();
    env.stops.push(() => (signer.inner ?? signer).dispose()); // after the client's stop: stops run last-first
    const out = { signer, messages: [], receipts: [], errors: [], updates: [] };
    out.client = env.client({
      signer,
      authorize: 'accept-all',
      onError: (e) => out.errors.push(e),
      onReceipt: (r) => out.receipts.push(r),
      onMessage: (m) => out.messages.push(m),
      ...opts,
    });
    out.client.onTaskUpdate((u) => out.updates.push(u));
    return out;
  }

  // Sends `rumor` as mallory would: her own seal and wrap, published to the relay.
  async function inject(from, to, rumor) {
    const pool = new RelayPool({ relays: [env.relay.url] });
    try {
      const wrap = await agx.wrapRumor(rumor, from, to);
      assert.ok((await pool.publish(wrap)).some((r) => r.status === 'accepted'));
    } finally {
      await pool.close();
    }
  }

  it('working and input-required reach the requester as typed updates; the answer resumes the handler', async () => {
    const alice = party();
    const bob = party();
    const seen = [];
    bob.client.handle('payment.approve', async ({ amount }, ctx) => {
      assert.equal(await ctx.working('checking the invoice'), true);
      const answer = await ctx.requestInput('PIN needed', { timeout: 20000 });
      seen.push(answer);
      await ctx.working();
      return { approved: answer.pin === 1234, amount };
    });
    await Promise.all([alice.client.start(), bob.client.start()]);
    const perRequest = [];
    const output = await alice.client.request(bob.signer.publicKey, 'payment.approve', { amount: 42 }, {
      timeout: 20000,
      onUpdate: async (u) => {
        perRequest.push(u);
        if (u.state === 'input-required') await u.respond({ pin: 1234 });
      },
    });
    assert.deepEqual(output, { approved: true, amount: 42 });
    assert.deepEqual(seen, [{ pin: 1234 }]);
    assert.deepEqual(perRequest.map((u) => [u.type, u.state, u.message]), [
      ['status', 'working', 'checking the invoice'],
      ['status', 'input-required', 'PIN needed'],
      ['status', 'working', undefined],
    ]);
    for (const u of perRequest) {
      assert.equal(u.from, bob.signer.publicKey);
      assert.equal(u.capability, 'payment.approve');
      assert.match(u.taskId, /^[0-9a-f]{32}$/);
    }
    assert.equal(typeof perRequest[1].respond, 'function');
    assert.equal(perRequest[0].respond, undefined);
    // The client-wide listener saw the same updates; none went to the plain path.
    assert.deepEqual(alice.updates.map((u) => u.state), ['working', 'input-required', 'working']);
    assert.equal(alice.messages.length, 0);
    assert.equal(bob.messages.length, 0);
    // Receipts only for the request itself (never for status updates or answers).
    await until(() => alice.receipts.length === 1);
    await sleep(100);
    assert.equal(bob.receipts.length, 0);
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  });

  it('works the same with external signers (not LocalSigner: the NIP-07 path) on both sides', async () => {
    // A Signer that is not a LocalSigner: the client seals, opens and signs through its methods.
    const external = () => {
      const inner = LocalSigner.generate();
      return {
        inner,
        publicKey: inner.publicKey,
        getPublicKey: () => inner.getPublicKey(),
        signEvent: (t) => inner.signEvent(t),
        nip44Encrypt: (pk, text) => inner.nip44Encrypt(pk, text),
        nip44Decrypt: (pk, payload) => inner.nip44Decrypt(pk, payload),
      };
    };
    const alice = party({ signer: external() });
    const bob = party({ signer: external() });
    bob.client.handle('confirm', async ({ what }, ctx) => {
      await ctx.working();
      return `${what}: ${await ctx.requestInput(`confirm ${what}?`)}`;
    });
    await Promise.all([alice.client.start(), bob.client.start()]);
    const states = [];
    const out = await alice.client.request(bob.signer.publicKey, 'confirm', { what: 'delete' }, {
      timeout: 20000,
      onUpdate: (u) => {
        states.push(u.state);
        if (u.state === 'input-required') return alice.client.provideInput(u.taskId, 'yes');
      },
    });
    assert.equal(out, 'delete: yes');
    assert.deepEqual(states, ['working', 'input-required']);
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  });

  it("mallory can neither fake a status update nor answer someone else's input request", async () => {
    const alice = party();
    const bob = party();
    const mallory = LocalSigner.generate();
    let taskId;
    let asked;
    const asking = new Promise((r) => (asked = r));
    bob.client.handle('secret.read', async (_p, ctx) => {
      taskId = ctx.taskId;
      const answer = ctx.requestInput('which one?', { timeout: 20000 });
      asked();
      return { got: await answer };
    });
    await Promise.all([alice.client.start(), bob.client.start()]);
    const updates = [];
    let answerNow;
    const answered = new Promise((r) => (answerNow = r));
    const result = alice.client.request(bob.signer.publicKey, 'secret.read', {}, {
      timeout: 20000,
      onUpdate: (u) => {
        updates.push(u);
        if (u.state === 'input-required') answered.then(() => u.respond('genuine'));
      },
    });
    await asking;
    await until(() => updates.length === 1);
    // Mallory knows the task id: her input for bob's handler and her status for alice's request.
    await inject(mallory, bob.signer.publicKey, agx.createTaskInputRumor({ taskId, input: 'forged' }, mallory.publicKey, bob.signer.publicKey));
    await inject(mallory, alice.signer.publicKey, agx.createTaskStatusRumor({ taskId, status: 'working', message: 'fake' }, mallory.publicKey, alice.signer.publicKey));
    // A marker sent after them: once it arrived, mallory's wraps were processed too (same relay, same order).
    await bob.client.send(alice.signer.publicKey, 'marker');
    await alice.client.send(bob.signer.publicKey, 'marker');
    await until(() => alice.messages.length === 1 && bob.messages.length === 1);
    assert.equal(updates.length, 1, 'the forged status was dropped');
    assert.equal(bob.messages[0].text, 'marker', 'the forged input went nowhere (dropped, not delivered)');
    answerNow();
    assert.deepEqual(await result, { got: 'genuine' });
    mallory.dispose();
  });

  it('provideInput needs a request of ours waiting for input; an unanswered input request times out as "handler failed"', async () => {
    const alice = party();
    const bob = party();
    // 1 ms: the wait ends while the input-required status is still being mined and sent (no
    // unhandled rejection; the handler sees AGX_TIMEOUT).
    bob.client.handle('slow.ask', async (_p, ctx) => ctx.requestInput('anyone?', { timeout: 1 }));
    await Promise.all([alice.client.start(), bob.client.start()]);
    await assert.rejects(alice.client.provideInput('f'.repeat(32), 1), { code: 'INVALID_ARGUMENT' });
    let pendingTask;
    const p = alice.client.request(bob.signer.publicKey, 'slow.ask', {}, { timeout: 20000, onUpdate: (u) => (pendingTask = u.taskId) });
    await assert.rejects(p, (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'handler failed');
    assert.ok(bob.errors.some((e) => e.code === 'AGX_TIMEOUT'), 'the timeout is logged at the handler side');
    await assert.rejects(alice.client.provideInput(pendingTask, 1), { code: 'INVALID_ARGUMENT' });
    // A request still open that never asked for input cannot be answered either.
    let release;
    bob.client.handle('held', async (_p, ctx) => {
      await ctx.working('busy');
      return new Promise((r) => (release = r));
    });
    let heldId;
    const held = alice.client.request(bob.signer.publicKey, 'held', {}, { timeout: 20000, onUpdate: (u) => (heldId = u.taskId) });
    await until(() => heldId !== undefined && release !== undefined);
    await assert.rejects(alice.client.provideInput(heldId, 'unasked'), { code: 'INVALID_ARGUMENT' });
    release('ok');
    assert.equal(await held, 'ok');
    await assert.rejects(alice.client.provideInput(heldId, 'late'), { code: 'INVALID_ARGUMENT' });
  });

  it('a status update for no request of ours goes to the plain path, unanswered', async () => {
    const alice = party();
    const bob = party();
    await Promise.all([alice.client.start(), bob.client.start()]);
    await inject(bob.signer, alice.signer.publicKey, agx.createTaskStatusRumor({ taskId: 'a'.repeat(32), status: 'input-required' }, bob.signer.publicKey, alice.signer.publicKey));
    await until(() => alice.messages.length === 1);
    const m = alice.messages[0];
    assert.equal(m.class, 'task-status');
    assert.equal(m.reason, 'unmatched-result');
    assert.equal(m.task.t, 'status');
    assert.equal(alice.updates.length, 0);
    await sleep(150);
    assert.equal(bob.messages.length + bob.receipts.length, 0, 'no reply, no receipt');
  });

  it('each status update restarts the request timeout: a long task that keeps reporting completes', async () => {
    const alice = party();
    const bob = party();
    bob.client.handle('long.job', async (_p, ctx) => {
      for (let i = 0; i < 3; i++) {
        await sleep(900);
        await ctx.working(`step ${i + 1}`);
      }
      await sleep(300);
      return 'finished';
    });
    await Promise.all([alice.client.start(), bob.client.start()]);
    // 3 s of work against a 2.5 s timeout: alive because of the updates.
    const updates = [];
    assert.equal(await alice.client.request(bob.signer.publicKey, 'long.job', {}, { timeout: 2500, onUpdate: (u) => updates.push(u.message) }), 'finished');
    assert.deepEqual(updates, ['step 1', 'step 2', 'step 3']);
  });

  it('status and input rumors are built by the core: bad states, oversize notes and non-JSON input are refused', () => {
    const a = LocalSigner.generate();
    const b = LocalSigner.generate();
    try {
      assert.throws(() => agx.createTaskStatusRumor({ taskId: 't', status: 'completed' }, a.publicKey, b.publicKey), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => agx.createTaskStatusRumor({ taskId: 't', status: 'working', message: 'm'.repeat(2001) }, a.publicKey, b.publicKey), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => agx.createTaskStatusRumor({ taskId: '', status: 'working' }, a.publicKey, b.publicKey), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => agx.createTaskInputRumor({ taskId: 't', input: 1n }, a.publicKey, b.publicKey), { code: 'INVALID_ARGUMENT' });
      const r = agx.createTaskStatusRumor({ taskId: 't1', status: 'input-required', message: 'PIN?' }, a.publicKey, b.publicKey);
      const content = JSON.parse(r.content);
      assert.equal(r.kind, 3838);
      assert.deepEqual(r.tags, [['p', b.publicKey], ['content-type', 'application/agx-task+json']]);
      assert.equal(content.contentType, 'application/agx-task+json');
      assert.equal(content.contextId, 't1');
      assert.deepEqual(JSON.parse(content.parts[0].text), { t: 'status', taskId: 't1', status: 'input-required', message: 'PIN?' });
      const i = agx.createTaskInputRumor({ taskId: 't1', input: { pin: 1 } }, b.publicKey, a.publicKey);
      assert.deepEqual(JSON.parse(JSON.parse(i.content).parts[0].text), { t: 'input', taskId: 't1', input: { pin: 1 } });
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});
