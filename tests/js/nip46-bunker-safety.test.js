// The bunker denies unless the user said yes (issue 16, item 1), over a real dev relay: a stranger
// who knows only the user's npub (or even the bunker's address) gets nothing signed or decrypted;
// a client with the secret gets exactly its perms; a spent secret stays spent across a restart
// when a store is given; junk cannot push real request ids out of the replay set; one secret
// admits one client even when two race for it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, until, rejectsCode } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { Nip46Signer, startBunker, LocalSigner, RelayPool, toBunkerURL, NOSTR_CONNECT_KIND, verifyEvent, bytesToHex } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);
const note = (kind = 1, content = 'x') => ({ kind, tags: [], content, created_at: nowS() });

/** The user's key, counting every use the bunker makes of it. */
function watched(user) {
  const calls = { signEvent: 0, nip44Encrypt: 0, nip44Decrypt: 0 };
  return {
    calls,
    getPublicKey: () => user.getPublicKey(),
    signEvent: (t) => (calls.signEvent++, user.signEvent(t)),
    nip44Encrypt: (p, s) => (calls.nip44Encrypt++, user.nip44Encrypt(p, s)),
    nip44Decrypt: (p, s) => (calls.nip44Decrypt++, user.nip44Decrypt(p, s)),
  };
}

/** A RelayPool whose subscriptions can also be fed by hand (the same path as a relay's EVENT). */
class TapPool extends RelayPool {
  taps = [];
  subscribe(filters, opts) {
    this.taps.push(opts.onevent);
    return super.subscribe(filters, opts);
  }
  feed(event) {
    for (const t of this.taps) t(event);
  }
}

