// RelayPool against real relays over real WebSockets: our dev relay and @nostr-relay/core (a
// relay nobody here wrote). Publish, subscribe, EOSE, CLOSE, CLOSED, OK reasons, NIP-42,
// replaceable and addressable kinds, ephemeral forwarding, NIP-11 limits.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, RELAYS, pool, keySigner, makeEvent, now, until, sleep } from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const { NostrError } = nostr;

for (const [name, start] of RELAYS) {
  describe(`pool with the ${name}`, () => {
    let relay;
    before(async () => {
      relay = await start();
    });
    after(async () => {
      await relay.close();
    });

    it('publishes, gets stored events then EOSE, then live events; close() sends CLOSE', async () => {
      const sk = nostr.generateSecretKey();
      const pk = nostr.getPublicKey(sk);
      const p = pool({ relays: [relay.url] });
      try {
        const stored = [makeEvent(sk, { content: 'one', created_at: now() - 2 }), makeEvent(sk, { content: 'two', created_at: now() - 1 })];
        for (const e of stored) {
          const [r] = await p.publish(e);
          assert.equal(r.status, 'accepted', JSON.stringify(r));
          assert.equal(r.relay, relay.url);
        }
        const seen = [];
        let eoseAt = -1;
        const sub = p.subscribe({ kinds: [1], authors: [pk] }, {
          onevent: (e, url) => {
            assert.equal(url, relay.url);
            seen.push(e.content);
          },
          oneose: () => (eoseAt = seen.length),
        });
        await until(() => eoseAt >= 0, 'EOSE');
        assert.equal(eoseAt, 2);
        assert.deepEqual(seen.sort(), ['one', 'two']);
        const live = makeEvent(sk, { content: 'three' });
        assert.equal((await p.publish(live))[0].status, 'accepted');
        await until(() => seen.length === 3, 'the live event');
        assert.equal(seen[2], 'three');
        assert.equal(sub.closed, false);

        let closedWith = null;
        sub._onclose = (reasons) => (closedWith = reasons);
        sub.close();
        assert.equal(sub.closed, true);
        assert.equal(closedWith[0].reason, 'closed');
        await p.publish(makeEvent(sk, { content: 'four' }));
        await sleep(100);
        assert.equal(seen.length, 3, 'nothing after close');
        assert.equal(p.stats.dropped['unknown-subscription'], 0, 'the relay stopped sending: CLOSE arrived');
      } finally {
        await p.close();
      }
    });

    it('subscriptions are async iterators; break closes them; duplicates are accepted with reason', async () => {
      const sk = nostr.generateSecretKey();
      const pk = nostr.getPublicKey(sk);
      const p = pool({ relays: [relay.url] });
      try {
        const e1 = makeEvent(sk, { content: 'a' });
        await p.publish(e1);
        const dup = await p.publish(e1);
        assert.equal(dup[0].status, 'accepted');
        // @nostr-relay/core answers a repeat from its cache of the first answer (no "duplicate:").
        if (name === 'dev relay') assert.equal(dup[0].reason, 'duplicate');
        const sub = p.subscribe([{ kinds: [1], authors: [pk] }]);
        const got = [];
        const reading = (async () => {
          for await (const e of sub) {
            got.push(e);
            assert.equal(nostr.verifyEvent(e), true);
            assert.equal(e[nostr.verifiedSymbol], true);
            if (got.length === 3) break;
          }
        })();
        await until(() => got.length === 1, 'the stored event');
        await p.publish(makeEvent(sk, { content: 'b' }));
        await p.publish(makeEvent(sk, { content: 'c' }));
        await reading;
        assert.deepEqual(got.map((e) => e.content), ['a', 'b', 'c']);
        assert.equal(sub.closed, true);
      } finally {
        await p.close();
      }
    });

    it('OK false reasons arrive typed: an expired event', async () => {
      const sk = nostr.generateSecretKey();
      const p = pool({ relays: [relay.url] });
      try {
        const expired = makeEvent(sk, { tags: [['expiration', String(now() - 60)]] });
        const [r] = await p.publish(expired);
        assert.equal(r.status, 'rejected');
        assert.ok(r.error instanceof NostrError);
        assert.equal(r.error.code, 'RELAY_REJECTED');
        assert.equal(r.attempts, 1, 'not a transient reason: no retry');
        // Ours says "invalid:"; @nostr-relay/core says "reject:", a prefix NIP-01 does not define.
        assert.equal(r.reason, name === 'dev relay' ? 'invalid' : 'unknown');
        assert.match(r.message, /expire/);
      } finally {
        await p.close();
      }
    });

    it('replaceable and addressable events: the pool sees the newest version only', async () => {
      const sk = nostr.generateSecretKey();
      const pk = nostr.getPublicKey(sk);
      const p = pool({ relays: [relay.url] });
      try {
        const t = now();
        for (const [c, dt] of [['old', -20], ['new', -10]]) await p.publish(makeEvent(sk, { kind: 0, content: c, created_at: t + dt }));
        const older = await p.publish(makeEvent(sk, { kind: 0, content: 'older still', created_at: t - 30 }));
        assert.notEqual(older[0].status, 'timeout');
        const profiles = await p.query({ kinds: [0], authors: [pk] });
        assert.deepEqual(profiles.map((e) => e.content), ['new']);

        for (const [d, c, dt] of [['x', 'x1', -5], ['y', 'y1', -5], ['x', 'x2', -1]])
          await p.publish(makeEvent(sk, { kind: 30078, content: c, tags: [['d', d]], created_at: t + dt }));
        const addressable = await p.query({ kinds: [30078], authors: [pk] });
        assert.deepEqual(addressable.map((e) => e.content).sort(), ['x2', 'y1']);
        const x = await p.get({ kinds: [30078], authors: [pk], '#d': ['x'] });
        assert.equal(x.content, 'x2');
      } finally {
        await p.close();
      }
    });

    it('ephemeral events are forwarded to live subscribers and not stored', async () => {
      const sk = nostr.generateSecretKey();
      const pk = nostr.getPublicKey(sk);
      const sender = pool({ relays: [relay.url] });
      const receiver = pool({ relays: [relay.url] });
      try {
        const got = [];
        let eose = false;
        receiver.subscribe({ kinds: [20001], authors: [pk] }, { onevent: (e) => got.push(e), oneose: () => (eose = true) });
        await until(() => eose, 'EOSE');
        const e = makeEvent(sk, { kind: 20001, content: 'blink' });
        const [r] = await sender.publish(e);
        assert.equal(r.status, 'accepted');
        await until(() => got.length === 1, 'the ephemeral event');
        assert.equal(got[0].id, e.id);
        assert.deepEqual(await receiver.query({ kinds: [20001], authors: [pk] }), []);
      } finally {
        await sender.close();
        await receiver.close();
      }
    });

    it('events that do not match the filter are never delivered (live #p subscriptions)', async () => {
      const sk = nostr.generateSecretKey();
      const target = nostr.getPublicKey(nostr.generateSecretKey());
      const other = nostr.getPublicKey(nostr.generateSecretKey());
      const p = pool({ relays: [relay.url] });
      try {
        const got = [];
        let eose = false;
        p.subscribe({ kinds: [1], '#p': [target] }, { onevent: (e) => got.push(e), oneose: () => (eose = true) });
        await until(() => eose, 'EOSE');
        await p.publish(makeEvent(sk, { content: 'not for target', tags: [['p', other]] }));
        await p.publish(makeEvent(sk, { content: 'for target', tags: [['p', target]] }));
        await until(() => got.length >= 1, 'the matching event');
        await sleep(50);
        assert.deepEqual(got.map((e) => e.content), ['for target']);
      } finally {
        await p.close();
      }
    });

    it('AbortSignal ends a subscription (the iterator throws ABORTED) and a publish (rejects)', async () => {
      const sk = nostr.generateSecretKey();
      const p = pool({ relays: [relay.url] });
      try {
        const ctrl = new AbortController();
        const sub = p.subscribe({ kinds: [1], authors: [nostr.getPublicKey(sk)] }, { signal: ctrl.signal });
        const it = sub[Symbol.asyncIterator]();
        const next = it.next();
        setTimeout(() => ctrl.abort(), 20);
        await assert.rejects(next, (err) => err instanceof NostrError && err.code === 'ABORTED');
        assert.equal(sub.closed, true);
        assert.equal((await it.next()).done, true);

        const pubCtrl = new AbortController();
        pubCtrl.abort();
        await assert.rejects(p.publish(makeEvent(sk), { signal: pubCtrl.signal }), { code: 'ABORTED' });
        await assert.rejects(p.publish({ ...makeEvent(sk), content: 'tampered' }), { code: 'ID_MISMATCH' });
      } finally {
        await p.close();
      }
    });
  });
}

