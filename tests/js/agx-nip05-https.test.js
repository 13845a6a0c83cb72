// NIP-05 over real TLS: a local HTTPS server with a throwaway self-signed certificate (made by
// openssl at test time) for *.example.com, and verifyNip05's `fetch` option given a fetch that
// trusts that certificate and connects to the local port (tests/support/tls.js). The success path
// (the name maps to our key, also through fetchAgentCard and the CLI's check) and every way the
// check can fail, each a typed verdict within the timeout. NIP-05, "Security Constraints":
// "Fetchers MUST ignore any HTTP redirects given by the /.well-known/nostr.json endpoint": a
// redirect is refused (AGX_NIP05_REDIRECT), never followed. Without a `fetch` option (the default
// Node fetch, js/nip05-https.js): a host that rebinds its name to a private address between the
// check and the connection is refused (AGX_NIP05_NOT_PUBLIC); that GET itself runs against the
// same server (redirects returned, not followed; the body cap; the signal).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import net from 'node:net';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';
import { pinnedHttpsFetch, selfSignedCert } from '../support/tls.js';
import { checkNip05 } from '../../js/cli/agx-adapter.js';
import { checkedLookup, httpsGet } from '../../js/nip05-https.js';

const { agx, LocalSigner, RelayPool } = nostr;