describe('nip46 bunker: deny unless the user said yes', () => {
  let relay;
  const pools = [];
  const keys = [];
  const bunkers = [];
  const newPool = (opts) => {
    const p = new RelayPool(opts);
    pools.push(p);
    return p;
  };
  const newKey = () => {
    const k = LocalSigner.generate();
    keys.push(k);
    return k;
  };
  const started = async (opts) => {
    const b = await startBunker({ relays: [relay.url], pool: newPool(), ...opts });
    bunkers.push(b);
    return b;
  };

  /** A raw NIP-46 client: sends requests as `from`, collects the answers addressed to it. */
  async function rawClient(from, to) {
    const pool = newPool({ relays: [relay.url] });
    const answers = new Map();
    await new Promise((resolve) => {
      pool.subscribe([{ kinds: [NOSTR_CONNECT_KIND], '#p': [from.publicKey] }], {
        oneose: resolve,
        onevent: async (ev) => {
          const a = JSON.parse(await from.nip44Decrypt(ev.pubkey, ev.content));
          answers.set(a.id, a);
        },
      });
    });
    return {
      answers,
      async send(id, method, params) {
        const content = await from.nip44Encrypt(to, JSON.stringify({ id, method, params }));
        const event = await from.signEvent({ kind: NOSTR_CONNECT_KIND, tags: [['p', to]], content, created_at: nowS() });
        await pool.publish(event);
        return event;
      },
      answer: async (id) => {
        await until(() => answers.has(id), `the answer to ${id}`);
        return answers.get(id);
      },
    };
  }

  before(async () => {
    relay = await startDevRelay({ memory: true });
  });
  after(async () => {
    for (const b of bunkers) await b.stop();
    for (const p of pools) await p.close();
    await relay.close();
    for (const k of keys) k.dispose();
  });

  it('a stranger who knows the npub gets nothing: no connect, no sign_event, no nip44_decrypt', async () => {
    const user = newKey();
    const me = watched(user);
    const bunker = await started({ signer: me });
    assert.notEqual(bunker.pubkey, user.publicKey, 'the address is not the user key');
    assert.match(bunker.secret, /^[0-9a-f]{64}$/, 'a one-time secret was generated');
    assert.match(bunker.bunkerUri, new RegExp(`^bunker://${bunker.pubkey}\\?relay=.*&secret=${bunker.secret}$`));

    // What the stranger knows: the npub. Nobody answers there.
    const stranger = newKey();
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: user.publicKey, relays: [relay.url] }), { pool: newPool(), connectTimeout: 1500 }), 'SIGNER_UNAVAILABLE');

    // Even the bunker's address (seen in relay traffic, say) without the secret is no way in.
    const dm = await newKey().nip44Encrypt(user.publicKey, 'a private message to the user');
    const raw = await rawClient(stranger, bunker.pubkey);
    await raw.send('c1', 'connect', [bunker.pubkey]);
    await raw.send('c2', 'connect', [bunker.pubkey, 'guessed-secret']);
    await raw.send('s1', 'sign_event', [JSON.stringify(note(1, 'signed by a stranger'))]);
    await raw.send('d1', 'nip44_decrypt', [user.publicKey, dm]);
    assert.match((await raw.answer('c1')).error, /needs a connection secret/);
    assert.match((await raw.answer('c2')).error, /invalid or already used secret/);
    assert.match((await raw.answer('s1')).error, /not connected/);
    assert.match((await raw.answer('d1')).error, /not connected/);
    for (const id of ['c1', 'c2', 's1', 'd1']) assert.equal(raw.answers.get(id).result, undefined, id);
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url] }), { pool: newPool() }), 'SIGNER_REFUSED');
    assert.deepEqual(me.calls, { signEvent: 0, nip44Encrypt: 0, nip44Decrypt: 0 }, 'the user key was never used');
    assert.deepEqual(bunker.clients, []);
    assert.ok(bunker.secret, 'failed guesses do not spend the secret');
  });

  it('a client with the secret gets exactly its perms; the rest is refused with an error answer', async () => {
    const user = newKey();
    const me = watched(user);
    const peer = newKey();
    const bunker = await started({ signer: me });
    const used = bunker.secret;
    const signer = await Nip46Signer.connect(bunker.bunkerUri, { pool: newPool(), perms: ['sign_event:1', 'nip44_encrypt', 'get_relays'] });
    try {
      assert.deepEqual(bunker.permsOf(signer.clientPubkey), ['nip44_encrypt', 'sign_event:1']);
      assert.ok(verifyEvent(await signer.signEvent(note(1))));
      await rejectsCode(signer.signEvent(note(4)), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /permission denied: sign_event:4/));
      await rejectsCode(signer.signEvent(note(0)), 'SIGNER_REFUSED');
      const payload = await signer.nip44Encrypt(peer.publicKey, 'allowed');
      assert.equal(await peer.nip44Decrypt(user.publicKey, payload), 'allowed');
      const dm = await peer.nip44Encrypt(user.publicKey, 'not for this client');
      await rejectsCode(signer.nip44Decrypt(peer.publicKey, dm), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /nip44_decrypt/));
      await signer.ping(); // needs no perm
      assert.deepEqual(me.calls, { signEvent: 1, nip44Encrypt: 1, nip44Decrypt: 0 });
      // Connecting again cannot widen the grant.
      const again = await signer.sendRequest('connect', [bunker.pubkey, '', 'sign_event,nip44_decrypt']);
      assert.equal(again, 'ack');
      await rejectsCode(signer.signEvent(note(4)), 'SIGNER_REFUSED');
      assert.deepEqual(bunker.permsOf(signer.clientPubkey), ['nip44_encrypt', 'sign_event:1']);
    } finally {
      await signer.close();
    }
    // The secret was single use; a further secret carries its own, narrower ceiling.
    assert.equal(bunker.secret, null);
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: bunker.pubkey, relays: [relay.url], secret: used }), { pool: newPool() }), 'SIGNER_REFUSED');
    const uri = await bunker.issueSecret({ perms: ['nip44_decrypt'] });
    const second = await Nip46Signer.connect(uri, { pool: newPool(), perms: ['nip44_decrypt', 'sign_event'] });
    try {
      assert.deepEqual(bunker.permsOf(second.clientPubkey), ['nip44_decrypt']);
      await rejectsCode(second.signEvent(note(1)), 'SIGNER_REFUSED');
      const dm = await peer.nip44Encrypt(user.publicKey, 'for the second app');
      assert.equal(await second.nip44Decrypt(peer.publicKey, dm), 'for the second app');
      await bunker.revoke(second.clientPubkey);
      await rejectsCode(second.nip44Decrypt(peer.publicKey, dm), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /not connected/));
    } finally {
      await second.close();
    }
  });

  it('a restart with a store does not revive a spent secret; connected clients keep their grants', async () => {
    const user = newKey();
    const remote = newKey(); // a stable address across the restart
    const kv = new Map();
    const store = { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) };
    const opts = { signer: user, remoteSigner: remote, secret: 'configured-once', store };
    const first = await started(opts);
    assert.equal(first.secret, 'configured-once');
    const clientKey = nostr.generateSecretKey();
    const app = await Nip46Signer.connect(first.bunkerUri, { pool: newPool(), clientSecretKey: clientKey.slice(), perms: ['sign_event:1'] });
    await app.close();
    await first.stop();
    assert.ok(![...kv.values()].some((v) => v.includes('configured-once')), 'the store holds no secret');

    const second = await started(opts);
    assert.equal(second.secret, null, 'the spent secret is not offered again');
    assert.doesNotMatch(second.bunkerUri, /secret=/);
    const stale = toBunkerURL({ pubkey: second.pubkey, relays: [relay.url], secret: 'configured-once' });
    await rejectsCode(Nip46Signer.connect(stale, { pool: newPool() }), 'SIGNER_REFUSED', (err) => assert.match(err.remoteError, /already used/));
    // The client that connected before the restart is still known, with what it was granted.
    const back = await Nip46Signer.connect(toBunkerURL({ pubkey: second.pubkey, relays: [relay.url] }), { pool: newPool(), clientSecretKey: clientKey });
    try {
      assert.ok(verifyEvent(await back.signEvent(note(1))));
      await rejectsCode(back.signEvent(note(4)), 'SIGNER_REFUSED');
    } finally {
      await back.close();
      clientKey.fill(0);
    }
    await second.stop();

    // Without a store a restart forgets (README): the same configured secret is valid once more.
    const forgetful = await started({ signer: user, remoteSigner: remote, secret: 'configured-once' });
    assert.equal(forgetful.secret, 'configured-once');
    await forgetful.stop();
    // And without `secret` every start has a fresh one, on a fresh address.
    const a = await started({ signer: user });
    const b = await started({ signer: user });
    assert.notEqual(a.secret, b.secret);
    assert.notEqual(a.pubkey, b.pubkey);
  });

  it('junk cannot push a real request id out of the replay set', async () => {
    const user = newKey();
    const me = watched(user);
    const pool = new TapPool();
    pools.push(pool);
    const bunker = await started({ signer: me, pool });
    const client = newKey();
    const raw = await rawClient(client, bunker.pubkey);
    await raw.send('hello', 'connect', [bunker.pubkey, bunker.secret]);
    assert.equal((await raw.answer('hello')).result, 'ack');
    const request = await raw.send('sign-once', 'sign_event', [JSON.stringify(note(1, 'pay once'))]);
    assert.ok(verifyEvent(JSON.parse((await raw.answer('sign-once')).result)));
    assert.equal(me.calls.signEvent, 1);

    // 5,000 junk requests (more than the set holds) from strangers: undecryptable ones, and
    // decryptable ones that are refused. Then the real request again, as a replaying relay would.
    const stranger = newKey();
    for (let i = 0; i < 5000; i++) {
      const junk = { ...request, id: bytesToHex(nostr.generateSecretKey()), pubkey: bytesToHex(nostr.generateSecretKey()), content: `junk${i}` };
      pool.feed(junk);
    }
    const strangerRaw = await rawClient(stranger, bunker.pubkey);
    for (let i = 0; i < 50; i++) await strangerRaw.send(`s${i}`, 'sign_event', [JSON.stringify(note(1))]);
    await strangerRaw.answer('s49');
    pool.feed(request);
    await raw.send('after', 'ping', []);
    assert.equal((await raw.answer('after')).result, 'pong');
    assert.equal(me.calls.signEvent, 1, 'the replayed request was not signed again');
  });

  it('one secret admits one client, even when two race for it', async () => {
    const user = newKey();
    const pool = new TapPool();
    pools.push(pool);
    // authorize is async: a bunker that checked the secret, awaited, then spent it let both in.
    const bunker = await started({ signer: user, pool, authorize: async () => true });
    const [a, b] = [newKey(), newKey()];
    const rawA = await rawClient(a, bunker.pubkey);
    const rawB = await rawClient(b, bunker.pubkey);
    const secret = bunker.secret;
    const evA = await rawA.send('a', 'connect', [bunker.pubkey, secret]);
    const evB = await rawB.send('b', 'connect', [bunker.pubkey, secret]);
    pool.feed(evA);
    pool.feed(evB);
    const answers = [await rawA.answer('a'), await rawB.answer('b')];
    assert.deepEqual(answers.map((x) => x.result === 'ack').sort(), [false, true], JSON.stringify(answers));
    assert.equal(bunker.clients.length, 1);
  });
});
