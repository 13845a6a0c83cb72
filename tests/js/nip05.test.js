// NIP-05 lookups: the spec's identifier and bodies, nostr-tools' regex cases (tests/vectors/nip05.json),
// nostr-tools 2.25 on generated identifiers and bodies (the same fetch given to both), the fetch rules
// nostr-tools does not keep, and a real HTTPS server with a throwaway certificate.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { nip05 as toolsNip05 } from 'nostr-tools';
import { nostr, prng, rejectsCode, vectorsDir } from './helpers.js';
import { pinnedHttpsFetch, selfSignedCert } from '../support/tls.js';

const { nip05 } = nostr;
const v = JSON.parse(readFileSync(new URL('nip05.json', vectorsDir), 'utf8'));
const PUBLIC = async () => ['93.184.216.34'];

/** A fetch answering from `sites` (host -> body object, or (url) => Response), recording requests. */
function fakeFetch(sites, requests = []) {
  return async (url, init = {}) => {
    requests.push({ url, redirect: init.redirect });
    const u = new URL(url);
    const site = sites[u.hostname];
    if (typeof site === 'function') return site(u);
    if (site === undefined) return new Response('{}', { status: 404 });
    return new Response(JSON.stringify(site), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

describe('nip05', () => {
  it("the spec's identifier, URL and bodies", async () => {
    for (const r of v.responses) {
      const requests = [];
      const fetch = fakeFetch({ 'example.com': r.body }, requests);
      assert.deepStrictEqual(await nip05.queryProfile(v.identifier, { fetch, lookup: PUBLIC }), { pubkey: v.pubkey, relays: r.relays });
      assert.deepEqual(requests, [{ url: v.request_url, redirect: 'manual' }]);
      assert.equal(await nip05.isValid(v.pubkey, v.identifier, { fetch, lookup: PUBLIC }), true);
      assert.equal(await nip05.isValid(v.pubkey.toUpperCase(), v.identifier, { fetch, lookup: PUBLIC }), true);
      assert.equal(await nip05.isValid('0'.repeat(64), v.identifier, { fetch, lookup: PUBLIC }), false);
    }
    // The root identifier: a bare domain is _@domain.
    const requests = [];
    const fetch = fakeFetch({ 'bob.com': { names: { _: v.pubkey } } }, requests);
    assert.equal((await nip05.queryProfile(v.root.identifier, { fetch, lookup: PUBLIC })).pubkey, v.pubkey);
    assert.equal((await nip05.queryProfile(v.root.same_as, { fetch, lookup: PUBLIC })).pubkey, v.pubkey);
    assert.deepEqual(requests.map((r) => r.url), [v.root.request_url, v.root.request_url]);
  });

  it("nostr-tools' NIP05_REGEX cases", () => {
    for (const s of v.regex.valid) assert.ok(nip05.NIP05_REGEX.test(s) && nip05.isNip05(s), s);
    for (const s of v.regex.invalid) assert.ok(!nip05.NIP05_REGEX.test(s) && !nip05.isNip05(s), s);
    assert.deepEqual(Array.from(v.regex.groups.input.match(nip05.NIP05_REGEX)), v.regex.groups.match);
  });

  it('differential: NIP05_REGEX and isNip05 against nostr-tools on generated identifiers', () => {
    const rand = prng(5);
    const pick = (a) => a[Math.floor(rand() * a.length)];
    const part = (chars, max) => Array.from({ length: Math.floor(rand() * max) }, () => pick(chars)).join('');
    let agreed = 0;
    for (let i = 0; i < 5000; i++) {
      const name = rand() < 0.2 ? '' : part('abcXY09._-+&@ é', 10);
      const domain = pick([
        () => `${part('abc-09_', 8)}.${pick(['com', 'org', 'co.uk', 'Example', '1', ''])}`,
        () => pick(['localhost', '127.0.0.1', '10.0.0.1', 'printer.local', 'db.internal', 'a.localhost', 'bob.com.br', '-a.com', 'a-.com', 'a..com']),
        () => `${'x'.repeat(64)}.com`,
      ])();
      const id = name === '' ? domain : `${name}@${domain}`;
      const theirs = toolsNip05.NIP05_REGEX.test(id);
      const ours = nip05.NIP05_REGEX.test(id);
      // The regexes agree but where ours keeps NIP-05's and DNS's rules: no '+' in a name, no '_'
      // in a domain, labels of 1..63 characters without an edge hyphen.
      const ruled = /\+/.test(name) || /_/.test(domain) || /(^|\.)-|-(\.|$)|[^.]{64}/.test(domain);
      if (!ruled) assert.equal(ours, theirs, id);
      else if (ours) assert.fail(`ours accepts ${id}`);
      // isNip05 is NIP05_REGEX and a public host.
      const notPublic = /^(localhost|.*\.(local|localhost|internal|home\.arpa)|[0-9.]+)$/i.test(domain) || !domain.includes('.');
      assert.equal(nip05.isNip05(id), ours && !notPublic, id);
      if (ours === theirs) agreed++;
    }
    assert.ok(agreed > 3000, `agreed on ${agreed}`);
  });

  it('differential: queryProfile, isValid and searchDomain read generated bodies as nostr-tools does', async () => {
    const rand = prng(55);
    const hex = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
    try {
      for (let i = 0; i < 150; i++) {
        const names = {};
        const relays = {};
        for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) {
          const pk = hex();
          names[['bob', 'alice', '_', 'x.y', 'a-b'][k % 5]] = pk;
          if (rand() < 0.5) relays[pk] = [`wss://r${k}.example.com`, `ws://s${i}.example.com/p`];
        }
        const body = rand() < 0.5 ? { names, relays } : { names };
        const fetch = fakeFetch({ [`d${i}.example.com`]: body });
        toolsNip05.useFetchImplementation(fetch);
        for (const name of ['bob', 'alice', '_', 'x.y', 'a-b', 'zed']) {
          const id = `${name}@d${i}.example.com`;
          const ours = await nip05.queryProfile(id, { fetch, lookup: PUBLIC });
          const theirs = await toolsNip05.queryProfile(id);
          // nostr-tools leaves relays undefined when the document lists none; ours is [].
          assert.deepStrictEqual(ours, theirs && { ...theirs, relays: theirs.relays ?? [] }, id);
          if (theirs) assert.equal(await nip05.isValid(theirs.pubkey, id, { fetch, lookup: PUBLIC }), await toolsNip05.isValid(theirs.pubkey, id));
        }
        assert.deepStrictEqual(await nip05.searchDomain(`d${i}.example.com`, '', { fetch, lookup: PUBLIC }), await toolsNip05.searchDomain(`d${i}.example.com`));
      }
    } finally {
      toolsNip05.useFetchImplementation(globalThis.fetch);
    }
  });

  it('the rules nostr-tools does not keep: no private host, no redirect, a size cap, a deadline', async () => {
    const requests = [];
    const fetch = fakeFetch({
      'example.com': { names: { bob: v.pubkey } },
      'moved.example.com': () => new Response(null, { status: 302, headers: { location: 'https://example.com/' } }),
      'gone.example.com': () => new Response('{}', { status: 404 }),
      'big.example.com': () => new Response(JSON.stringify({ names: { bob: v.pubkey }, pad: 'x'.repeat(100001) }), { status: 200 }),
      'slow.example.com': () => new Promise(() => {}),
      'junk.example.com': () => new Response('{"names": {', { status: 200 }),
      'badkey.example.com': { names: { bob: 'npub1xyz' } },
    }, requests);
    const o = { fetch, lookup: PUBLIC, timeout: 300 };
    for (const id of ['bob@localhost', 'bob@127.0.0.1', 'bob@10.1.2.3', 'bob@nas.local', 'bob@db.internal', 'bob@intranet'])
      await rejectsCode(nip05.lookupProfile(id, o), 'NIP05_INVALID', id);
    await rejectsCode(nip05.lookupProfile('bob@example.com', { ...o, lookup: async () => ['192.168.1.5'] }), 'NIP05_NOT_PUBLIC');
    await rejectsCode(nip05.lookupProfile('bob@example.com', { ...o, lookup: async () => { throw Object.assign(new Error('x'), { code: 'ENOTFOUND' }); } }), 'NIP05_DNS');
    assert.equal(requests.length, 0, 'nothing was fetched from a host that is not public');
    toolsNip05.useFetchImplementation(fetch);
    try {
      await toolsNip05.queryProfile('bob@127.0.0.1');
      await toolsNip05.queryProfile('bob@nas.local');
      assert.deepEqual(requests.map((r) => new URL(r.url).hostname), ['127.0.0.1', 'nas.local'], 'nostr-tools fetches them');
    } finally {
      toolsNip05.useFetchImplementation(globalThis.fetch);
    }
    await rejectsCode(nip05.lookupProfile('bob@moved.example.com', o), 'NIP05_REDIRECT');
    await rejectsCode(nip05.lookupProfile('bob@gone.example.com', o), 'NIP05_HTTP');
    await rejectsCode(nip05.lookupProfile('bob@big.example.com', o), 'NIP05_TOO_LARGE');
    await rejectsCode(nip05.lookupProfile('bob@slow.example.com', o), 'NIP05_TIMEOUT');
    await rejectsCode(nip05.lookupProfile('bob@junk.example.com', o), 'NIP05_RESPONSE_INVALID');
    await rejectsCode(nip05.lookupProfile('bob@badkey.example.com', o), 'NIP05_RESPONSE_INVALID');
    await rejectsCode(nip05.lookupProfile('carol@example.com', o), 'NIP05_NOT_FOUND');
    const ac = new AbortController();
    const pending = nip05.lookupProfile('bob@slow.example.com', { ...o, timeout: 10000, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await rejectsCode(pending, 'ABORTED');
    await rejectsCode(nip05.lookupProfile('bob@example.com', { ...o, signal: AbortSignal.abort() }), 'ABORTED');
    // queryProfile and isValid turn every one of these into null and false; searchDomain into {}.
    for (const id of ['bob@localhost', 'bob@moved.example.com', 'bob@big.example.com', 'carol@example.com', 'not an identifier']) {
      assert.equal(await nip05.queryProfile(id, o), null, id);
      assert.equal(await nip05.isValid(v.pubkey, id, o), false, id);
    }
    assert.deepEqual(await nip05.searchDomain('moved.example.com', 'bob', o), {});
    assert.deepEqual(await nip05.searchDomain('localhost', '', o), {});
  });

  it('useFetchImplementation sets the default fetch; bad arguments are typed', async () => {
    const requests = [];
    nip05.useFetchImplementation(fakeFetch({ 'example.com': { names: { bob: v.pubkey } } }, requests));
    try {
      assert.equal((await nip05.queryProfile('bob@example.com', { lookup: PUBLIC })).pubkey, v.pubkey);
      assert.equal(requests.length, 1);
    } finally {
      nip05.useFetchImplementation(null);
    }
    assert.throws(() => nip05.useFetchImplementation('nope'), { code: 'INVALID_ARGUMENT' });
    await rejectsCode(nip05.queryProfile(5), 'INVALID_ARGUMENT');
    await rejectsCode(nip05.lookupProfile(null), 'INVALID_ARGUMENT');
    await rejectsCode(nip05.queryProfile('bob@example.com', { fetch: 5 }), 'INVALID_ARGUMENT');
    await rejectsCode(nip05.queryProfile('bob@example.com', { lookup: 5 }), 'INVALID_ARGUMENT');
    await rejectsCode(nip05.queryProfile('bob@example.com', { timeout: -1 }), 'INVALID_ARGUMENT');
    await rejectsCode(nip05.isValid('npub1x', 'bob@example.com'), 'INVALID_PUBLIC_KEY');
    await rejectsCode(nip05.searchDomain(5), 'INVALID_ARGUMENT');
    assert.equal(nip05.isNip05(5), false);
    assert.equal(nip05.isNip05(null), false);
  });

  it("Node's default fetch checks the address it connects to: a private one is refused before any request", async () => {
    await rejectsCode(nip05.lookupProfile('bob@example.com', { lookup: async () => ['127.0.0.1'] }), 'NIP05_NOT_PUBLIC');
    assert.equal(await nip05.queryProfile('bob@example.com', { lookup: async () => ['::1'] }), null);
  });

  describe('over real HTTPS', () => {
    let tls;
    let server;
    let fetch;
    const pk = nostr.getPublicKey(nostr.generateSecretKey());
    before(async () => {
      tls = selfSignedCert(['*.example.com']);
      server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
        const site = String(req.headers.host).split('.')[0];
        if (site === 'moved') {
          res.writeHead(301, { location: 'https://ok.example.com/.well-known/nostr.json?name=bob' });
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify({ names: { bob: pk }, relays: { [pk]: ['wss://relay.example.com'] } }));
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      fetch = pinnedHttpsFetch({ port: server.address().port, ca: tls.cert });
    });
    after(async () => {
      await new Promise((r) => server.close(r));
      tls.cleanup();
    });

    it('reads a nostr.json over TLS, and refuses its redirect', async () => {
      const o = { fetch, lookup: PUBLIC };
      assert.deepStrictEqual(await nip05.queryProfile('bob@ok.example.com', o), { pubkey: pk, relays: ['wss://relay.example.com'] });
      assert.equal(await nip05.isValid(pk, 'bob@ok.example.com', o), true);
      await rejectsCode(nip05.lookupProfile('bob@moved.example.com', o), 'NIP05_REDIRECT');
      await rejectsCode(nip05.lookupProfile('bob@ok.example.com', { ...o, fetch: pinnedHttpsFetch({ port: server.address().port }) }), 'NIP05_HTTP');
    });
  });
});
