// RelayPool connects on demand to relays it was not given (a peer's inbox relays: AGX outbox
// routing) and lets them go once nothing used them for idleTimeout ms; the relays it was given,
// and any relay a subscription still reads, stay. Real dev relays over real WebSockets.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, until, makeEvent } from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const { RelayPool, generateSecretKey } = nostr;

describe('RelayPool: relays connected on demand are let go when idle', () => {
  let own;
  let extra;
  let other;
  const pools = [];
  const pool = (opts) => {
    const p = new RelayPool({ relays: [own.url], relayInfo: false, ...opts });
    pools.push(p);
    return p;
  };
  before(async () => {
    [own, extra, other] = await Promise.all([1, 2, 3].map(() => startDevRelay({ memory: true, rateLimit: false })));
  });
  after(async () => {
    for (const p of pools) await p.close();
    await Promise.all([own, extra, other].map((r) => r.close()));
  });

  it('a relay the pool was not given closes once idle and reconnects when used again; the given ones stay', async () => {
    const sk = generateSecretKey();
    const p = pool({ idleTimeout: 150 });
    const keep = pool({ idleTimeout: false });
    assert.deepEqual(p.relays, [own.url]);
    const ev = makeEvent(sk, { content: 'to both' });
    const results = await p.publish(ev, { relays: [own.url, extra.url] });
    assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted']);
    await keep.publish(makeEvent(sk, { content: 'kept' }), { relays: [own.url, extra.url] });
    await until(() => !p.status().some((s) => s.relay === extra.url), 'the extra relay let go', 10_000);
    assert.equal(p.status(extra.url).state, 'closed');
    assert.equal(p.status(own.url).state, 'open', 'the pool keeps the relays it was given');
    assert.equal(keep.status(extra.url).state, 'open', 'idleTimeout: false keeps it');
    // used again: connected again
    const found = await p.query([{ ids: [ev.id] }], { relays: [extra.url] });
    assert.deepEqual(found.map((e) => e.id), [ev.id]);
    await until(() => !p.status().some((s) => s.relay === extra.url), 'let go again after the query', 10_000);
  });

  it('a subscription keeps its extra relay; closing it lets the relay go', async () => {
    const p = pool({ idleTimeout: 100 });
    const probe = pool({ idleTimeout: 100 });
    let eose = false;
    const sub = p.subscribe([{ kinds: [1] }], { relays: [other.url], oneose: () => (eose = true) });
    await until(() => eose, 'EOSE');
    // the probe pool's one-off query on the same relay is let go ...
    await probe.query([{ kinds: [1] }], { relays: [other.url] });
    await until(() => !probe.status().some((s) => s.relay === other.url), 'the one-off query let go', 10_000);
    // ... while the open subscription keeps its connection
    assert.equal(p.status(other.url).state, 'open');
    sub.close();
    await until(() => !p.status().some((s) => s.relay === other.url), 'let go after the subscription closed', 10_000);
  });

  it('idleTimeout is checked', () => {
    assert.throws(() => new RelayPool({ idleTimeout: -1 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new RelayPool({ idleTimeout: '5' }), { code: 'INVALID_ARGUMENT' });
  });
});
