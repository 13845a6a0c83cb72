// nostr-tools' BunkerSigner (an independent NIP-46 client) against our bunker over our dev relay:
// bunker:// with a secret, nostrconnect://, sign, NIP-44 both ways, ping, switch_relays, refusal.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { SimplePool, useWebSocketImplementation } from 'nostr-tools/pool';
import { BunkerSigner, parseBunkerInput, createNostrConnectURI } from 'nostr-tools/nip46';
import { generateSecretKey, getPublicKey as ntPublicKey, verifyEvent as ntVerify } from 'nostr-tools/pure';
import { nostr, sleep } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { startBunker, LocalSigner, RelayPool, verifyEvent } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);

useWebSocketImplementation(WebSocket);

describe('nostr-tools BunkerSigner as the client of our bunker', () => {
  let relay;
  let relayB;
  const user = LocalSigner.generate();
  const peer = LocalSigner.generate();
  const keys = [];
  const pools = [];
  const bunkers = [];
  const ntPools = [];

  async function bunkerWith(opts = {}) {
    const remoteSigner = LocalSigner.generate();
    keys.push(remoteSigner);
    const pool = new RelayPool();
    pools.push(pool);
    const b = await startBunker({ signer: user, remoteSigner, relays: [relay.url], pool, ...opts });
    bunkers.push(b);
    return b;
  }
  function ntPool() {
    const p = new SimplePool();
    ntPools.push(p);
    return p;
  }

  before(async () => {
    relay = await startDevRelay({ memory: true });
    relayB = await startDevRelay({ memory: true });
  });
  after(async () => {
    for (const p of ntPools) p.destroy();
    for (const b of bunkers) await b.stop();
    for (const p of pools) await p.close();
    await relay.close();
    await relayB.close();
    user.dispose();
    peer.dispose();
    for (const k of keys) k.dispose();
  });

  it('bunker:// with a secret: connect, get_public_key, sign_event, nip44, ping', async () => {
    const bunker = await bunkerWith({ secret: 'nt-secret' });
    const bp = await parseBunkerInput(bunker.bunkerUri);
    assert.equal(bp.pubkey, bunker.pubkey);
    assert.equal(bp.secret, 'nt-secret');
    const client = BunkerSigner.fromBunker(generateSecretKey(), bp, { pool: ntPool() });
    try {
      await client.connect();
      assert.equal(await client.getPublicKey(), user.publicKey);
      const t = { kind: 1, tags: [['t', 'interop']], content: 'signed for nostr-tools', created_at: nowS() };
      const ev = await client.signEvent(t);
      assert.ok(ntVerify(ev), 'nostr-tools verifies it');
      assert.ok(verifyEvent(ev), 'we verify it');
      assert.equal(ev.pubkey, user.publicKey);
      assert.equal(ev.content, t.content);

      const ct = await client.nip44Encrypt(peer.publicKey, 'interop ✓');
      assert.equal(await peer.nip44Decrypt(user.publicKey, ct), 'interop ✓');
      const back = await peer.nip44Encrypt(user.publicKey, 'back 💜');
      assert.equal(await client.nip44Decrypt(peer.publicKey, back), 'back 💜');
      await client.ping();
      assert.deepEqual(bunker.clients.length, 1);
    } finally {
      await client.close();
    }
  });

  it('a second nostr-tools client with the used secret is refused', async () => {
    const bunker = await bunkerWith({ secret: 'used-once' });
    const bp = await parseBunkerInput(bunker.bunkerUri);
    const first = BunkerSigner.fromBunker(generateSecretKey(), bp, { pool: ntPool() });
    await first.connect();
    await first.close();
    const second = BunkerSigner.fromBunker(generateSecretKey(), bp, { pool: ntPool() });
    try {
      await assert.rejects(second.connect(), (err) => typeof err === 'string' && /secret/.test(err));
    } finally {
      await second.close();
    }
  });

  it('a denial reaches nostr-tools as its error string', async () => {
    const bunker = await bunkerWith({ perms: [], authorize: (req) => (req.method === 'sign_event' ? 'kind 1 only on Sundays' : true) });
    const client = BunkerSigner.fromBunker(generateSecretKey(), await parseBunkerInput(bunker.bunkerUri), { pool: ntPool() });
    try {
      await client.connect();
      await assert.rejects(
        client.signEvent({ kind: 1, tags: [], content: 'x', created_at: nowS() }),
        (err) => typeof err === 'string' && err.includes('kind 1 only on Sundays'),
      );
    } finally {
      await client.close();
    }
  });

  it('nostr-tools asks no perms: it gets exactly what the bunker lets its secret grant', async () => {
    const bunker = await bunkerWith({ perms: ['sign_event:1'] });
    const client = BunkerSigner.fromBunker(generateSecretKey(), await parseBunkerInput(bunker.bunkerUri), { pool: ntPool() });
    try {
      await client.connect();
      assert.deepEqual(bunker.permsOf(bunker.clients[0]), ['sign_event:1']);
      assert.ok(ntVerify(await client.signEvent({ kind: 1, tags: [], content: 'allowed', created_at: nowS() })));
      await assert.rejects(client.signEvent({ kind: 4, tags: [], content: 'not allowed', created_at: nowS() }), (err) => typeof err === 'string' && /sign_event:4/.test(err));
      await assert.rejects(client.nip44Encrypt(peer.publicKey, 'x'), (err) => typeof err === 'string' && /nip44_encrypt/.test(err));
      const dm = await peer.nip44Encrypt(user.publicKey, 'private');
      await assert.rejects(client.nip44Decrypt(peer.publicKey, dm), (err) => typeof err === 'string' && /nip44_decrypt/.test(err));
    } finally {
      await client.close();
    }
  });

  it('switch_relays: nostr-tools moves to the relays our bunker names', async () => {
    const bunker = await bunkerWith({ relays: [relay.url, relayB.url], switchRelays: [relayB.url] });
    const bp = { pubkey: bunker.pubkey, relays: [relay.url], secret: bunker.secret };
    const client = BunkerSigner.fromBunker(generateSecretKey(), bp, { pool: ntPool() });
    try {
      await client.connect();
      assert.equal(await client.switchRelays(), true);
      assert.deepEqual(client.bp.relays, [relayB.url]);
      assert.equal(await client.getPublicKey(), user.publicKey);
    } finally {
      await client.close();
    }
  });

  it('nostrconnect://: nostr-tools shows the URI, our bunker answers it', async () => {
    const bunker = await bunkerWith();
    const sk = generateSecretKey();
    const uri = createNostrConnectURI({ clientPubkey: ntPublicKey(sk), relays: [relay.url], secret: 'nc-secret', name: 'nostr-tools app' });
    let client = null;
    const pending = BunkerSigner.fromURI(sk, uri, { pool: ntPool() }, 20_000).then((c) => (client = c));
    // The answer is ephemeral: until nostr-tools' subscription is live at the relay it would be
    // lost, so the bunker answers again until the client has it (a user scans once, later).
    while (client === null) {
      await bunker.connectTo(uri);
      await Promise.race([pending, sleep(100)]);
    }
    try {
      assert.equal(client.bp.pubkey, bunker.pubkey);
      assert.equal(await client.getPublicKey(), user.publicKey);
      const ev = await client.signEvent({ kind: 1, tags: [], content: 'via nostrconnect', created_at: nowS() });
      assert.ok(verifyEvent(ev));
      assert.ok(bunker.clients.includes(ntPublicKey(sk)));
    } finally {
      await client.close();
    }
  });
});
