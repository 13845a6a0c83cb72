// RelayPool's verifyWorkers option in real browsers (Chromium, Firefox ESR, WebKitGTK): module Web
// Workers loaded from js/relay/verify-worker.js, each with the real WASM module, verify a random
// stream with planted bad signatures, bad ids, malformed frames and duplicates from a real
// WebSocket relay; the page sees exactly what a main-thread pool sees, in the same order, and
// pool.close() ends the workers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowserSite } from '../support/browser-site.js';
import { forEachEngine } from '../support/engines.js';
import { nostr, prng, randomText } from './helpers.js';
import { startScriptedRelay, now } from './pool-helpers.js';

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
const out = {};
try {
  const n = await import('/js/index.browser.js');
  await n.init();
  const relay = new URLSearchParams(location.search).get('relay');
  async function observe(opts) {
    const pool = new n.RelayPool({ relays: [relay], relayInfo: false, reconnect: false, ...opts });
    const log = [];
    pool.on('drop', (d) => log.push(['drop', d.reason, d.code, d.message, d.eventId]));
    let end;
    const ended = new Promise((r) => (end = r));
    pool.on('notice', (x) => {
      log.push(['notice', x.message]);
      if (x.message === 'the end') end();
    });
    const sub = pool.subscribe({ kinds: [1] }, { onevent: (e) => log.push(['event', e.id, e[n.verifiedSymbol] === true]), oneose: () => log.push(['eose']) });
    await ended;
    sub.close();
    const stats = pool._verifier ? { ...pool._verifier.stats } : null;
    await pool.close();
    return { log, stats, alive: pool._verifier ? pool._verifier.size : 0 };
  }
  const main = await observe({});
  const workers = await observe({ verifyWorkers: { workers: 2 } });
  out.events = main.log.filter((x) => x[0] === 'event').length;
  out.badSignatures = main.log.filter((x) => x[1] === 'bad-signature').length;
  out.same = JSON.stringify(main.log) === JSON.stringify(workers.log);
  if (!out.same) {
    const i = main.log.findIndex((x, k) => JSON.stringify(x) !== JSON.stringify(workers.log[k]));
    out.firstDifference = { at: i, main: main.log[i], workers: workers.log[i], lengths: [main.log.length, workers.log.length] };
  }
  out.stats = workers.stats;
  out.alive = workers.alive;
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

const site = useBrowserSite({ name: 'verify-workers', pages: { 'verify.html': PAGE }, relay: null, chromium: false });

const flip = (hex, at) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

// The stream (made once, sent to each REQ under its id): 600 events with about 8% damaged, a few
// malformed frames and duplicates, then EOSE and a trickle of 30 more, then NOTICE "the end".
function makeStream() {
  const rand = prng(0xb055);
  const keys = Array.from({ length: 10 }, () => nostr.generateSecretKey());
  const frames = []; // functions of the subscription id
  const sent = [];
  const base = now() - 5000;
  const event = (e) => (sub) => JSON.stringify(['EVENT', sub, e]);
  const one = (i) => {
    const e = nostr.finalizeEvent({ kind: rand() < 0.9 ? 1 : 2, created_at: base + i, tags: [], content: randomText(rand, 100) }, keys[i % 10]);
    const r = rand();
    if (r < 0.05) frames.push(event({ ...e, sig: flip(e.sig, Math.floor(rand() * 128)) }));
    else if (r < 0.08) frames.push(event({ ...e, content: `${e.content}?` }));
    else if (r < 0.09) frames.push((sub) => `["EVENT","${sub}",{"id":1}]`);
    else if (r < 0.1 && sent.length) frames.push(event(sent[Math.floor(rand() * sent.length)]));
    frames.push(event(e));
    sent.push(e);
  };
  for (let i = 0; i < 600; i++) one(i);
  frames.push((sub) => JSON.stringify(['EOSE', sub]));
  const trickle = frames.length;
  for (let i = 600; i < 630; i++) one(i);
  frames.push(() => JSON.stringify(['NOTICE', 'the end']));
  return { frames, trickle };
}

let relay;
before(async () => {
  const { frames, trickle } = makeStream();
  relay = await startScriptedRelay(async (ws, msg) => {
    if (!Array.isArray(msg) || msg[0] !== 'REQ') return;
    for (let i = 0; i < frames.length; i++) {
      if (i >= trickle) await new Promise((r) => setTimeout(r, 3));
      ws.send(frames[i](msg[1]));
    }
  });
});
after(() => relay?.close());

forEachEngine((engine) => {
  test('browser: verifyWorkers gives exactly the main thread\'s deliveries and drops, in order', { timeout: 120_000 }, async () => {
    const r = await engine.runPage(site.url('verify.html', { relay: relay.url }), { timeoutMs: 90_000 });
    assert.equal(r.result.error, undefined, r.result.error);
    assert.ok(r.result.events > 550, `events delivered: ${r.result.events}`);
    assert.ok(r.result.badSignatures > 10, `forged signatures dropped: ${r.result.badSignatures}`);
    assert.equal(r.result.same, true, JSON.stringify(r.result.firstDifference));
    assert.ok(r.result.stats.verifiedInWorkers > 550, `the workers verified: ${JSON.stringify(r.result.stats)}`);
    assert.equal(r.result.stats.fallbacks, 0, JSON.stringify(r.result.stats));
    assert.equal(r.result.alive, 0, 'close() ended the workers');
    assert.deepEqual(r.problems, []);
  });
});
