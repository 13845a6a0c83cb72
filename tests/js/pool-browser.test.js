// The pool in a real browser (headless Chromium): the global WebSocket (no `ws`), liveness by
// probe REQs (browsers have no ping frames), NIP-11 over fetch, against our dev relay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, runPage, CHROMIUM_PATH } from '../support/chromium.js';
import { startStaticServer } from '../support/static-server.js';
import { startDevRelay } from '../support/relays.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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

let browser;
let server;
let relay;
let site;

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  // The page comes from a real server on 127.0.0.1 (Chromium's local network access checks refuse
  // loopback WebSockets to pages of no address space), next to the package's js/ and dist/.
  site = mkdtempSync(path.join(tmpdir(), 'nostr-agents-pool-browser-'));
  for (const dir of ['js', 'dist']) symlinkSync(path.join(ROOT, dir), path.join(site, dir));
  writeFileSync(path.join(site, 'pool.html'), PAGE);
  [browser, server, relay] = await Promise.all([launchChromium(), startStaticServer(site), startDevRelay({ memory: true })]);
});

after(async () => {
  await Promise.all([browser?.close(), server?.close(), relay?.close()]);
  if (site) rmSync(site, { recursive: true, force: true });
});

test('browser: the pool publishes and subscribes over the global WebSocket', { timeout: 60_000 }, async () => {
  const pageUrl = `${server.origin}/pool.html?relay=${encodeURIComponent(relay.url)}`;
  const r = await runPage(browser.context, pageUrl);
  assert.equal(r.result.error, undefined, r.result.error);
  assert.deepEqual(r.result.publish, ['accepted']);
  assert.deepEqual(r.result.got, ['from the browser']);
  assert.ok(r.result.frames >= 4, `probes answered: ${r.result.frames} frames`);
  assert.deepEqual(r.result.states, ['connecting', 'open', 'closed']);
  assert.equal(typeof r.result.info, 'string', 'the NIP-11 document, fetched cross-origin');
  const notFound = server.requests.filter((q) => q.status === 404).map((q) => q.path);
  assert.deepEqual(r.problems, [], JSON.stringify(notFound));
});