describe('NIP-05 over HTTPS', () => {
  const signer = LocalSigner.generate();
  const pk = signer.publicKey;
  const other = nostr.getPublicKey(nostr.generateSecretKey());
  let tls;
  let server;
  let silent; // accepts TCP, never says a word of TLS
  let on443 = null; // the same site on 127.0.0.1:443 when this process may listen there (root)
  const sockets = new Set();
  const requests = [];
  let connections = 0; // TCP connections the HTTPS server accepted
  let opts;
  let relay;
  let pool;

  before(async () => {
    tls = selfSignedCert(['*.example.com']);
    const handler = (req, res) => {
      requests.push({ host: req.headers.host, url: req.url, accept: req.headers.accept });
      const site = String(req.headers.host).split('.')[0];
      const json = (status, body) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      switch (site) {
        case 'ok':
          return json(200, { names: { bob: pk, other, _: pk }, relays: { [pk]: ['wss://relay.example.com'] } });
        case 'mixedcase':
          return json(200, { names: { Bob: pk } });
        case 'badkey':
          return json(200, { names: { bob: 'not-a-key' } });
        case 'nonames':
          return json(200, { relays: { [pk]: ['wss://relay.example.com'] } });
        case 'junk':
          return json(200, '{"names": {"bob": ');
        case 'array':
          return json(200, [pk]);
        case 'r301':
        case 'r302':
        case 'r307':
        case 'r308':
          res.statusCode = Number(site.slice(1));
          res.setHeader('location', 'https://ok.example.com/.well-known/nostr.json?name=bob');
          return res.end();
        case 'e404':
          return json(404, { names: { bob: pk } }); // a body that would verify: the status decides
        case 'e500':
          return json(500, 'oops');
        case 'e204':
          res.statusCode = 204;
          return res.end();
        case 'big': // over NIP05_MAX_BYTES, its length announced
          return json(200, JSON.stringify({ names: { bob: pk }, pad: 'x'.repeat(150000) }));
        case 'bigchunked': // over the cap, no length: cut while it streams
          res.setHeader('content-type', 'application/json');
          res.write(`{"names":{"bob":"${pk}"},"pad":"`);
          for (let i = 0; i < 20; i++) res.write('x'.repeat(10000));
          return res.end('"}');
        case 'slow':
          return; // headers never come
        case 'stall':
          res.setHeader('content-type', 'application/json');
          res.write(`{"names":{"bob":"${pk}"`); // the body never ends
          return;
        default:
          return json(404, {});
      }
    };
    const count = (s) => (connections++, sockets.add(s), s.on('close', () => sockets.delete(s)));
    server = https.createServer({ key: tls.key, cert: tls.cert }, handler);
    server.on('connection', count);
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    // Where the default fetch would connect if it followed a rebinding to 127.0.0.1: there, the
    // rebinding test's "no connection" is observed, not only implied by the typed error.
    on443 = https.createServer({ key: tls.key, cert: tls.cert }, handler);
    on443.on('connection', count);
    on443 = await new Promise((r) => on443.once('error', () => r(null)).listen(443, '127.0.0.1', () => r(on443)));
    silent = net.createServer((s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
    await new Promise((r) => silent.listen(0, '127.0.0.1', r));
    opts = { fetch: pinnedHttpsFetch({ port: server.address().port, ca: tls.cert }), lookup: async () => ['93.184.216.34'] };
    relay = await startDevRelay({ memory: true });
    pool = new RelayPool({ relays: [relay.url], relayInfo: false });
  });

  after(async () => {
    await pool?.close();
    await relay?.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
    if (on443) await new Promise((r) => on443.close(r));
    await new Promise((r) => silent.close(r));
    tls.cleanup();
    signer.dispose();
  });

  it('a name that maps to the key verifies (true); another key is false; the relays field changes nothing', async () => {
    requests.length = 0;
    assert.equal(await agx.verifyNip05('bob@ok.example.com', pk, opts), true);
    assert.equal(await agx.verifyNip05('_@ok.example.com', nostr.nip19.npubEncode(pk), opts), true);
    assert.equal(await agx.verifyNip05('other@ok.example.com', pk, opts), false);
    assert.equal(await agx.verifyNip05('other@ok.example.com', other, opts), true);
    assert.deepEqual(requests[0], { host: 'ok.example.com', url: '/.well-known/nostr.json?name=bob', accept: 'application/json' });
    assert.equal(requests.length, 4);
    // A key off the curve is refused before any request (INVALID_PUBLIC_KEY, like every peer argument).
    await assert.rejects(agx.verifyNip05('other@ok.example.com', 'cd'.repeat(32), opts), { code: 'INVALID_PUBLIC_KEY' });
    assert.equal(requests.length, 4);
  });

  it('names match as written: Bob is not bob', async () => {
    assert.equal(await agx.verifyNip05('Bob@mixedcase.example.com', pk, opts), true);
    await assert.rejects(agx.verifyNip05('bob@mixedcase.example.com', pk, opts), { code: 'AGX_NIP05_RESPONSE_INVALID' });
  });

  it('a missing name, a bad key, no names, bad JSON and a non-object are AGX_NIP05_RESPONSE_INVALID', async () => {
    for (const id of ['nobody@ok.example.com', 'bob@badkey.example.com', 'bob@nonames.example.com', 'bob@junk.example.com', 'bob@array.example.com'])
      await assert.rejects(agx.verifyNip05(id, pk, opts), { name: 'NostrError', code: 'AGX_NIP05_RESPONSE_INVALID' }, id);
  });

  it('redirects (301, 302, 307, 308) are refused, not followed', async () => {
    for (const s of ['r301', 'r302', 'r307', 'r308']) {
      requests.length = 0;
      await assert.rejects(agx.verifyNip05(`bob@${s}.example.com`, pk, opts), { code: 'AGX_NIP05_REDIRECT' }, s);
      assert.deepEqual(requests.map((r) => r.host), [`${s}.example.com`], 'the target was never asked');
    }
  });

  it('an answer that is not 200 is AGX_NIP05_HTTP, whatever its body', async () => {
    for (const s of ['e404', 'e500', 'e204'])
      await assert.rejects(agx.verifyNip05(`bob@${s}.example.com`, pk, opts), (e) => e.code === (s === 'e204' ? 'AGX_NIP05_RESPONSE_INVALID' : 'AGX_NIP05_HTTP'), s);
  });

  it('no headers, a body that never ends, a server that never speaks TLS: AGX_NIP05_TIMEOUT, no hang', async () => {
    const t = { ...opts, timeout: 300 };
    await assert.rejects(agx.verifyNip05('bob@slow.example.com', pk, t), { code: 'AGX_NIP05_TIMEOUT' });
    await assert.rejects(agx.verifyNip05('bob@stall.example.com', pk, t), { code: 'AGX_NIP05_TIMEOUT' });
    const mute = { ...t, fetch: pinnedHttpsFetch({ port: silent.address().port, ca: tls.cert }) };
    await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, mute), { code: 'AGX_NIP05_TIMEOUT' });
  });

  it('a certificate the client does not trust, or for another name, is AGX_NIP05_HTTP', async () => {
    const untrusted = { ...opts, fetch: pinnedHttpsFetch({ port: server.address().port }) };
    await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, untrusted), (e) => e.code === 'AGX_NIP05_HTTP' && /certificate/i.test(e.cause?.message ?? ''));
    await assert.rejects(agx.verifyNip05('bob@ok.example.org', pk, opts), (e) => e.code === 'AGX_NIP05_HTTP' && /altnames|certificate/i.test(e.cause?.message ?? ''));
    await assert.rejects(agx.verifyNip05('bob@a.ok.example.com', pk, opts), { code: 'AGX_NIP05_HTTP' }, 'a wildcard covers one label');
  });

  it('fetchAgentCard({verifyNip05}) marks a card verified', async () => {
    await agx.publishAgentCard(signer, pool, { nip05: 'bob@ok.example.com', capabilities: ['x'] });
    const card = await agx.fetchAgentCard(pool, pk, { verifyNip05: true, ...opts });
    assert.equal(card.nip05, 'bob@ok.example.com');
    assert.equal(card.nip05Verified, true);
    assert.equal(card.nip05Error, undefined);
  });

  it("the CLI's check (card --verify) says why, for success and each failure", async () => {
    assert.deepEqual(await checkNip05('bob@ok.example.com', pk, opts), { ok: true, reason: 'bob@ok.example.com maps to this key' });
    assert.deepEqual(await checkNip05('other@ok.example.com', pk, opts), { ok: false, reason: 'https://ok.example.com/.well-known/nostr.json maps "other" to another key' });
    const r = await checkNip05('bob@r302.example.com', pk, opts);
    assert.deepEqual([r.ok, r.code], [false, 'AGX_NIP05_REDIRECT']);
    const t = await checkNip05('bob@slow.example.com', pk, { ...opts, timeout: 300 });
    assert.deepEqual([t.ok, t.code], [false, 'AGX_NIP05_TIMEOUT']);
    assert.deepEqual(await checkNip05(null, pk, opts), { ok: false, reason: 'the card claims no NIP-05 handle' });
  });

  it('the https GET and DNS lookup are in the Node and single-file bundles only, not the browser one', async () => {
    const { build } = await import('esbuild');
    const root = new URL('../..', import.meta.url).pathname;
    const bundle = async (entry) =>
      (await build({ entryPoints: [`${root}js/${entry}`], bundle: true, format: 'esm', platform: 'neutral', minify: true, write: false, external: ['ws', 'node:*', '../dist/*'], logLevel: 'error' })).outputFiles[0].text;
    const nodeOnly = /at connect time/;
    assert.doesNotMatch(await bundle('index.browser.js'), nodeOnly);
    assert.match(await bundle('index.node.js'), nodeOnly);
    assert.match(await bundle('index.single.js'), nodeOnly);
  });

  it('IPv4 inside IPv6 is judged by the IPv4, in every spelling; reserved IPv6 ranges are private', async () => {
    const priv = ['::ffff:7f00:1', '::ffff:127.0.0.1', '::7f00:1', '::127.0.0.1', '0:0:0:0:0:0:0:1', '::ffff:0a00:0001', '64:ff9b::10.0.0.1', '2002:7f00:1::', '2002:c0a8:101::1',
      '100::1', '2001:0db8::1', '2001:db8:1::1', 'fec0::1', 'fe80::1%eth0', 'FC00::1', '1::2::3', '12345::', '::ffff:1.2.3.300', ':', '1.2.3.4x'];
    for (const ip of priv) assert.equal(agx.isPrivateAddress(ip), true, ip);
    for (const ip of ['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2606:4700::1111', '2a00:1450:4001:81b::200e', '8.8.4.4'])
      assert.equal(agx.isPrivateAddress(ip), false, ip);
    // and verifyNip05 refuses a host whose DNS gives such an address, before any request
    requests.length = 0;
    await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { ...opts, lookup: async () => ['::7f00:1'] }), { code: 'AGX_NIP05_NOT_PUBLIC' });
    assert.equal(requests.length, 0);
  });

  // verifyNip05 without a `fetch` option, in Node: the package's own https GET, whose connection
  // resolves the host through `lookup` once more and connects only to the address it checked.
  describe('the default Node fetch', () => {
    // host => the next answer of `answers` (the last one repeats); `calls` counts the lookups.
    const sequence = (...answers) => {
      const fn = async () => answers[Math.min(fn.calls++, answers.length - 1)];
      fn.calls = 0;
      return fn;
    };

    it('DNS rebinding (public at the check, 127.0.0.1 at connect time) is AGX_NIP05_NOT_PUBLIC, and nothing is connected to', async (t) => {
      t.diagnostic(on443 ? 'the site also listens on 127.0.0.1:443' : '127.0.0.1:443 not available: the connection count covers the test port only');
      requests.length = 0;
      const before = connections;
      const lookup = sequence(['93.184.216.34'], ['127.0.0.1']);
      await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { lookup, ca: tls.cert, timeout: 3000 }), { name: 'NostrError', code: 'AGX_NIP05_NOT_PUBLIC' });
      assert.equal(lookup.calls, 2, 'the host was resolved again when connecting');
      assert.deepEqual([requests.length, connections - before], [0, 0]);
      // the same through fetchAgentCard: a verdict, not a crash
      await agx.publishAgentCard(signer, pool, { nip05: 'bob@ok.example.com', capabilities: ['x'] });
      const card = await agx.fetchAgentCard(pool, pk, { verifyNip05: true, lookup: sequence(['8.8.8.8'], ['10.0.0.7']), timeout: 3000 });
      assert.deepEqual([card.nip05Verified, card.nip05Error], [false, 'AGX_NIP05_NOT_PUBLIC']);
      const r = await checkNip05('bob@ok.example.com', pk, { lookup: sequence(['8.8.8.8'], ['::ffff:127.0.0.1']), timeout: 3000 });
      assert.deepEqual([r.ok, r.code], [false, 'AGX_NIP05_NOT_PUBLIC']);
    });

    it('at connect time every address must be public; no answer, a bad one or a failure is AGX_NIP05_DNS', async () => {
      for (const second of [['8.8.8.8', '10.0.0.1'], ['::1'], ['169.254.169.254'], ['64:ff9b::7f00:1'], ['nonsense']]) {
        const lookup = sequence(['93.184.216.34'], second);
        await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { lookup, timeout: 3000 }), { code: 'AGX_NIP05_NOT_PUBLIC' }, String(second));
        assert.equal(lookup.calls, 2, String(second));
      }
      for (const second of [[], 'not a list', [42]])
        await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { lookup: sequence(['93.184.216.34'], second), timeout: 3000 }), { code: 'AGX_NIP05_DNS' }, String(second));
      let n = 0;
      const flaky = async () => {
        if (n++) throw Object.assign(new Error('SERVFAIL'), { code: 'ESERVFAIL' });
        return ['93.184.216.34'];
      };
      await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { lookup: flaky, timeout: 3000 }), (e) => e.code === 'AGX_NIP05_DNS' && /ESERVFAIL/.test(e.message));
      assert.equal(requests.length, 0);
    });

    it('a ca that is not PEM text is INVALID_ARGUMENT', async () => {
      await assert.rejects(agx.verifyNip05('bob@ok.example.com', pk, { lookup: async () => ['93.184.216.34'], ca: [42] }), { code: 'INVALID_ARGUMENT' });
    });

    // The GET itself against the local server (its port in the URL, 127.0.0.1 allowed here: the
    // guard is what the tests above check), as verifyNip05 calls it.
    const port = () => server.address().port;
    const loopbackOk = (resolveTo = ['127.0.0.1']) => checkedLookup(async () => resolveTo, () => true);
    const get = (site, extra = {}) =>
      httpsGet(https, `https://${site}.example.com:${port()}/.well-known/nostr.json?name=bob`, {
        lookup: loopbackOk(), ca: tls.cert, headers: { accept: 'application/json' }, maxBytes: agx.NIP05_MAX_BYTES ?? 100000, ...extra,
      });

    it('reads a 200 in full with the URL host for SNI, Host and the certificate', async () => {
      requests.length = 0;
      const res = await get('ok');
      assert.deepEqual([res.status, res.ok, res.redirected], [200, true, false]);
      assert.equal(res.headers.get('Content-Type'), 'application/json');
      assert.equal(JSON.parse(await res.text()).names.bob, pk);
      assert.deepEqual(requests, [{ host: `ok.example.com:${port()}`, url: '/.well-known/nostr.json?name=bob', accept: 'application/json' }]);
      await assert.rejects(get('ok', { ca: undefined }), (e) => /certificate/i.test(e.message), "Node's roots alone do not trust the test CA");
    });

    it('a redirect is returned as it came, never followed; other statuses unread', async () => {
      requests.length = 0;
      const res = await get('r302');
      assert.deepEqual([res.status, res.ok, res.headers.get('location')], [302, false, 'https://ok.example.com/.well-known/nostr.json?name=bob']);
      assert.equal(requests.length, 1);
      assert.equal((await get('e404')).status, 404);
    });

    it('a body over the cap is NIP05_TOO_LARGE (AGX_NIP05_TOO_LARGE from verifyNip05), announced or streamed', async () => {
      for (const site of ['big', 'bigchunked']) await assert.rejects(get(site), { name: 'NostrError', code: 'NIP05_TOO_LARGE' }, site);
      assert.equal(JSON.parse(await (await get('bigchunked', { maxBytes: 300000 })).text()).names.bob, pk, 'under a larger cap it reads');
      // and verifyNip05 with a fetch that does not cap: its own reader caps
      for (const site of ['big', 'bigchunked']) await assert.rejects(agx.verifyNip05(`bob@${site}.example.com`, pk, opts), { code: 'AGX_NIP05_TOO_LARGE' }, site);
    });

    it('the signal ends it before the headers, during the body, or before it starts', async () => {
      for (const site of ['slow', 'stall']) {
        const ac = new AbortController();
        const p = get(site, { signal: ac.signal });
        setTimeout(() => ac.abort(), 200);
        await assert.rejects(p, { name: 'AbortError' }, site);
      }
      await assert.rejects(get('ok', { signal: AbortSignal.abort() }), { name: 'AbortError' });
    });

    it('the checked lookup refuses a private address before any connection', async () => {
      const before = connections;
      const guarded = checkedLookup(async () => ['127.0.0.1'], (ip) => !agx.isPrivateAddress(ip));
      await assert.rejects(get('ok', { lookup: guarded }), { code: 'NIP05_NOT_PUBLIC' });
      assert.equal(connections, before);
      // and with the same guard over a public-looking answer it would connect: the family is kept
      const seen = [];
      checkedLookup(async () => ['2606:4700::1111', '8.8.8.8'], () => true)('h', { all: true }, (err, list) => seen.push(err, list));
      checkedLookup(async () => ['2606:4700::1111', '8.8.8.8'], () => true)('h', { family: 4 }, (err, a, f) => seen.push(err, a, f));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, [null, [{ address: '2606:4700::1111', family: 6 }, { address: '8.8.8.8', family: 4 }], null, '8.8.8.8', 4]);
    });
  });
});
