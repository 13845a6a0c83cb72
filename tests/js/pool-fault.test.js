// FAULT: a relay is killed mid-subscription and restarted on the same port. The pool reconnects
// and resubscribes (with `since` from the core); the subscriber receives every event published
// before, during (the publisher waits for the relay and retries) and after the outage, each
// exactly once.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, RELAYS, pool, makeEvent, now, until, sleep } from './pool-helpers.js';

for (const [name, start] of RELAYS) {
  it(`${name} killed and restarted: every event delivered exactly once`, async () => {
    const relay = await start();
    const sk = nostr.generateSecretKey();
    const pk = nostr.getPublicKey(sk);
    const subscriber = pool({ relays: [relay.url] });
    const publisher = pool({ relays: [relay.url] });
    const counts = new Map();
    const states = [];
    subscriber.on('status', (s) => states.push(s));
    try {
      let eose = false;
      subscriber.subscribe({ kinds: [1], authors: [pk] }, {
        onevent: (e) => counts.set(e.id, (counts.get(e.id) ?? 0) + 1),
        oneose: () => (eose = true),
      });
      const batch = (tag) => [0, 1, 2, 3, 4].map((i) => makeEvent(sk, { content: `${tag}${i}`, created_at: now() }));

      const before = batch('before');
      for (const e of before) assert.equal((await publisher.publish(e))[0].status, 'accepted');
      await until(() => eose && counts.size === 5, 'the events published before');

      await relay.stop();
      await until(() => subscriber.status(relay.url).state === 'backing-off', 'the subscriber to notice');
      const backingOff = states.find((s) => s.state === 'backing-off');
      assert.equal(typeof backingOff.nextAttemptAt, 'number');
      assert.ok(backingOff.error instanceof nostr.NostrError);

      // Published while the relay is down: each publish waits for the relay to come back.
      const during = batch('during');
      const duringResults = Promise.all(during.map((e) => publisher.publish(e, { timeout: 15_000 })));
      await sleep(300);
      await relay.restart();
      for (const [r] of await duringResults) assert.equal(r.status, 'accepted', JSON.stringify(r));

      const after = batch('after');
      for (const e of after) assert.equal((await publisher.publish(e))[0].status, 'accepted');

      const all = [...before, ...during, ...after];
      await until(() => all.every((e) => counts.has(e.id)), 'every event', 10_000);
      await sleep(200); // a late duplicate would arrive here
      for (const e of all) assert.equal(counts.get(e.id), 1, `${e.content} delivered once`);
      assert.equal(counts.size, 15);
      // The resubscribe asked again for the overlap: re-sent events were dropped as duplicates.
      assert.ok(subscriber.stats.dropped.duplicate >= 5, JSON.stringify(subscriber.stats));
      assert.ok(states.filter((s) => s.state === 'open').length >= 2, 'reconnected');
    } finally {
      await subscriber.close();
      await publisher.close();
      await relay.close();
    }
  });
}
