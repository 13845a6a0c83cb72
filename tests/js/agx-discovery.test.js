// AGX discovery over a real dev relay: Agent Cards (11337) published, fetched, validated with the
// reference's caps and retracted with NIP-09; NIP-05 verification against a real local HTTP server;
// NIP-65 relay lists (10002). TLS: the rules are tested with a real server over plain http on
// 127.0.0.1 through the `fetch` and `lookup` options (verifyNip05 itself only ever builds https
// URLs: the injected fetch records them and maps https://<domain>/ to the local server).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';
import { startScriptedRelay } from './pool-helpers.js';

const { agx, LocalSigner, RelayPool, NostrError } = nostr;

describe('AGX discovery', () => {
  let relay;
  let pool;
  const signers = [];
  const sign = () => {
    const s = LocalSigner.generate();
    signers.push(s);
    return s;
  };
  before(async () => {
    relay = await startDevRelay({ memory: true });
    pool = new RelayPool({ relays: [relay.url], relayInfo: false });
  });
  after(async () => {
    await pool.close();
    await relay.close();
    for (const s of signers) s.dispose();
  });

  describe('Agent Cards', () => {
    it('publishes, fetches (newest valid), and retracts with NIP-09', async () => {
      const bob = sign();
      const { event } = await agx.publishAgentCard(bob, pool, {
        org: 'Bob Corp',
        nip05: 'bob@example.com',
        capabilities: ['invoice.review', 'invoice.*'],
        relays: [relay.url],
        now: Math.floor(Date.now() / 1000) - 10,
      });
      assert.equal(event.kind, 11337);
      assert.deepEqual(event.tags, [['nip05', 'bob@example.com']]);
      const content = JSON.parse(event.content);
      assert.equal(content.npub, nostr.nip19.npubEncode(bob.publicKey));
      assert.deepEqual(content.payloadTypes, ['application/a2a+json', 'application/agx-task+json']);
      const card = await agx.fetchAgentCard(pool, nostr.nip19.npubEncode(bob.publicKey));
      assert.equal(card.pubkey, bob.publicKey);
      assert.equal(card.org, 'Bob Corp');
      assert.equal(card.nip05, 'bob@example.com');
      assert.deepEqual(card.capabilities, ['invoice.review', 'invoice.*']);
      assert.equal(agx.matchesCapability(card.capabilities, 'invoice.pay'), true);
      // a newer card replaces it
      await agx.publishAgentCard(bob, pool, { org: 'Bob Corp 2', capabilities: ['x.y'] });
      assert.equal((await agx.fetchAgentCard(pool, bob.publicKey)).org, 'Bob Corp 2');
      // retraction: kind 5 naming the card, k 11337; the relay honors it
      const r = await agx.retractAgentCard(bob, pool, { reason: 'moved' });
      assert.equal(r.event.kind, 5);
      assert.equal(r.event.content, 'moved');
      assert.deepEqual(r.event.tags.filter((t) => t[0] === 'k'), [['k', '11337']]);
      assert.ok(r.retracted.length >= 1 && r.retracted.every((id) => r.event.tags.some((t) => t[0] === 'e' && t[1] === id)));
      assert.equal(await agx.fetchAgentCard(pool, bob.publicKey), null);
      assert.deepEqual((await agx.retractAgentCard(bob, pool)).retracted, [], 'nothing left to retract');
    });

    it("enforces the reference's caps on publish and on fetch", async () => {
      const carol = sign();
      const bad = [
        { org: 'x'.repeat(201) },
        { capabilities: Array.from({ length: 65 }, (_, i) => `c.${i}`) },
        { capabilities: ['y'.repeat(201)] },
        { relays: Array.from({ length: 11 }, (_, i) => `wss://r${i}.example.com`) },
        { nip05: `${'n'.repeat(250)}@a.io` },
        { capabilities: 'x.y' },
        { org: 5 },
      ];
      for (const card of bad) await assert.rejects(agx.publishAgentCard(carol, pool, card), (e) => e instanceof NostrError && /AGX_CARD_INVALID|AGX_NIP05_INVALID/.test(e.code), JSON.stringify(card).slice(0, 60));
      // a hostile card signed by its author is skipped by fetch and refused by parse
      const hostile = await carol.signEvent({
        kind: 11337,
        created_at: Math.floor(Date.now() / 1000),
        tags: [],
        content: JSON.stringify({ v: 1, org: 'o', capabilities: Array.from({ length: 100 }, (_, i) => `c${i}`), relays: [] }),
      });
      assert.throws(() => agx.parseAgentCard(hostile), { code: 'AGX_CARD_INVALID' });
      assert.equal((await pool.publish(hostile))[0].status, 'accepted');
      assert.equal(await agx.fetchAgentCard(pool, carol.publicKey), null);
      // a card naming another key is refused
      const dave = sign();
      const stolen = await dave.signEvent({ kind: 11337, created_at: 1, tags: [], content: JSON.stringify({ v: 1, npub: nostr.nip19.npubEncode(carol.publicKey) }) });
      assert.throws(() => agx.parseAgentCard(stolen), { code: 'AGX_CARD_INVALID' });
      assert.throws(() => agx.parseAgentCard(null), { code: 'AGX_CARD_INVALID' });
    });

    it('start() publishes the card (our handlers) and the relay list unless advertise: false; an AgxRequester publishes neither', async () => {
      const s = sign();
      const quiet = new agx.AgxClient({ signer: s, pool, authorize: 'accept-all', pollInterval: 0 });
      quiet.handle('q.x', () => 1);
      const none = await quiet.start({ advertise: false });
      await quiet.stop();
      assert.equal(none.card, undefined);
      assert.equal(await agx.fetchAgentCard(pool, s.publicKey), null, 'advertise: false publishes no card');
      assert.equal(await agx.resolveRelayList(pool, s.publicKey), null, 'nor a relay list');
      const requester = new agx.AgxRequester({ signer: s, pool, pollInterval: 0 });
      await requester.start();
      await requester.stop();
      assert.equal(await agx.resolveRelayList(pool, s.publicKey), null, "an AgxRequester's start() advertises nothing");

      const c = new agx.AgxClient({ signer: s, pool, authorize: 'accept-all', pollInterval: 0, identity: { org: 'Acme', nip05: 'agent@acme.example' } });
      c.handle('invoice.review', () => 1).handle('invoice.*', () => 2);
      const out = await c.start(); // the seed's default: advertise
      assert.equal(out.card.event.kind, 11337);
      assert.equal(out.relayList.event.kind, 10002);
      const card = await agx.fetchAgentCard(pool, s.publicKey);
      assert.deepEqual(card.capabilities, ['invoice.review', 'invoice.*']);
      assert.equal(card.org, 'Acme');
      assert.deepEqual(card.relays, [relay.url]);
      assert.deepEqual((await agx.resolveRelayList(pool, s.publicKey)).relays, [relay.url]);
      await c.stop();
    });

    it("advertising merges our relays into the key's own NIP-65 list and leaves a list that has them alone", async () => {
      const s = sign();
      const own = await agx.publishRelayList(s, pool, {
        relays: ['wss://home.example.com', { url: relay.url, read: true, write: false }],
        relaysToPublish: [relay.url],
        now: Math.floor(Date.now() / 1000) - 60,
      });
      const c = new agx.AgxClient({ signer: s, pool, authorize: 'accept-all', pollInterval: 0 });
      const out = await c.start();
      await c.stop();
      // the user's other relay stays; ours, listed for reading only, is now read and write
      assert.deepEqual(out.relayList.event.tags, [['r', 'wss://home.example.com'], ['r', relay.url]]);
      assert.ok(out.relayList.event.created_at >= own.event.created_at);
      const list = await agx.resolveRelayList(pool, s.publicKey);
      assert.deepEqual(list.read, ['wss://home.example.com', relay.url]);
      assert.deepEqual(list.write, ['wss://home.example.com', relay.url]);
      // a second start finds ours listed: nothing is published again
      const again = new agx.AgxClient({ signer: s, pool, authorize: 'accept-all', pollInterval: 0 });
      const second = await again.start();
      await again.stop();
      assert.equal(second.relayList.event, null);
      assert.equal((await agx.resolveRelayList(pool, s.publicKey)).id, list.id);
    });

    it('a card or relay list no relay takes is reported to onError; the client still runs', async () => {
      const s = sign();
      const errors = [];
      // a relay that serves reads (EOSE at once) and refuses every write
      const strict = await startScriptedRelay((ws, msg) => {
        if (msg?.[0] === 'REQ') ws.send(JSON.stringify(['EOSE', msg[1]]));
        if (msg?.[0] === 'EVENT') ws.send(JSON.stringify(['OK', msg[1].id, false, 'blocked: read-only relay']));
      });
      try {
        const c = new agx.AgxClient({ signer: s, relays: [strict.url], authorize: 'accept-all', pollInterval: 0, onError: (e) => errors.push(e) });
        const out = await c.start();
        assert.equal(out.poll.complete, true);
        assert.equal(out.card, undefined);
        assert.deepEqual(errors.map((e) => e.code), ['AGX_PUBLISH_FAILED', 'AGX_PUBLISH_FAILED']);
        await c.stop();
      } finally {
        await strict.close();
      }
    });
  });

  describe('NIP-05', () => {
    let server;
    let base;
    const pk = 'ab'.repeat(32);
    before(async () => {
      server = http.createServer((req, res) => {
        const u = new URL(req.url, 'http://x');
        const site = u.pathname.split('/')[1];
        if (site === 'ok') {
          res.setHeader('content-type', 'application/json');
          return res.end(JSON.stringify({ names: { bob: pk, other: 'cd'.repeat(32) } }));
        }
        if (site === 'redirect') {
          res.statusCode = 302;
          res.setHeader('location', '/ok/.well-known/nostr.json?name=bob');
          return res.end();
        }
        if (site === 'big') {
          res.setHeader('content-type', 'application/json');
          // no content-length: the cap must hold on the stream
          res.write('{"names":{"bob":"' + pk + '"},"pad":"');
          const chunk = 'x'.repeat(10000);
          for (let i = 0; i < 11; i++) res.write(chunk);
          return res.end('"}');
        }
        if (site === 'slow') return; // never answers
        if (site === 'junk') return res.end('not json');
        res.statusCode = 404;
        res.end();
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${server.address().port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    const urls = [];
    // https://<site>.example.com/... -> the local server's /<site>/...
    const localFetch = (url, init) => {
      urls.push(url);
      const u = new URL(url);
      return fetch(`${base}/${u.hostname.split('.')[0]}${u.pathname}${u.search}`, init);
    };
    const publicLookup = async () => ['93.184.216.34'];
    const opts = { fetch: localFetch, lookup: publicLookup };

    it('verifies a mapping, and says false for another key; only https URLs are fetched', async () => {
      assert.equal(await agx.verifyNip05('bob@ok.example.com', pk, opts), true);
      assert.equal(await agx.verifyNip05('other@ok.example.com', pk, opts), false);
      assert.deepEqual(urls.slice(0, 1), ['https://ok.example.com/.well-known/nostr.json?name=bob']);
      assert.ok(urls.every((u) => u.startsWith('https://')));
      assert.deepEqual(agx.parseNip05('Bob@OK.Example.com'), { name: 'Bob', domain: 'ok.example.com', url: 'https://ok.example.com/.well-known/nostr.json?name=Bob' });
    });

    it('refuses redirects, oversize bodies, slow hosts, errors and junk with typed errors', async () => {
      await assert.rejects(agx.verifyNip05('bob@redirect.example.com', pk, opts), { code: 'AGX_NIP05_REDIRECT' });
      await assert.rejects(agx.verifyNip05('bob@big.example.com', pk, opts), { code: 'AGX_NIP05_TOO_LARGE' });
      await assert.rejects(agx.verifyNip05('bob@slow.example.com', pk, { ...opts, timeout: 300 }), { code: 'AGX_NIP05_TIMEOUT' });
      await assert.rejects(agx.verifyNip05('bob@missing.example.com', pk, opts), { code: 'AGX_NIP05_HTTP' });
      await assert.rejects(agx.verifyNip05('bob@junk.example.com', pk, opts), { code: 'AGX_NIP05_RESPONSE_INVALID' });
      await assert.rejects(agx.verifyNip05('nobody@ok.example.com', pk, opts), { code: 'AGX_NIP05_RESPONSE_INVALID' });
    });

    it('public hosts only: by spelling everywhere, by DNS in Node', async () => {
      for (const id of ['bob@localhost', 'bob@127.0.0.1', 'bob@printer.local', 'bob@x.internal', 'bob@[::1]', 'nope', 'bob@'])
        await assert.rejects(agx.verifyNip05(id, pk, opts), { code: 'AGX_NIP05_INVALID' }, id);
      await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { ...opts, lookup: async () => ['10.1.2.3'] }), { code: 'AGX_NIP05_NOT_PUBLIC' });
      await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { ...opts, lookup: async () => ['93.184.216.34', '::1'] }), { code: 'AGX_NIP05_NOT_PUBLIC' });
      // the default lookup is real DNS (Node): a name that does not resolve is a typed error, and nothing is fetched
      const before = urls.length;
      await assert.rejects(agx.verifyNip05('bob@no-such-host.invalid', pk, { fetch: localFetch, timeout: 3000 }), (e) => ['AGX_NIP05_DNS', 'AGX_NIP05_TIMEOUT'].includes(e.code));
      assert.equal(urls.length, before);
      const priv = ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.1.1', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', 'garbage'];
      for (const ip of priv) assert.equal(agx.isPrivateAddress(ip), true, ip);
      for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) assert.equal(agx.isPrivateAddress(ip), false, ip);
    });

    it('fetchAgentCard({verifyNip05}) marks the handle verified or not', async () => {
      const s = sign();
      await agx.publishAgentCard(s, pool, { nip05: 'bob@ok.example.com', capabilities: [] });
      const card = await agx.fetchAgentCard(pool, s.publicKey, { verifyNip05: true, ...opts });
      assert.equal(card.nip05Verified, false, 'the document maps bob to another key');
      const t = sign();
      await agx.publishAgentCard(t, pool, { nip05: 'bob@redirect.example.com' });
      const c2 = await agx.fetchAgentCard(pool, t.publicKey, { verifyNip05: true, ...opts });
      assert.deepEqual([c2.nip05Verified, c2.nip05Error], [false, 'AGX_NIP05_REDIRECT']);
    });
  });

  describe('NIP-65 relay lists', () => {
    it('publishes and resolves read/write relays; the newest list wins; bad URLs are refused', async () => {
      const s = sign();
      const { event } = await agx.publishRelayList(s, pool, {
        relays: ['wss://Both.example.com', { url: 'wss://in.example.com', write: false }, { url: 'wss://out.example.com/', read: false }],
        now: Math.floor(Date.now() / 1000) - 5,
      });
      assert.equal(event.kind, 10002);
      assert.equal(event.tags.length, 3);
      const r = await agx.resolveRelayList(pool, s.publicKey);
      assert.deepEqual(r.read, ['wss://both.example.com', 'wss://in.example.com']);
      assert.deepEqual(r.write, ['wss://both.example.com', 'wss://out.example.com']);
      await agx.publishRelayList(s, pool, { relays: ['wss://new.example.com'] });
      assert.deepEqual((await agx.resolveRelayList(pool, s.publicKey)).relays, ['wss://new.example.com']);
      await assert.rejects(agx.publishRelayList(s, pool, { relays: ['https://not-a-relay.example.com'] }), (e) => e instanceof NostrError);
      await assert.rejects(agx.publishRelayList(s, pool, { relays: [] }), { code: 'INVALID_ARGUMENT' });
      assert.equal(await agx.resolveRelayList(pool, sign().publicKey), null);
    });
  });
});
