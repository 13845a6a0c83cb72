// Issue 16 item 2: exactly-once that a junk flood cannot undo. Wraps failing a public check take
// no place in the replay memory (so 200,001 of them cannot push a processed request out and make
// the next poll run it again), a full replay store refuses new work loudly instead of forgetting,
// a served task's record outlives the retention until its request wrap expires, and a poll
// overlap reaching past the retention is refused.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { nostr, until, useAgxRelay } from './agx-helpers.js';
import { startDevRelay } from '../support/relays.js';
import { finalizeEvent, getPublicKey } from 'nostr-tools/pure';
import * as nip13 from 'nostr-tools/nip13';
import * as nip44 from 'nostr-tools/nip44';

const { agx, LocalSigner, RelayPool, generateSecretKey } = nostr;

const nowS = () => Math.floor(Date.now() / 1000);
const DAY = 86400;

/** n junk wraps addressed to `to`, each failing a cheap public check (two p tags, no expiration, expired). */
function* junkWraps(n, to, createdAt) {
  const ids = randomBytes(32 * Math.min(n, 65536));
  const sig = '0'.repeat(128);
  for (let i = 0; i < n; i++) {
    const k = i % 65536;
    if (k === 0 && i > 0) randomBytes(32 * 65536).copy(ids);
    const id = ids.toString('hex', 32 * k, 32 * k + 32);
    const exp = String(createdAt + 30 * DAY);
    const tags =
      i % 3 === 0 ? [['p', to], ['p', to], ['expiration', exp]] : i % 3 === 1 ? [['p', to]] : [['p', to], ['expiration', String(createdAt - 10)]];
    yield { id, pubkey: to, created_at: createdAt, kind: 1059, tags, content: 'junk', sig };
  }
}

