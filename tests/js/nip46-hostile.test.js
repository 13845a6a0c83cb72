// NIP-46 against peers that misbehave, over a real dev relay: a scripted "bunker" that answers
// garbage to our Nip46Signer, and a scripted client that sends garbage to our bunker. Every case
// ends in a typed error or a dropped event, never a crash, a hang or an unhandled rejection.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, sleep, until, rejectsCode } from './helpers.js';
import { startDevRelay } from '../support/relays.js';

const { Nip46Signer, startBunker, LocalSigner, RelayPool, toBunkerURL, NOSTR_CONNECT_KIND } = nostr;
const { generateSecretKey, getPublicKey, bytesToHex } = nostr;
const nowS = () => Math.floor(Date.now() / 1000);
const note = () => ({ kind: 1, tags: [], content: 'x', created_at: nowS() });

const unhandled = [];
const onUnhandled = (err) => unhandled.push(err);

describe('nip46 with misbehaving peers', () => {
  let relay;
  const pools = [];
  const keys = [];
  const newPool = () => {
    const p = new RelayPool({ relays: [relay.url] });
    pools.push(p);
    return p;
  };
  const newKey = () => {
    const k = LocalSigner.generate();
    keys.push(k);
    return k;
  };

  /** Sends `body` (an object, or a raw string) from `from` to `to`, NIP-44 encrypted as NIP-46 says. */
  async function send(pool, from, to, body) {
    const content = await from.nip44Encrypt(to, typeof body === 'string' ? body : JSON.stringify(body));
    const event = await from.signEvent({ kind: NOSTR_CONNECT_KIND, tags: [['p', to]], content, created_at: nowS() });
    const out = await pool.publish(event);
    assert.ok(out.some((o) => o.status === 'accepted'));
  }

  /**
   * A scripted remote signer: answers connect and get_public_key properly, and every other request
   * with what `script(request)` returns: a list of bodies (objects or raw strings) to send back.
   */
  async function scriptedBunker(script) {
    const key = newKey();
    const user = newKey();
    const pool = newPool();
    const seen = [];
    await new Promise((resolve) => {
      pool.subscribe([{ kinds: [NOSTR_CONNECT_KIND], '#p': [key.publicKey] }], {
        oneose: resolve,
        onevent: async (ev) => {
          try {
            const req = JSON.parse(await key.nip44Decrypt(ev.pubkey, ev.content));
            seen.push(req);
            let bodies;
            if (req.method === 'connect') bodies = [{ id: req.id, result: 'ack' }];
            else if (req.method === 'get_public_key') bodies = [{ id: req.id, result: user.publicKey }];
            else if (req.method === 'switch_relays') bodies = [{ id: req.id, result: 'null' }];
            else bodies = script(req, user);
            for (const b of bodies) await send(pool, key, ev.pubkey, typeof b === 'function' ? b(req) : b);
          } catch (err) {
            unhandled.push(err);
          }
        },
      });
    });
    return { uri: toBunkerURL({ pubkey: key.publicKey, relays: [relay.url] }), key, user, seen };
  }

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    relay = await startDevRelay({ memory: true });
  });
  after(async () => {
    for (const p of pools) await p.close();
    await relay.close();
    for (const k of keys) k.dispose();
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, []);
    await sleep(20);
    assert.deepEqual(process.getActiveResourcesInfo().filter((r) => /Timeout|TCP/.test(r)), []);
  });

  it('garbage answers are dropped; a request they do not settle still times out', async () => {
    const b = await scriptedBunker(() => [
      'not json at all',
      '[1,2,3]',
      { id: 'someone-else', result: 'pong' },
      { id: 42, result: 'pong' },
      { noid: true },
    ]);
    const signer = await Nip46Signer.connect(b.uri, { pool: newPool(), requestTimeout: 500 });
    try {
      await rejectsCode(signer.ping(), 'SIGNER_UNAVAILABLE', (err) => assert.equal(err.reason, 'timeout'));
    } finally {
      await signer.close();
    }
  });

  it('answers of the wrong shape are typed errors', async () => {
    const b = await scriptedBunker((req, user) => {
      if (req.method === 'ping') return [{ id: req.id, result: 'ping?' }];
      if (req.method === 'nip44_encrypt') return [{ id: req.id, result: { not: 'a string' } }];
      if (req.method === 'sign_event' && JSON.parse(req.params[0]).content === 'json') return [{ id: req.id, result: '{broken' }];
      if (req.method === 'sign_event') return [{ id: req.id, result: JSON.stringify({ ...JSON.parse(req.params[0]), pubkey: user.publicKey, id: '0'.repeat(64), sig: '0'.repeat(128) }) }];
      if (req.method === 'switch_relays') return [{ id: req.id, result: '["https://not-a-relay"]' }];
      return [{ id: req.id, error: 'nope' }];
    });
    const signer = await Nip46Signer.connect(b.uri, { pool: newPool(), switchRelays: false });
    try {
      await rejectsCode(signer.ping(), 'SIGNER_INVALID_RESPONSE');
      await rejectsCode(signer.nip44Encrypt(b.user.publicKey, 'x'), 'SIGNER_INVALID_RESPONSE');
      await rejectsCode(signer.signEvent({ ...note(), content: 'json' }), 'INVALID_EVENT');
      await rejectsCode(signer.signEvent(note()), 'INVALID_EVENT', (err) => assert.match(err.message, /not a valid signed event/));
      await rejectsCode(signer.nip44Decrypt(b.user.publicKey, 'x'), 'SIGNER_REFUSED', (err) => assert.equal(err.remoteError, 'nope'));
    } finally {
      await signer.close();
    }
  });

  it('an auth_url that is not http(s) is refused, never passed to onauth', async () => {
    const urls = [];
    const b = await scriptedBunker((req) => [{ id: req.id, result: 'auth_url', error: 'javascript:alert(1)' }]);
    const signer = await Nip46Signer.connect(b.uri, { pool: newPool(), onauth: (u) => urls.push(u) });
    try {
      await rejectsCode(signer.ping(), 'SIGNER_REFUSED', (err) => assert.match(err.message, /http/));
      assert.deepEqual(urls, []);
    } finally {
      await signer.close();
    }
  });

  it('a throwing onauth does not break the request', async () => {
    const b = await scriptedBunker((req) => [
      { id: req.id, result: 'auth_url', error: 'https://approve.example/1' },
      { id: req.id, result: 'pong' },
    ]);
    const signer = await Nip46Signer.connect(b.uri, {
      pool: newPool(),
      onauth: () => {
        throw new Error('popup blocked');
      },
    });
    try {
      await signer.ping();
    } finally {
      await signer.close();
    }
  });

  it('the client key given by the app is used, and never appears in an error', async () => {
    const sk = generateSecretKey();
    const skHex = bytesToHex(sk);
    const errors = [];
    const b = await scriptedBunker((req) => (req.method === 'ping' ? [{ id: req.id, error: 'no' }] : []));
    const signer = await Nip46Signer.connect(b.uri, { pool: newPool(), clientSecretKey: sk, requestTimeout: 300, switchRelays: false });
    assert.equal(signer.clientPubkey, getPublicKey(sk));
    sk.fill(0); // the signer keeps its own copy (in wasm memory)
    await signer.ping().catch((e) => errors.push(e));
    await signer.nip44Encrypt(b.user.publicKey, 'x').catch((e) => errors.push(e)); // no answer: timeout
    const pending = signer.signEvent(note()).catch((e) => errors.push(e));
    await signer.close();
    await pending;
    await signer.ping().catch((e) => errors.push(e));
    assert.deepEqual(errors.map((e) => e.code), ['SIGNER_REFUSED', 'SIGNER_UNAVAILABLE', 'SIGNER_DISPOSED', 'SIGNER_DISPOSED']);
    for (const e of errors) {
      const text = `${e.message} ${e.stack} ${JSON.stringify(e)} ${e.cause ?? ''}`;
      assert.ok(!text.includes(skHex), 'an error shows the client secret key');
    }
  });

  it('aborting connect settles it (ABORTED) and leaves nothing behind', async () => {
    const nobody = newKey();
    const ac = new AbortController();
    const connecting = Nip46Signer.connect(toBunkerURL({ pubkey: nobody.publicKey, relays: [relay.url] }), {
      pool: newPool(),
      signal: ac.signal,
      connectTimeout: 600_000,
    });
    await sleep(50);
    ac.abort();
    await rejectsCode(connecting, 'ABORTED');
    await rejectsCode(Nip46Signer.connect(toBunkerURL({ pubkey: nobody.publicKey, relays: [relay.url] }), { pool: newPool(), signal: AbortSignal.abort() }), 'ABORTED');
  });

  it('our bunker drops or answers garbage requests, and keeps serving', async () => {
    const user = newKey();
    const remote = newKey();
    const bunker = await startBunker({ signer: user, remoteSigner: remote, relays: [relay.url], pool: newPool(), secret: 'gate-secret-7' });
    const pool = newPool();
    const client = newKey();
    const answers = [];
    await new Promise((resolve) => {
      pool.subscribe([{ kinds: [NOSTR_CONNECT_KIND], '#p': [client.publicKey], authors: [remote.publicKey] }], {
        oneose: resolve,
        onevent: async (ev) => answers.push(JSON.parse(await client.nip44Decrypt(ev.pubkey, ev.content))),
      });
    });
    const byId = (id) => answers.find((a) => a.id === id);

    // Not NIP-44 at all, and NIP-44 of something that is not a request: dropped silently.
    const raw = await client.signEvent({ kind: NOSTR_CONNECT_KIND, tags: [['p', remote.publicKey]], content: 'garbage', created_at: nowS() });
    await pool.publish(raw);
    await send(pool, client, remote.publicKey, 'not json');
    await send(pool, client, remote.publicKey, { id: '', method: 'ping', params: [] });
    // Requests before connect, with bad params, with a wrong secret: answered with errors.
    await send(pool, client, remote.publicKey, { id: 'early', method: 'sign_event', params: [JSON.stringify(note())] });
    await send(pool, client, remote.publicKey, { id: 'badparams', method: 'ping', params: [1, 2] });
    await send(pool, client, remote.publicKey, { id: 'wrongsecret', method: 'connect', params: [remote.publicKey, 'guess'] });
    await until(() => byId('early') && byId('badparams') && byId('wrongsecret'));
    assert.match(byId('early').error, /not connected/);
    assert.match(byId('badparams').error, /params/);
    assert.match(byId('wrongsecret').error, /secret/);
    assert.equal(byId('early').result, undefined);

    // Connected, then hostile payloads: each gets an error, none crashes the bunker.
    await send(pool, client, remote.publicKey, { id: 'c', method: 'connect', params: [remote.publicKey, 'gate-secret-7'] });
    await send(pool, client, remote.publicKey, { id: 'tmpl', method: 'sign_event', params: ['{not json'] });
    await send(pool, client, remote.publicKey, { id: 'tmpl2', method: 'sign_event', params: [JSON.stringify({ kind: 'one', tags: 5 })] });
    await send(pool, client, remote.publicKey, { id: 'enc', method: 'nip44_encrypt', params: ['zz', 'x'] });
    await send(pool, client, remote.publicKey, { id: 'unknown', method: 'launch_missiles', params: [] });
    await send(pool, client, remote.publicKey, { id: 'still', method: 'ping', params: [] });
    await until(() => ['c', 'tmpl', 'tmpl2', 'enc', 'unknown', 'still'].every(byId));
    assert.equal(byId('c').result, 'ack');
    for (const id of ['tmpl', 'tmpl2', 'enc', 'unknown']) assert.equal(typeof byId(id).error, 'string', id);
    assert.equal(byId('still').result, 'pong');
    assert.equal(byId(''), undefined, 'a request without an id is dropped');
    // No answer repeats the connection secret.
    assert.ok(!JSON.stringify(answers).includes('gate-secret-7'));
    await bunker.stop();
  });
});
