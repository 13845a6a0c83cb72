// AGX JS layer: bindings (rumors, wrap, unwrap, matching, routing, replay) and createAgxAgent
// between LocalSigners over a real dev relay with the AGX write policy (12-bit PoW, expiration).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { sleep, until, useAgxRelay } from './agx-helpers.js';

const { agx, LocalSigner, RelayPool, NostrError, nip19 } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);

function leadingZeroBits(hex) {
  let n = 0;
  for (const c of hex) {
    const v = parseInt(c, 16);
    if (v === 0) n += 4;
    else return n + Math.clz32(v) - 28;
  }
  return n;
}

describe('agx bindings', () => {
  const alice = LocalSigner.generate();
  const bob = LocalSigner.generate();
  after(() => {
    alice.dispose();
    bob.dispose();
  });

  it('wraps with PoW >= 12, expiration = created_at + 30 d, backdated, and unwraps a message', async () => {
    const now = nowS();
    const rumor = agx.createMessageRumor('hello bob', alice.publicKey, bob.publicKey, { subject: 'hi' });
    assert.equal(rumor.kind, 3838);
    assert.deepEqual(rumor.tags, [['p', bob.publicKey], ['content-type', 'application/a2a+json']]);
    assert.equal(rumor.sig, undefined);
    let slices = 0;
    const ticker = setInterval(() => slices++, 0);
    const wrap = await agx.wrapRumor(rumor, alice, bob.publicKey, { slice: 64 });
    clearInterval(ticker);
    assert.equal(wrap.kind, 1059);
    assert.ok(leadingZeroBits(wrap.id) >= 12);
    assert.equal(wrap.tags.length, 3);
    assert.deepEqual(wrap.tags[0], ['p', bob.publicKey]);
    assert.deepEqual(wrap.tags[1], ['expiration', String(wrap.created_at + 2592000)]);
    assert.equal(wrap.tags[2][0], 'nonce');
    assert.equal(wrap.tags[2][2], '12');
    assert.ok(wrap.created_at <= now + 1 && wrap.created_at >= now - 172800 - 1);
    assert.ok(nostr.verifyEvent(wrap));

    const opened = agx.unwrapAgx(wrap, bob);
    assert.equal(opened.from, alice.publicKey);
    assert.equal(opened.kind, 'message');
    assert.equal(opened.class, 'text');
    assert.equal(opened.message.text, 'hello bob');
    assert.equal(opened.message.subject, 'hi');
    assert.equal(opened.rumor.id, rumor.id);
    assert.equal(opened.wrapId, wrap.id);

    // not for alice: typed error, discard (no retry)
    assert.throws(() => agx.unwrapAgx(wrap, alice), (e) => e instanceof NostrError && e.code === 'AGX_WRAP_NOT_FOR_US' && e.retry === false && e.disposition === 'ignore');
    // a secret key works too (through the secret slot)
    const sk = nostr.generateSecretKey();
    const carol = nostr.getPublicKey(sk);
    const w2 = await agx.wrapRumor(agx.createMessageRumor('x', alice.publicKey, carol), alice, carol);
    assert.equal(agx.unwrapAgx(w2, sk).message.text, 'x');
  });

  it('task request, result, receipt: classes and parsed payloads', async () => {
    const req = agx.createTaskRequestRumor({ taskId: 't1', capability: 'invoice.review', payload: { amount: 42 } }, alice.publicKey, bob.publicKey);
    const o1 = agx.unwrapAgx(await agx.wrapRumor(req, alice, bob.publicKey), bob);
    assert.equal(o1.class, 'task-request');
    // a request in the reference's shape: its requester takes none of our status envelopes
    assert.deepEqual(o1.task, { t: 'req', taskId: 't1', capability: 'invoice.review', payload: { amount: 42 }, updates: { status: false, input: false } });
    assert.equal(o1.message.contextId, 't1');

    const { rumor: res, replacedTooLarge } = agx.createTaskResultRumor({ taskId: 't1', status: 'completed', output: { ok: true } }, bob.publicKey, alice.publicKey);
    assert.equal(replacedTooLarge, false);
    const o2 = agx.unwrapAgx(await agx.wrapRumor(res, bob, alice.publicKey), alice);
    assert.equal(o2.class, 'task-result');
    assert.equal(o2.task.status, 'completed');
    assert.deepEqual(o2.task.output, { ok: true });

    const failed = agx.createTaskResultRumor({ taskId: 't2', status: 'failed' }, bob.publicKey, alice.publicKey).rumor;
    const o3 = agx.unwrapAgx(await agx.wrapRumor(failed, bob, alice.publicKey), alice);
    assert.equal(o3.task.error, 'handler failed');

    const rc = agx.createReceiptRumor(req.id, 't1', bob.publicKey, alice.publicKey);
    assert.equal(rc.kind, 3839);
    const o4 = agx.unwrapAgx(await agx.wrapRumor(rc, bob, alice.publicKey), alice);
    assert.equal(o4.class, 'receipt');
    assert.deepEqual(o4.receipt, { refEventId: req.id, contextId: 't1', status: 'delivered' });

    const unk = agx.createMessageRumor('{}', alice.publicKey, bob.publicKey, { contentType: 'application/x-other' });
    assert.equal(agx.unwrapAgx(await agx.wrapRumor(unk, alice, bob.publicKey), bob).class, 'unknown');
  });

  it('refuses to wrap a rumor for someone it does not p-tag, or by another author', async () => {
    const r = agx.createMessageRumor('x', alice.publicKey, bob.publicKey);
    await assert.rejects(agx.wrapRumor(r, alice, alice.publicKey), { code: 'INVALID_ARGUMENT' });
    await assert.rejects(agx.wrapRumor(r, bob, bob.publicKey), { code: 'INVALID_ARGUMENT' });
  });

  it('rejects tampered wraps with typed errors', async () => {
    const r = agx.createMessageRumor('x', alice.publicKey, bob.publicKey);
    const w = await agx.wrapRumor(r, alice, bob.publicKey);
    const noExp = { ...w, tags: w.tags.filter((t) => t[0] !== 'expiration') };
    assert.throws(() => agx.unwrapAgx(noExp, bob), { code: 'AGX_WRAP_NO_EXPIRATION' });
    const twoP = { ...w, tags: [...w.tags, ['p', alice.publicKey]] };
    assert.throws(() => agx.unwrapAgx(twoP, bob), { code: 'AGX_WRAP_P_TAG' });
    const future = { ...w, created_at: nowS() + 3600 };
    assert.throws(() => agx.unwrapAgx(future, bob), (e) => e.code === 'AGX_WRAP_FUTURE' && e.retry === true && e.disposition === 'retry');
  });

  it('capability matching', () => {
    assert.equal(agx.capabilityMatches('invoice.*', 'invoice.review'), true);
    assert.equal(agx.capabilityMatches('invoice.*', 'invoice'), false);
    assert.equal(agx.capabilityMatches('*', 'x.y'), true);
    assert.equal(agx.matchesCapability([1, null, 'a.b'], 'a.b'), true);
    assert.equal(agx.matchesCapability('a.b', 'a.b'), false);
    assert.equal(agx.findHandler(['*', 'a.*', 'a.b.*', 'a.c'], 'a.b.x'), 'a.b.*');
    assert.equal(agx.findHandler(['a.c'], 'a.b'), null);
  });

  it('authorization decisions and route()', async () => {
    const r0 = new agx.AgxRouter();
    assert.equal(r0.decide(alice.publicKey, 'x'), 'deny-unconfigured');
    assert.equal(r0.takeUnconfiguredWarning(), true);
    assert.equal(r0.takeUnconfiguredWarning(), false);
    r0.allow(alice.publicKey, 'invoice.*');
    assert.equal(r0.decide(alice.publicKey, 'invoice.review'), 'allow');
    assert.equal(r0.decide(bob.publicKey, 'invoice.review'), 'deny');
    assert.equal(new agx.AgxRouter('accept-all').decide(bob.publicKey, 'z'), 'allow');
    const host = new agx.AgxRouter('host');
    host.setHandlers(['invoice.review']);
    const req = agx.createTaskRequestRumor({ taskId: 't9', capability: 'invoice.review' }, alice.publicKey, bob.publicKey);
    const opened = agx.unwrapAgx(await agx.wrapRumor(req, alice, bob.publicKey), bob);
    assert.equal(host.route(opened).action, 'ask-host');
    const yes = host.route(opened, true);
    assert.equal(yes.action, 'run-handler');
    assert.equal(yes.sendReceipt, true);
    const no = host.route(opened, false);
    assert.deepEqual([no.action, no.reason, no.sendReceipt], ['deliver-plain', 'denied', false]);
    host.setHandlers(['other']);
    assert.equal(host.route(opened).reason, 'unknown-capability');
    // pending + result sender binding
    host.addPending('t9', bob.publicKey);
    assert.equal(host.settle('t9', alice.publicKey), 'wrong-sender');
    assert.equal(host.settle('t9', bob.publicKey), 'settled');
    assert.equal(host.settle('t9', bob.publicKey), 'unknown');
    r0.dispose();
    host.dispose();
  });

  it('replay guard', () => {
    const g = new agx.ReplayGuard();
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    assert.equal(g.knownWrap(a), false);
    g.processed(b, a);
    assert.equal(g.knownWrap(a), true);
    assert.equal(g.knownRumor(b), true);
    g.discarded('c'.repeat(64));
    assert.equal(g.size, 2, 'a discarded wrap goes to the cache, not among processed ids');
    assert.equal(g.cached, 1);
    assert.equal(g.knownWrap('c'.repeat(64)), true);
    assert.equal(g.knownRumor('c'.repeat(64)), false);
    g.dispose();
    // Full: refused (typed), nothing forgotten; room again once ids expire.
    const small = new agx.ReplayGuard({ cap: 2 });
    const t = 1_700_000_000;
    small.processed(b, a, t);
    assert.equal(small.hasRoom(t), false);
    assert.throws(() => small.processed('d'.repeat(64), 'e'.repeat(64), t), { code: 'AGX_OVERLOADED' });
    assert.equal(small.knownRumor('d'.repeat(64), t), false);
    assert.equal(small.knownRumor(b, t), true);
    assert.equal(small.hasRoom(t + 3 * 86400), true);
    small.dispose();
  });
});