describe('pool and NIP-42', () => {
  it('dev relay with auth on: publish and subscribe succeed after AUTH through the signer', async () => {
    const relay = await startDevRelay({ memory: true, auth: true });
    const sk = nostr.generateSecretKey();
    const p = pool({ relays: [relay.url], signer: new nostr.LocalSigner(sk) });
    const states = [];
    p.on('status', (s) => states.push(s.state));
    try {
      const e = makeEvent(sk, { content: 'authed' });
      const [r] = await p.publish(e);
      assert.equal(r.status, 'accepted', JSON.stringify(r));
      assert.equal(r.attempts, 2, 'refused with auth-required, then sent again after AUTH');
      assert.ok(states.includes('authenticating'));
      assert.equal(p.status(relay.url).authenticatedAs, nostr.getPublicKey(sk));

      // eagerAuth: the pool answers the challenge as soon as it arrives.
      const eager = pool({ relays: [relay.url], signer: keySigner(sk), eagerAuth: true });
      try {
        await eager.ensureRelay(relay.url);
        await until(() => eager.status(relay.url).authenticatedAs === nostr.getPublicKey(sk), 'eager AUTH');
      } finally {
        await eager.close();
      }

      // A second pool: its REQ is CLOSED with auth-required, then retried after AUTH.
      const q = pool({ relays: [relay.url], signer: keySigner(nostr.generateSecretKey()) });
      try {
        const got = await q.query({ ids: [e.id] });
        assert.deepEqual(got.map((x) => x.id), [e.id]);
      } finally {
        await q.close();
      }
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('dev relay with auth on and no signer: typed refusals and an auth-required status', async () => {
    const relay = await startDevRelay({ memory: true, auth: true });
    const p = pool({ relays: [relay.url] });
    const states = [];
    p.on('status', (s) => states.push(s));
    try {
      const [r] = await p.publish(makeEvent(nostr.generateSecretKey()));
      assert.equal(r.status, 'rejected');
      assert.equal(r.reason, 'auth-required');
      const authState = states.find((s) => s.state === 'auth-required');
      assert.ok(authState, 'status auth-required emitted');
      assert.equal(authState.error.code, 'AUTH_REQUIRED');

      let reasons = null;
      const sub = p.subscribe({ kinds: [1] }, { onclose: (rs) => (reasons = rs) });
      await until(() => reasons !== null, 'CLOSED');
      assert.equal(reasons[0].reason, 'auth-required');
      await assert.rejects(sub[Symbol.asyncIterator]().next(), { code: 'RELAY_CLOSED' });
      await assert.rejects(p.query({ kinds: [1] }), { code: 'RELAY_CLOSED' });
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('a signer that refuses, an AUTH the relay refuses: AUTH_FAILED, the refusal stands', async () => {
    const relay = await startDevRelay({ memory: true, auth: true });
    const sk = nostr.generateSecretKey();
    const refusing = { getPublicKey: async () => nostr.getPublicKey(sk), signEvent: async () => { throw new Error('user said no'); } };
    const forging = {
      getPublicKey: async () => nostr.getPublicKey(sk),
      signEvent: async (t) => nostr.finalizeEvent({ ...t, tags: [['relay', relay.url], ['challenge', 'not the one']] }, sk),
    };
    try {
      for (const [signer, pattern] of [[refusing, /user said no/], [forging, /refused AUTH/]]) {
        const p = pool({ relays: [relay.url], signer });
        const errors = [];
        p.on('status', (s) => s.state === 'auth-required' && errors.push(s.error));
        try {
          const [r] = await p.publish(makeEvent(sk));
          assert.equal(r.status, 'rejected');
          assert.equal(r.reason, 'auth-required');
          assert.equal(errors[0].code, 'AUTH_FAILED');
          assert.match(errors[0].message, pattern);
          let reasons = null;
          p.subscribe({ kinds: [1] }, { onclose: (rs) => (reasons = rs) });
          await until(() => reasons !== null, 'CLOSED');
          assert.equal(reasons[0].reason, 'auth-required');
          assert.equal(errors.length, 1, 'no second AUTH on the same challenge');
        } finally {
          await p.close();
        }
      }
    } finally {
      await relay.close();
    }
  });

  it('dev relay restricted to other pubkeys: AUTH succeeds, publish rejected "restricted"', async () => {
    const allowed = nostr.getPublicKey(nostr.generateSecretKey());
    const relay = await startDevRelay({ memory: true, auth: true, allowedPubkeys: [allowed] });
    const sk = nostr.generateSecretKey();
    const p = pool({ relays: [relay.url], signer: keySigner(sk) });
    try {
      const [r] = await p.publish(makeEvent(sk));
      assert.equal(r.status, 'rejected');
      assert.equal(r.reason, 'restricted');
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('third-party relay with auth on: DMs are served after AUTH', async () => {
    const [, startThirdParty] = RELAYS[1];
    const relay = await startThirdParty({ auth: true });
    const alice = nostr.generateSecretKey();
    const bob = nostr.generateSecretKey();
    const bobPk = nostr.getPublicKey(bob);
    const sender = pool({ relays: [relay.url] });
    const reader = pool({ relays: [relay.url], signer: keySigner(bob) });
    const anonymous = pool({ relays: [relay.url] });
    try {
      const dm = makeEvent(alice, { kind: 4, content: 'ciphertext?iv=x', tags: [['p', bobPk]] });
      assert.equal((await sender.publish(dm))[0].status, 'accepted');
      const got = await reader.query({ kinds: [4], '#p': [bobPk] });
      assert.deepEqual(got.map((e) => e.id), [dm.id]);
      assert.equal(reader.status(relay.url).authenticatedAs, bobPk);
      // Without a signer the relay's refusal stands.
      await assert.rejects(anonymous.query({ kinds: [4], '#p': [bobPk] }), { code: 'RELAY_CLOSED' });
    } finally {
      await sender.close();
      await reader.close();
      await anonymous.close();
      await relay.close();
    }
  });
});

describe('pool and NIP-11', () => {
  it('fetchRelayInfo reads the document; limits are honored before sending', async () => {
    const relay = await startDevRelay({ memory: true, maxMessageLength: 4000, maxSubscriptions: 2, maxFilters: 2 });
    const p = pool({ relays: [relay.url] });
    try {
      const info = await nostr.fetchRelayInfo(relay.url);
      assert.equal(info.limitation.max_message_length, 4000);
      assert.ok(Array.isArray(info.supported_nips));

      const sk = nostr.generateSecretKey();
      const [big] = await p.publish(makeEvent(sk, { content: 'x'.repeat(5000) }));
      assert.equal(big.status, 'rejected');
      assert.equal(big.error.code, 'MESSAGE_TOO_LARGE');
      assert.equal(big.attempts, 0, 'never sent');
      assert.equal(p.status(relay.url).info.limitation.max_subscriptions, 2);

      let closed = null;
      p.subscribe([{ kinds: [1] }, { kinds: [2] }, { kinds: [3] }], { onclose: (r) => (closed = r) });
      await until(() => closed !== null, 'local close');
      assert.equal(closed[0].code, 'TOO_MANY_FILTERS');

      const eosed = [];
      const subs = [0, 1, 2].map((i) => p.subscribe({ kinds: [1], '#t': [`s${i}`] }, { oneose: () => eosed.push(i) }));
      await until(() => eosed.length === 2, 'two EOSEs');
      await sleep(50);
      assert.deepEqual(eosed.sort(), [0, 1], 'the third waits for a free slot');
      subs[0].close();
      await until(() => eosed.length === 3, 'the queued subscription');
      assert.equal(p.stats.dropped.malformed, 0);
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('a relay without a NIP-11 document: RELAY_INFO_UNAVAILABLE, the pool works without limits', async () => {
    const [, startThirdParty] = RELAYS[1];
    const relay = await startThirdParty();
    try {
      await assert.rejects(nostr.fetchRelayInfo(relay.url), { code: 'RELAY_INFO_UNAVAILABLE' });
      await assert.rejects(nostr.fetchRelayInfo('ftp://x'), { code: 'RELAY_URL_INVALID' });
    } finally {
      await relay.close();
    }
  });
});

describe('pool retries', () => {
  it('publish retries rate-limited refusals with backoff until accepted', async () => {
    const relay = await startDevRelay({ memory: true, rateLimit: { rate: 20, burst: 2 } });
    const p = pool({ relays: [relay.url], relayInfo: false, publishRetries: 8 });
    try {
      const sk = nostr.generateSecretKey();
      const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => p.publish(makeEvent(sk, { content: `r${i}` }))));
      const flat = results.map((r) => r[0]);
      assert.ok(flat.every((r) => r.status === 'accepted'), JSON.stringify(flat));
      assert.ok(flat.some((r) => r.attempts > 1), 'some were retried');
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('a CLOSED with a permanent reason from the relay closes the subscription on that relay', async () => {
    const relay = await startDevRelay({ memory: true, maxFilters: 1 });
    // relayInfo off: the pool does not know the limit, the relay enforces it.
    const p = pool({ relays: [relay.url], relayInfo: false });
    try {
      let reasons = null;
      p.subscribe([{ kinds: [1] }, { kinds: [2] }], { onclose: (r) => (reasons = r) });
      await until(() => reasons !== null, 'CLOSED');
      assert.equal(reasons[0].reason, 'invalid');
      assert.match(reasons[0].message, /too many filters/);
    } finally {
      await p.close();
      await relay.close();
    }
  });
});

describe('pool options', () => {
  it('timeouts and counts that are not numbers >= 0 are INVALID_ARGUMENT, not waits that end at once', async () => {
    const bad = [
      [{ relays: 'wss://relay.example.com' }, /relays must be an array/],
      [{ relays: [42] }, /relays must be an array/],
      [{ publishTimeout: '300' }, /publishTimeout/],
      [{ connectTimeout: NaN }, /connectTimeout/],
      [{ authTimeout: -1 }, /authTimeout/],
      [{ infoTimeout: Infinity }, /infoTimeout/],
      [{ publishRetries: 1.5 }, /publishRetries must be an integer/],
      [{ seenCap: '10' }, /seenCap/],
      [{ ping: { interval: '100' } }, /ping\.interval/],
      [{ reconnect: { maxDelay: -5 } }, /reconnect\.maxDelay/],
      [{ retry: { factor: null } }, /retry\.factor/],
    ];
    for (const [opts, message] of bad)
      assert.throws(() => new nostr.RelayPool(opts), (e) => e instanceof NostrError && e.code === 'INVALID_ARGUMENT' && message.test(e.message), JSON.stringify(opts));
    assert.throws(() => new nostr.RelayPool(null), { code: 'INVALID_ARGUMENT' });
    new nostr.RelayPool({ ping: false, reconnect: false, publishTimeout: 0 }).close();
    // an option given as undefined is the default (`{ relays: options.relays }`)
    const dflt = new nostr.RelayPool({ relays: undefined, publishTimeout: undefined, ping: { interval: undefined } });
    await assert.rejects(dflt.publish(makeEvent(nostr.generateSecretKey(), {})), { code: 'INVALID_ARGUMENT', message: /no relays given/ });
    await dflt.close();

    const relay = await startDevRelay({ memory: true });
    const p = pool({ relays: [relay.url] });
    try {
      const ev = makeEvent(nostr.generateSecretKey(), { content: 'options' });
      for (const o of [{ timeout: '300' }, { timeout: NaN }, { timeout: -1 }, { retries: 'x' }, { retries: -1 }])
        await assert.rejects(p.publish(ev, o), { code: 'INVALID_ARGUMENT' }, JSON.stringify(o));
      for (const o of [{ maxWait: '300' }, { maxWait: -5 }])
        await assert.rejects(p.query([{ kinds: [1] }], o), { code: 'INVALID_ARGUMENT' }, JSON.stringify(o));
      await assert.rejects(p.ensureRelay(relay.url, { timeout: '300' }), { code: 'INVALID_ARGUMENT' });
      // the same calls with numbers work; Infinity is "no deadline" where a call takes a deadline
      assert.deepEqual((await p.publish(ev, { timeout: Infinity, retries: 0 })).map((r) => r.status), ['accepted']);
      assert.deepEqual((await p.query([{ ids: [ev.id] }], { maxWait: Infinity })).map((e) => e.id), [ev.id]);
      assert.equal((await p.ensureRelay(relay.url, { timeout: Infinity })).state, 'open');
    } finally {
      await p.close();
      await relay.close();
    }
  });

  it('an async callback that rejects reaches the error listeners (or console.error), never an unhandled rejection', async () => {
    const relay = await startDevRelay({ memory: true });
    const p = pool({ relays: [relay.url] });
    const unhandled = [];
    const onUnhandled = (e) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const logged = [];
    const consoleError = console.error;
    try {
      const sk = nostr.generateSecretKey();
      const ev = makeEvent(sk, { content: 'async callbacks' });
      const errors = [];
      const off = p.on('error', (e) => errors.push(e.message));
      await p.publish(ev, { onresult: async () => { throw new Error('onresult failed'); } });
      const got = [];
      await new Promise((resolve) => {
        p.subscribe({ ids: [ev.id] }, {
          onevent: async (e) => {
            got.push(e.id);
            await null;
            throw new Error('onevent failed');
          },
          oneose: async () => {
            resolve();
            throw new Error('oneose failed');
          },
        });
      });
      await until(() => errors.length >= 3);
      assert.deepEqual(errors.sort(), ['oneose failed', 'onevent failed', 'onresult failed']);
      assert.deepEqual(got, [ev.id], 'the subscription went on');
      off();
      // no error listener: console.error
      console.error = (...a) => logged.push(a);
      await p.query([{ ids: [ev.id] }]);
      p.subscribe({ ids: [ev.id] }, { onevent: () => Promise.reject(new Error('unheard')) });
      await until(() => logged.length >= 1);
      assert.match(String(logged[0][0]), /a callback threw/);
      assert.equal(logged[0][1].message, 'unheard');
      await sleep(50); // a rejection left unhandled is reported within a tick or two
      assert.deepEqual(unhandled, []);
    } finally {
      console.error = consoleError;
      process.off('unhandledRejection', onUnhandled);
      await p.close();
      await relay.close();
    }
  });
});