describe('a junk flood cannot undo exactly-once (issue 16 item 2)', () => {
  const env = useAgxRelay();

  it('200,001 junk wraps, then a re-poll: the handler ran once, and the flood took no place in memory', { timeout: 600_000 }, async () => {
    let offset = 0;
    const clock = () => nowS() + offset;
    const errors = [];
    let runs = 0;
    const bob = env.client({ authorize: 'accept-all', now: clock, onError: (e) => errors.push(e.code) });
    bob.handle('pay', (p) => {
      runs++;
      return { paid: p.amount };
    });
    const alice = env.client({ requestTimeout: 60_000 });
    await Promise.all([bob.start(), alice.start()]);
    assert.deepEqual(await alice.request(bob.publicKey, 'pay', { amount: 10 }), { paid: 10 });
    assert.equal(runs, 1);

    // Later than the request was processed, so that an evicting store would drop its ids first.
    offset = 5;
    const counts = {};
    const batch = [];
    for (const junk of junkWraps(200_001, bob.publicKey, clock())) {
      batch.push(bob.ingest(junk).then((r) => (counts[r] = (counts[r] ?? 0) + 1)));
      if (batch.length === 2000) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
    assert.deepEqual(counts, { invalid: 200_001 });
    const stats = bob.replayStats;
    assert.ok(stats.processed <= 6, `processed ids: ${stats.processed}`); // the request and what bob received
    assert.equal(stats.cached, 0, 'public-check failures are not even cached');
    assert.equal(stats.overloaded, 0);
    assert.ok(errors.includes('AGX_WRAP_P_TAG') && errors.includes('AGX_WRAP_NO_EXPIRATION') && errors.includes('AGX_WRAP_EXPIRED'));

    // The re-poll fetches the original request from the relay: a replay, not a second payment.
    const p = await bob.poll();
    assert.equal(p.complete, true);
    assert.ok(p.replay >= 1, `the request came again: ${JSON.stringify(p)}`);
    assert.equal(p.processed, 0);
    assert.equal(runs, 1, 'the handler ran once');
  });

  describe('through a real relay that stores what the AGX policy would refuse', () => {
    let plain;
    before(async () => {
      plain = await startDevRelay({ memory: true });
    });
    after(() => plain.close());

    it('junk with valid signatures fails our public checks and is recorded nowhere; junk that passes them is only cached; the handler runs once', { timeout: 300_000 }, async () => {
      let runs = 0;
      const bob = env.client({ authorize: 'accept-all', relays: [plain.url] });
      bob.handle('pay', () => (runs++, 'ok'));
      const alice = env.client({ requestTimeout: 60_000, relays: [plain.url] });
      await Promise.all([bob.start(), alice.start()]);
      assert.equal(await alice.request(bob.publicKey, 'pay', {}), 'ok');
      assert.equal(runs, 1);

      // 600 validly signed kind-1059 events for bob that fail the AGX public checks (no PoW, no
      // expiration, two p tags), and 6 well-formed wraps that pass them but do not open (no seal
      // inside): cached, never among processed ids.
      const sk = generateSecretKey();
      const t = nowS();
      const junk = [];
      for (let i = 0; i < 600; i++) {
        const tags =
          i % 3 === 0
            ? [['p', bob.publicKey], ['expiration', String(t + DAY)]]
            : i % 3 === 1
              ? [['p', bob.publicKey]]
              : [['p', bob.publicKey], ['p', alice.publicKey], ['expiration', String(t + DAY)]];
        junk.push(finalizeEvent({ kind: 1059, created_at: t - i, tags, content: `junk ${i}` }, sk));
      }
      // Well-formed wraps (one p tag, expiration, 12-bit PoW committed, signed) whose content is no seal.
      for (let i = 0; i < 6; i++) {
        const eph = generateSecretKey();
        const base = {
          kind: 1059,
          created_at: t - 60,
          tags: [['p', bob.publicKey], ['expiration', String(t + 20 * DAY)]],
          content: nip44.encrypt(`not a seal ${i}`, nip44.getConversationKey(eph, bob.publicKey)),
          pubkey: getPublicKey(eph),
        };
        junk.push(finalizeEvent(nip13.minePow(base, 12), eph));
      }
      const pool = new RelayPool({ relays: [plain.url], relayInfo: false });
      const published = await Promise.all(junk.map((ev) => pool.publish(ev)));
      await pool.close();
      assert.ok(published.every((r) => r[0].status === 'accepted'), 'the plain relay stores the junk');

      await until(() => bob.replayStats.cached === 6, 'the six opened-and-discarded wraps cached (live subscription)');
      const p = await bob.poll();
      assert.equal(p.complete, true);
      assert.ok(p.invalid >= 600, `public-check failures: ${JSON.stringify(p)}`);
      assert.ok(p.replay >= 7, 'the request and the cached junk came again as replays');
      assert.equal(p.processed, 0);
      assert.equal(p.discarded, 0, 'cached wraps are not opened again');
      assert.ok(bob.replayStats.processed <= 6, `processed ids: ${bob.replayStats.processed}`);
      assert.equal(runs, 1, 'the handler ran once');
    });
  });

  it('a full replay store refuses new work: typed AGX_OVERLOADED to onError, one warning, the poll incomplete; once ids expire it is processed, once', { timeout: 300_000 }, async () => {
    let offset = 0;
    const clock = () => nowS() + offset;
    const errors = [];
    const warnings = [];
    const got = [];
    // maxSeen 4: room for two processed events (a rumor id and a wrap id each).
    const bob = env.client({ authorize: 'accept-all', now: clock, maxSeen: 4, onError: (e) => errors.push(e), onWarning: (w) => warnings.push(w) });
    bob.onMessage((m) => {
      got.push(m.text);
    });
    await bob.start();
    const alice = LocalSigner.generate();
    const wraps = [];
    for (const text of ['one', 'two', 'three'])
      wraps.push(await agx.wrapRumor(agx.createMessageRumor(text, alice.publicKey, bob.publicKey), alice, bob.publicKey));
    assert.equal(await bob.ingest(wraps[0]), 'processed');
    assert.equal(await bob.ingest(wraps[1]), 'processed');
    assert.equal(await bob.ingest(wraps[2]), 'overloaded');
    assert.deepEqual(got, ['one', 'two'], 'the refused message was not delivered');
    const refused = errors.filter((e) => e.code === 'AGX_OVERLOADED');
    assert.equal(refused.length, 1);
    assert.ok(refused[0] instanceof nostr.NostrError);
    assert.equal(refused[0].cap, 4);
    assert.equal(warnings.filter((w) => /replay store full/.test(w)).length, 1);
    assert.deepEqual(bob.replayStats, { processed: 4, cap: 4, cached: 0, overloaded: 1 });

    // Through the relay: the poll that meets it reports itself incomplete, so the cursor stays.
    const pool = new RelayPool({ relays: [env.relay.url], relayInfo: false });
    assert.equal((await pool.publish(wraps[2]))[0].status, 'accepted');
    await pool.close();
    const cursor = bob.cursor;
    offset = 2;
    const p = await bob.poll();
    assert.equal(p.complete, false);
    assert.ok(p.overloaded >= 1);
    assert.equal(bob.cursor, cursor);
    assert.equal(warnings.filter((w) => /replay store full/.test(w)).length, 1, 'warned once per episode');
    assert.deepEqual(got, ['one', 'two']);

    // Once the processed ids' retention ends there is room: processed, once.
    offset = 3 * DAY + 10;
    assert.equal(await bob.ingest(wraps[2]), 'processed');
    assert.equal(await bob.ingest(wraps[2]), 'replay');
    assert.deepEqual(got, ['one', 'two', 'three']);
    alice.dispose();
  });

  it("a served task's record lives until its request wrap expires: past the 3-day retention, and across a restart, the request is still a replay", { timeout: 300_000 }, async () => {
    let offset = 0;
    const clock = () => nowS() + offset;
    const store = new agx.MemorySeenStore();
    const bobSigner = LocalSigner.generate();
    let runs = 0;
    const handlers = { pay: () => (runs++, 'paid') };
    const bob = env.client({ authorize: 'accept-all', now: clock, seenStore: store, signer: bobSigner, handlers });
    await bob.start();
    const alice = LocalSigner.generate();
    const rumor = agx.createTaskRequestRumor({ taskId: 'pay-1', capability: 'pay', payload: { amount: 5 } }, alice.publicKey, bob.publicKey);
    const wrap = await agx.wrapRumor(rumor, alice, bob.publicKey);
    const wrapExpires = Number(wrap.tags.find((t) => t[0] === 'expiration')[1]);
    assert.equal(await bob.ingest(wrap), 'processed');
    await until(() => store.sentTaskCount === 1, 'the result went out and the record stayed');
    assert.equal(store.taskCount, 0, 'nothing left to do for it');
    const [rec] = (await store.load()).tasks;
    assert.equal(rec.state, 'sent');
    assert.equal(rec.expiresAt, wrapExpires, 'kept until the request wrap expires');
    assert.equal(rec.wrap.id, wrap.id);
    assert.equal(rec.result, undefined, 'only the ids are kept');

    offset = 4 * DAY; // beyond the 3-day retention of ordinary ids
    assert.equal(await bob.ingest(wrap), 'replay');
    await bob.stop();
    const again = env.client({ authorize: 'accept-all', now: clock, seenStore: store, signer: bobSigner, handlers });
    await again.start();
    assert.equal(await again.ingest(wrap), 'replay', 'a restart keeps it too');
    assert.equal(runs, 1);
    alice.dispose();
  });

  it('a poll overlap that makes the window reach past the retention is refused', () => {
    const signer = LocalSigner.generate();
    const make = (pollOverlap) => new agx.AgxClient({ signer, relays: [env.relay.url], pollInterval: 0, pollOverlap });
    assert.throws(() => make(86400), { code: 'INVALID_ARGUMENT', message: /pollOverlap/ });
    assert.throws(() => make(7 * DAY), { code: 'INVALID_ARGUMENT' });
    const ok = make(86399); // 86399 + 172800 < 259200
    assert.equal(ok.pollLookback, 86399 + 172800);
    return ok.stop().then(() => signer.dispose());
  });
});