describe('createAgxAgent over a dev relay with the AGX policy', () => {
  const env = useAgxRelay();
  const made = []; // peers still to close
  env.stops.push(async () => {
    for (const x of made) await x.close();
  });

  function peer(opts = {}) {
    const signer = LocalSigner.generate();
    const pool = new RelayPool({ relays: [env.relay.url], relayInfo: false });
    const warnings = [];
    const messages = [];
    const receipts = [];
    const errors = [];
    const agent = agx.createAgxAgent({
      signer,
      pool,
      onWarning: (w) => warnings.push(w),
      onMessage: (m) => messages.push(m),
      onReceipt: (r) => receipts.push(r),
      onError: (e) => errors.push(e),
      ...opts,
    });
    const p = {
      signer,
      pool,
      agent,
      warnings,
      messages,
      receipts,
      errors,
      async close() {
        await agent.close();
        await pool.close();
        signer.dispose();
      },
    };
    made.push(p);
    return p;
  }

  it('the relay refuses a wrap without PoW (the policy is on)', async () => {
    const sk = nostr.generateSecretKey();
    const bare = nostr.nip59.wrapEvent({ kind: 3838, content: 'x', tags: [] }, sk, nostr.getPublicKey(sk), {
      extraTags: [['expiration', String(nowS() + 1000)]],
    });
    const pool = new RelayPool({ relays: [env.relay.url], relayInfo: false });
    const res = await pool.publish(bare);
    await pool.close();
    // 1/4096 chance the unmined id has 12 zero bits anyway
    if (leadingZeroBits(bare.id) < 12) assert.equal(res[0].status, 'rejected');
  });

  it('a plain message, a task with receipt + result, a denied request, a replay, an unknown capability', async () => {
    const calls = [];
    const bob = peer({
      authorize: ({ from, capability }) => from === alice.signer.publicKey && capability.startsWith('invoice.'),
      handlers: {
        'invoice.review': async (payload, ctx) => {
          calls.push({ payload, ctx });
          return { approved: payload.amount < 10000 };
        },
        'invoice.boom': async () => {
          throw new agx.AgxPublicError('invoice not found');
        },
        'invoice.crash': async () => {
          throw new Error('secret internals');
        },
      },
    });
    const alice = peer({ acceptAll: true });
    const mallory = peer({ acceptAll: true });
    await Promise.all([bob.agent.serve(), alice.agent.serve(), mallory.agent.serve()]);
    assert.equal(bob.warnings.length, 0);

    // plain message, to an npub
    await alice.agent.send(nip19.npubEncode(bob.signer.publicKey), 'hello bob', { subject: 'greeting' });
    await until(() => bob.messages.length === 1);
    assert.equal(bob.messages[0].text, 'hello bob');
    assert.equal(bob.messages[0].from, alice.signer.publicKey);
    assert.equal(bob.messages[0].reason, 'plain-message');
    assert.equal(alice.receipts.length, 0); // no receipt for a plain message

    // task: receipt then result
    const out = await alice.agent.request(bob.signer.publicKey, 'invoice.review', { amount: 4200 }, { timeout: 10000 });
    assert.deepEqual(out, { approved: true });
    assert.equal(calls.length, 1);
    assert.equal(calls[0].ctx.from, alice.signer.publicKey);
    await until(() => alice.receipts.length === 1);
    assert.equal(alice.receipts[0].from, bob.signer.publicKey);
    assert.equal(alice.receipts[0].status, 'delivered');

    // handler errors: public text verbatim, others as "handler failed" (logged locally)
    await assert.rejects(alice.agent.request(bob.signer.publicKey, 'invoice.boom', {}, { timeout: 10000 }), (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'invoice not found');
    await assert.rejects(alice.agent.request(bob.signer.publicKey, 'invoice.crash', {}, { timeout: 10000 }), (e) => e.code === 'AGX_TASK_FAILED' && e.result.error === 'handler failed');
    assert.ok(bob.errors.some((e) => e.message === 'secret internals'));

    // denied: nothing comes back, the request reaches onMessage
    const before = bob.messages.length;
    await assert.rejects(mallory.agent.request(bob.signer.publicKey, 'invoice.review', { amount: 1 }, { timeout: 1500 }), (e) => e instanceof NostrError && e.code === 'AGX_TIMEOUT');
    assert.equal(calls.length, 1);
    assert.equal(mallory.receipts.length, 0);
    assert.equal(mallory.messages.length, 0);
    await until(() => bob.messages.length === before + 1);
    const denied = bob.messages.at(-1);
    assert.equal(denied.from, mallory.signer.publicKey);
    assert.equal(denied.reason, 'denied');
    assert.equal(denied.class, 'task-request');
    assert.equal(denied.task.capability, 'invoice.review');

    // unknown capability: the core routes it to the plain path (reason unknown-capability), no reply
    const receiptsBefore = alice.receipts.length;
    assert.equal(receiptsBefore, 3); // review, boom, crash: each authorized request got its receipt
    await assert.rejects(alice.agent.request(bob.signer.publicKey, 'weather.today', {}, { timeout: 1500 }), { code: 'AGX_TIMEOUT' });
    await until(() => bob.messages.some((m) => m.reason === 'unknown-capability'));
    assert.equal(alice.receipts.length, receiptsBefore);

    // replay: the same wrap published again and fed again is handled once
    const rumor = agx.createTaskRequestRumor({ taskId: 'replay-1', capability: 'invoice.review', payload: { amount: 7 } }, alice.signer.publicKey, bob.signer.publicKey);
    const wrap = await agx.wrapRumor(rumor, alice.signer, bob.signer.publicKey);
    const [first] = await alice.pool.publish(wrap);
    assert.equal(first.status, 'accepted');
    await until(() => calls.length === 2);
    const again = await alice.pool.publish(wrap);
    assert.equal(again[0].status, 'accepted'); // "duplicate" on the relay
    assert.equal(await bob.agent.ingest(wrap), 'replay');
    // a re-wrapped rumor (new wrap id, same rumor id) is the same message
    const rewrap = await agx.wrapRumor(rumor, alice.signer, bob.signer.publicKey);
    assert.notEqual(rewrap.id, wrap.id);
    await alice.pool.publish(rewrap);
    await sleep(300);
    assert.equal(await bob.agent.ingest(rewrap), 'replay');
    assert.equal(calls.length, 2);
    assert.equal(calls[1].payload.amount, 7);
  });

  it('a forged result from another sender is dropped; the request stays open for the real one', async () => {
    let taskId = null;
    let release;
    const gate = new Promise((r) => (release = r));
    const bob = peer({ acceptAll: true, handlers: { 'slow.op': async (_p, ctx) => ((taskId = ctx.taskId), await gate, 'genuine') } });
    const alice = peer({ acceptAll: true });
    const mallory = peer({ acceptAll: true });
    await Promise.all([bob.agent.serve(), alice.agent.serve()]);
    const pending = alice.agent.request(bob.signer.publicKey, 'slow.op', null, { timeout: 10000 });
    await until(() => taskId !== null);
    const forged = agx.createTaskResultRumor({ taskId, status: 'completed', output: 'forged' }, mallory.signer.publicKey, alice.signer.publicKey).rumor;
    const fw = await agx.wrapRumor(forged, mallory.signer, alice.signer.publicKey);
    assert.equal((await mallory.pool.publish(fw))[0].status, 'accepted');
    await sleep(300);
    assert.equal(alice.agent.pendingCount, 1);
    assert.equal(alice.messages.length, 0); // dropped, not delivered
    release();
    assert.equal(await pending, 'genuine');
  });

  it('warns once when nothing is configured, and denies', async () => {
    const carol = peer({ handlers: { 'a.b': () => 1 } });
    const dave = peer({ acceptAll: true });
    assert.equal(carol.warnings.length, 1);
    await Promise.all([carol.agent.serve(), dave.agent.serve()]);
    await assert.rejects(dave.agent.request(carol.signer.publicKey, 'a.b', null, { timeout: 1000 }), { code: 'AGX_TIMEOUT' });
    await until(() => carol.messages.length === 1);
    assert.equal(carol.messages[0].reason, 'denied-unconfigured');
    assert.equal(carol.warnings.length, 1);
  });

  it('abort and close reject open requests; close leaves nothing running', async () => {
    const erin = peer({ acceptAll: true });
    const frank = peer({ acceptAll: true });
    await erin.agent.serve();
    const ac = new AbortController();
    const p1 = assert.rejects(erin.agent.request(frank.signer.publicKey, 'x.y', {}, { timeout: 60000, signal: ac.signal }), { code: 'ABORTED' });
    ac.abort();
    await p1;
    const p2 = assert.rejects(erin.agent.request(frank.signer.publicKey, 'x.y', {}, { timeout: 60000 }), { code: 'AGX_CLOSED' });
    await sleep(50);
    await erin.close();
    await p2;
    assert.equal(erin.agent.pendingCount, 0);
    await assert.rejects(erin.agent.send(frank.signer.publicKey, 'x'), { code: 'AGX_CLOSED' });
    made.splice(made.indexOf(erin), 1);
  });
});
