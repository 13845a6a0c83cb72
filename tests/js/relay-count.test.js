// NIP-45 COUNT against relays that answer every way a relay can: decided by the core's relay
// machine (src/relay/subscriptions_count.cpp), executed by the pool. A refusal is RELAY_CLOSED
// with the relay's reason (it used to wait for the timeout: the CLOSED of a COUNT was dropped as
// an unknown subscription), auth-required runs NIP-42 and asks again, the hll comes through, a
// relay that goes away or says nothing ends the count its own way, and an abort ends it at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, makeEvent, startScriptedRelay, startSilentRelay } from './pool-helpers.js';
import { startDevRelay } from '../support/relays.js';

const { Relay, SimplePool, NostrError } = nostr;

async function rejectsWith(promise, code, check = () => true) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof NostrError, String(e));
    assert.equal(e.code, code, e.message);
    return check(e);
  });
}

describe('NIP-45 COUNT through the core', () => {
  it('a refusing relay: RELAY_CLOSED with its reason, before any timeout', async () => {
    const relay = await startScriptedRelay((ws, msg) => {
      if (msg?.[0] === 'COUNT') ws.send(JSON.stringify(['CLOSED', msg[1], 'blocked: counting is not offered here']));
    });
    const r = await Relay.connect(relay.url);
    r.publishTimeout = 60_000; // a refusal must not wait for this
    try {
      await rejectsWith(r.count([{ kinds: [1] }]), 'RELAY_CLOSED', (e) => {
        assert.equal(e.reason, 'blocked');
        assert.match(e.message, /refused COUNT: blocked: counting is not offered here/);
        return true;
      });
      // A refusal is final: the COUNT was not sent again.
      assert.equal(relay.received.filter((m) => m?.[0] === 'COUNT').length, 1);
    } finally {
      r.close();
      await relay.close();
    }
  });

  it('auth-required: the pool signs the challenge, then the COUNT is sent again and answered', async () => {
    const sk = nostr.generateSecretKey();
    let authed = false;
    const relay = await startScriptedRelay((ws, msg) => {
      if (!Array.isArray(msg)) return;
      if (msg[0] === 'AUTH') {
        authed = nostr.verifyEvent(msg[1]) && msg[1].kind === 22242 && msg[1].tags.some((t) => t[0] === 'challenge' && t[1] === 'ch-1');
        ws.send(JSON.stringify(['OK', msg[1].id, authed, authed ? '' : 'invalid: bad auth']));
      }
      if (msg[0] === 'COUNT') {
        if (!authed) {
          ws.send(JSON.stringify(['AUTH', 'ch-1']));
          ws.send(JSON.stringify(['CLOSED', msg[1], 'auth-required: sign in to count']));
        } else ws.send(JSON.stringify(['COUNT', msg[1], { count: 12, hll: 'ab'.repeat(256) }]));
      }
    });
    const r = await Relay.connect(relay.url);
    r.onauth = async (t) => nostr.finalizeEvent(t, sk);
    try {
      assert.deepEqual(await r.countWithHLL([{ kinds: [7] }]), { count: 12, hll: 'ab'.repeat(256) });
      const verbs = relay.received.map((m) => m?.[0]);
      assert.deepEqual(verbs, ['COUNT', 'AUTH', 'COUNT']);
      assert.equal(authed, true);
    } finally {
      r.close();
      await relay.close();
    }
  });

  it('an hll that is not 256 lowercase hex registers is left out; the count stays', async () => {
    const relay = await startScriptedRelay((ws, msg) => {
      if (msg?.[0] === 'COUNT') ws.send(JSON.stringify(['COUNT', msg[1], { count: 3, hll: 'XYZ' }]));
    });
    const r = await Relay.connect(relay.url);
    try {
      assert.deepEqual(await r.countWithHLL([{ kinds: [1] }]), { count: 3 });
    } finally {
      r.close();
      await relay.close();
    }
  });

  it('a relay that closes the connection after the COUNT: RELAY_CONNECTION_LOST', async () => {
    const relay = await startScriptedRelay((ws, msg) => {
      if (msg?.[0] === 'COUNT') ws.terminate();
    });
    const r = await Relay.connect(relay.url);
    r.publishTimeout = 60_000;
    try {
      await rejectsWith(r.count([{ kinds: [1] }]), 'RELAY_CONNECTION_LOST');
    } finally {
      r.close();
      await relay.close();
    }
  });

  // The test's own timeout is what fails a count that the abort did not end (its maxWait is 60 s).
  it('a relay that never answers: RELAY_TIMEOUT at the timeout; an abort ends a count at once', { timeout: 20_000 }, async () => {
    const silent = await startSilentRelay();
    const r = await Relay.connect(silent.url);
    r.publishTimeout = 300;
    try {
      await rejectsWith(r.count([{ kinds: [1] }]), 'RELAY_TIMEOUT', (e) => /did not answer COUNT/.test(e.message));
    } finally {
      r.close();
      await silent.close();
    }
    const silent2 = await startSilentRelay();
    const pool = new SimplePool();
    try {
      const ac = new AbortController();
      const p = pool.countMany([silent2.url], nostr.getPublicKey(nostr.generateSecretKey()), 'followers', { abort: ac.signal, maxWait: 60_000 });
      setTimeout(() => ac.abort(), 100);
      // countMany leaves out a relay that fails: an aborted count is 0, long before maxWait.
      assert.deepEqual(await p, { count: 0 });
    } finally {
      await pool.relayPool.close();
      await silent2.close();
    }
  });

  it('the dev relay counts; two counts with one id on one relay: the second is refused at once', async () => {
    const dev = await startDevRelay();
    const r = await Relay.connect(dev.url);
    try {
      const sk = nostr.generateSecretKey();
      const e = makeEvent(sk, { kind: 1, content: 'count me' });
      await r.publish(e);
      const first = r.count([{ authors: [e.pubkey] }], { id: 'same' });
      await rejectsWith(r.count([{ authors: [e.pubkey] }], { id: 'same' }), 'INVALID_ARGUMENT');
      assert.equal(await first, 1);
      await rejectsWith(r.count([{ kinds: ['x'] }]), 'INVALID_FILTER');
    } finally {
      r.close();
      await dev.close();
    }
  });
});
