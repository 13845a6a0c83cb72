// The pool in real browsers (Chromium, Firefox ESR, WebKitGTK): the global WebSocket (no `ws`),
// liveness by probe REQs (browsers have no ping frames), NIP-11 over fetch, against our dev relay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSite } from '../support/browser-site.js';
import { forEachEngine } from '../support/engines.js';

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
const out = {};
try {
  const n = await import('/js/index.browser.js');
  await n.init();
  const relay = new URLSearchParams(location.search).get('relay');
  const pool = new n.RelayPool({ relays: [relay], ping: { interval: 100, timeout: 2000 } });
  const states = [];
  pool.on('status', (s) => states.push(s.state));
  const sk = n.generateSecretKey();
  const ev = n.finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'from the browser' }, sk);
  out.publish = (await pool.publish(ev)).map((r) => r.status);
  const got = [];
  const sub = pool.subscribe({ ids: [ev.id] });
  for await (const e of sub) {
    got.push(e.content);
    break;
  }
  await new Promise((r) => setTimeout(r, 500)); // a few liveness probes, answered
  out.got = got;
  out.frames = pool.stats.frames;
  out.info = pool.status(relay).info?.software ?? null;
  await pool.close();
  out.states = states;
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

const site = useBrowserSite({ name: 'pool-browser', pages: { 'pool.html': PAGE }, chromium: false });

forEachEngine((engine) => {
  test('browser: the pool publishes and subscribes over the global WebSocket', { timeout: 60_000 }, async () => {
    const r = await engine.runPage(site.url('pool.html', { relay: site.relay.url }));
    assert.equal(r.result.error, undefined, r.result.error);
    assert.deepEqual(r.result.publish, ['accepted']);
    assert.deepEqual(r.result.got, ['from the browser']);
    assert.ok(r.result.frames >= 4, `probes answered: ${r.result.frames} frames`);
    assert.deepEqual(r.result.states, ['connecting', 'open', 'closed']);
    assert.equal(typeof r.result.info, 'string', 'the NIP-11 document, fetched cross-origin');
    const notFound = site.server.requests.filter((q) => q.status === 404).map((q) => q.path);
    assert.deepEqual(r.problems, [], JSON.stringify(notFound));
  });
});
