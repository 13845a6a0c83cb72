// The NIP-XX run store in real browsers (Chromium, Firefox ESR, WebKitGTK): a page prompts an agent
// (served by this process on the dev relay) with an IndexedDbRunStore and is closed mid-run; a new
// page of the same origin lists the session from IndexedDB, resumes the run and sees it finish.
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
  const pool = new n.RelayPool({ relays: [q.get('relay')] });
  const signer = new n.LocalSigner(n.hexToBytes(q.get('sk')));
  const store = new n.IndexedDbRunStore('runs-test');
  if (q.get('mode') === 'start') {
    const run = n.prompt({ pool, signer, store, agent: q.get('agent'), message: 'browser question', session: 'session:tab' });
    for await (const u of run) if (u.type === 'delta') break;
    // The delta's store write is queued behind the update: wait until IndexedDB has it.
    for (let i = 0; i < 100 && ((await store.getRun(run.id))?.events.length ?? 0) < 1; i++) await new Promise((r) => setTimeout(r, 20));
    out.id = run.id;
    out.fileStore = await new n.FileRunStore('/x').listRuns().then(() => 'ok', (e) => e.code);
  } else {
    const sessions = await n.listSessions(store);
    out.sessions = sessions.map((s) => [s.id, s.runs, s.title]);
    const runs = await n.listRuns(store, sessions[0]);
    out.states = runs.map((r) => r.state);
    const run = await n.resumeRun({ pool, signer, store, id: runs[0].id });
    out.texts = [];
    for await (const u of run) {
      if (u.type !== 'delta') continue;
      out.texts.push(u.text);
      if (out.texts.length === 1) await fetch('/release', { method: 'POST' }).catch(() => {});
    }
    out.result = (await run.result).text;
    const rec = await store.getRun(run.id);
    out.after = [rec.state, rec.events.length];
    await store.deleteRun(run.id);
    out.left = (await store.listRuns()).length;
    await store.close();
  }
  await pool.close();
  signer.dispose();
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.__result = out;
</script>`;

const site = useBrowserSite({ name: 'store-browser', pages: { 'store.html': PAGE }, chromium: false });

forEachEngine((engine) => {
  test('browser: a page closed mid-run; the next page resumes the run from IndexedDB', { timeout: 90_000 }, async () => {
    let release;
    const released = new Promise((r) => (release = r));
    const agentSigner = nostr.LocalSigner.generate();
    const { relay, server } = site;
    const agentPool = new nostr.RelayPool({ relays: [relay.url] });
    let prompts = 0;
    const agent = await nostr.serveAgent({
      signer: agentSigner,
      pool: agentPool,
      info: { tool_names: [] },
      async *handler() {
        prompts++;
        yield 'first ';
        await released;
        yield 'second';
      },
    });
    const sk = nostr.bytesToHex(nostr.generateSecretKey());
    const query = (mode) => ({ mode, relay: relay.url, agent: agent.pubkey, sk });
    try {
      const first = await engine.runPage(site.url('store.html', query('start')));
      assert.equal(first.result.error, undefined, first.result.error);
      assert.match(first.result.id, /^[0-9a-f]{64}$/);
      assert.equal(first.result.fileStore, 'NOT_SUPPORTED');
      assert.equal(agent.active, 1);

      // The second page asks the test (POST /release, answered 405 by the static server: filtered
      // below) to let the agent continue once it has replayed the stored delta.
      const asked = server.requests.length; // the server (and its log) serves every engine
      const waitRelease = new Promise((resolve) => {
        const timer = setInterval(() => {
          if (server.requests.slice(asked).some((q) => q.path === '/release')) {
            clearInterval(timer);
            release();
            resolve();
          }
        }, 10);
      });
      const second = await engine.runPage(site.url('store.html', query('resume')));
      await waitRelease;
      assert.equal(second.result.error, undefined, second.result.error);
      assert.deepEqual(second.result.sessions, [['session:tab', 1, 'browser question']]);
      assert.deepEqual(second.result.states, ['open']);
      assert.deepEqual(second.result.texts, ['first ', 'first second']);
      assert.equal(second.result.result, 'first second');
      assert.deepEqual(second.result.after, ['done', 3]);
      assert.equal(second.result.left, 0);
      assert.equal(prompts, 1);
      const problems = [...first.problems, ...second.problems].filter((p) => !/release|405/.test(p));
      assert.deepEqual(problems, []);
    } finally {
      release();
      await agent.stop();
      await agentPool.close();
      agentSigner.dispose();
    }
  });
});
