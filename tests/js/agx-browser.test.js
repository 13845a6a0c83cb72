// AGX in real browsers (Chromium, Firefox ESR, WebKitGTK): an AgxClient whose signer is an injected
// window.nostr (Nip07Signer: the page's code never holds the key) completes a task with a Node agent
// through the dev relay with the AGX policy, serves one back, and keeps its replay state in IndexedDB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSite } from '../support/browser-site.js';
import { forEachEngine } from '../support/engines.js';
import { nostr } from './helpers.js';

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
const out = {};
try {
  const n = await import('/js/index.browser.js');
  await n.init();
  const q = new URLSearchParams(location.search);
  const relay = q.get('relay');
  const peer = q.get('peer');
  // A NIP-07 extension, injected: the page only ever talks to window.nostr.
  const key = n.LocalSigner.generate();
  const calls = { sign: 0, encrypt: 0, decrypt: 0 };
  window.nostr = {
    getPublicKey: async () => key.publicKey,
    signEvent: async (t) => (calls.sign++, key.signEvent(t)),
    nip44: {
      encrypt: async (pk, text) => (calls.encrypt++, key.nip44Encrypt(pk, text)),
      decrypt: async (pk, text) => (calls.decrypt++, key.nip44Decrypt(pk, text)),
    },
  };
  const signer = new n.Nip07Signer();
  let echoed;
  const gotEcho = new Promise((resolve) => (echoed = resolve));
  const mk = () => new n.agx.AgxClient({
    signer,
    relays: [relay],
    authorize: ({ from, capability }) => from === peer && capability === 'browser.echo',
    seenStore: new n.agx.IndexedDbSeenStore({ name: 'agx-browser-test' }),
    pollInterval: 0,
    onWarning: () => {},
  });
  const client = mk();
  client.handle('browser.echo', (p) => (echoed(p), { echo: p, from: 'browser' }));
  await client.start();
  out.me = client.publicKey;
  out.sum = await client.request(peer, 'math.add', { a: 20, b: 22 }, { timeout: 20000 });
  out.echoPayload = await gotEcho;
  await new Promise((r) => setTimeout(r, 500)); // the echo result goes out
  await client.stop();
  out.calls = calls;
  // IndexedDB kept what was processed and the cursor: a restarted client processes nothing twice
  const loaded = await new n.agx.IndexedDbSeenStore({ name: 'agx-browser-test' }).load();
  out.stored = loaded.entries.length;
  out.cursor = loaded.cursor;
  const again = mk();
  again.handle('browser.echo', () => { out.handledTwice = true; });
  await again.start();
  out.repoll = await again.poll();
  await again.stop();
  key.dispose();
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

// IndexedDbSeenStore's task records, and a database written by the previous version (version 1:
// no "tasks" store) upgraded in place with its entries and cursor kept.
const IDB_PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
const out = {};
try {
  const n = await import('/js/index.browser.js');
  const name = 'agx-idb-v1';
  const req = (r) => new Promise((res, rej) => ((r.onsuccess = () => res(r.result)), (r.onerror = () => rej(r.error))));
  const open1 = indexedDB.open(name, 1);
  open1.onupgradeneeded = () => {
    open1.result.createObjectStore('seen');
    open1.result.createObjectStore('meta');
  };
  const db1 = await req(open1);
  const exp = Math.floor(Date.now() / 1000) + 1000;
  const tx = db1.transaction(['seen', 'meta'], 'readwrite');
  tx.objectStore('seen').put(exp, 'a'.repeat(64));
  tx.objectStore('meta').put(77, 'cursor');
  await new Promise((r) => (tx.oncomplete = r));
  db1.close();
  const s = new n.agx.IndexedDbSeenStore({ name });
  out.old = await s.load();
  const rec = (c, extra = {}) => ({ id: c.repeat(64), state: 'accepted', wrap: { id: 'e'.repeat(64) }, to: 'f'.repeat(64), runs: 1, expiresAt: exp, ...extra });
  await s.putTask(rec('b'));
  await s.putTask(rec('c', { state: 'done', result: { id: 'd'.repeat(64) } }));
  await s.putTask(rec('1', { expiresAt: exp - 2000 }));
  await s.putTask(rec('2'));
  await s.deleteTask('2'.repeat(64));
  try {
    await s.putTask(rec('3', { state: 'done' }));
  } catch (err) {
    out.badCode = err.code;
  }
  await s.close();
  const again = await new n.agx.IndexedDbSeenStore({ name }).load();
  out.tasks = again.tasks.map((t) => [t.id[0], t.state]).sort();
  out.entries = again.entries.length;
  out.cursor = again.cursor;
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

// NIP-05 in a browser: no DNS and no node:https there, so verifyNip05 without a fetch option uses
// globalThis.fetch (replaced here: the page has no network), never following a redirect.
const NIP05_PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
const out = {};
try {
  const n = await import('/js/index.browser.js');
  await n.init();
  const pk = 'ab'.repeat(32);
  out.seen = [];
  globalThis.fetch = async (url, init) => {
    out.seen.push({ url: String(url), redirect: init.redirect, credentials: init.credentials });
    return new Response(JSON.stringify({ names: { bob: pk } }), { headers: { 'content-type': 'application/json' } });
  };
  out.ok = await n.agx.verifyNip05('bob@ok.example.com', pk);
  out.other = await n.agx.verifyNip05('bob@ok.example.com', 'a'.repeat(64)); // another key, on the curve
  globalThis.fetch = async () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example.com/' } });
  try {
    await n.agx.verifyNip05('bob@ok.example.com', pk);
  } catch (err) {
    out.redirectCode = err.code;
  }
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

const site = useBrowserSite({ name: 'agx-browser', pages: { 'agx.html': PAGE, 'agx-idb.html': IDB_PAGE, 'agx-nip05.html': NIP05_PAGE }, relay: { memory: true, agxPolicy: true }, chromium: false });

forEachEngine((engine) => {
  test('browser: an AgxClient on an injected window.nostr completes a task with a Node agent and serves one back', { timeout: 90_000 }, async () => {
    const signer = nostr.LocalSigner.generate();
    const echoes = [];
    const node = new nostr.agx.AgxClient({
      signer,
      relays: [site.relay.url],
      authorize: ({ capability }) => capability === 'math.add',
      pollInterval: 0,
      onWarning: () => {},
    });
    node.handle('math.add', ({ a, b }, ctx) => {
      // ask the browser for something in return
      node.request(ctx.from, 'browser.echo', { n: 7 }, { timeout: 20000 }).then((r) => echoes.push(r), (e) => echoes.push(e));
      return a + b;
    });
    await node.start();
    try {
      const r = await engine.runPage(site.url('agx.html', { relay: site.relay.url, peer: signer.publicKey }), { timeoutMs: 80_000 });
      assert.equal(r.result.error, undefined, r.result.error);
      assert.equal(r.result.sum, 42);
      assert.deepEqual(r.result.echoPayload, { n: 7 });
      for (let i = 0; i < 100 && echoes.length === 0; i++) await new Promise((res) => setTimeout(res, 50));
      assert.deepEqual(echoes, [{ echo: { n: 7 }, from: 'browser' }]);
      assert.ok(r.result.calls.sign >= 3 && r.result.calls.encrypt >= 3 && r.result.calls.decrypt >= 6, JSON.stringify(r.result.calls));
      assert.ok(r.result.stored >= 4, `ids kept in IndexedDB: ${r.result.stored}`);
      assert.equal(typeof r.result.cursor, 'number');
      assert.equal(r.result.repoll.processed, 0);
      assert.equal(r.result.handledTwice, undefined);
      assert.deepEqual(r.problems, []);
    } finally {
      await node.stop();
      signer.dispose();
    }
  });

  test('browser: IndexedDbSeenStore keeps task records; a version-1 database (the previous format) upgrades with its entries and cursor', { timeout: 60_000 }, async () => {
    const r = await engine.runPage(site.url('agx-idb.html'), { timeoutMs: 50_000 });
    assert.equal(r.result.error, undefined, r.result.error);
    assert.deepEqual(r.result.old.entries.map((e) => e[0][0]), ['a']);
    assert.equal(r.result.old.cursor, 77);
    assert.deepEqual(r.result.old.tasks, []);
    assert.equal(r.result.badCode, 'INVALID_ARGUMENT');
    assert.deepEqual(r.result.tasks, [['b', 'accepted'], ['c', 'done']]);
    assert.equal(r.result.entries, 1);
    assert.equal(r.result.cursor, 77);
    assert.deepEqual(r.problems, []);
  });

  test('browser: verifyNip05 without a fetch option uses globalThis.fetch (no DNS, no node:https) and refuses a redirect', { timeout: 60_000 }, async () => {
    const r = await engine.runPage(site.url('agx-nip05.html'), { timeoutMs: 50_000 });
    assert.equal(r.result.error, undefined, r.result.error);
    assert.deepEqual([r.result.ok, r.result.other], [true, false]);
    assert.deepEqual(r.result.seen[0], { url: 'https://ok.example.com/.well-known/nostr.json?name=bob', redirect: 'manual', credentials: 'omit' });
    assert.equal(r.result.seen.length, 2);
    assert.equal(r.result.redirectCode, 'AGX_NIP05_REDIRECT');
    assert.deepEqual(r.problems, []);
  });
});
