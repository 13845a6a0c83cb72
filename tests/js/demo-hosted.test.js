// The hostable demo (`npm run build:demo`): the built folder served as it is by a plain static
// file server under a sub-path, opened in three browser engines (Chromium, Firefox ESR, WebKitGTK:
// ../support/engines.js), chatting with the demo agent through our dev relay. Screenshots go to
// build/test-artifacts/demo/<engine>/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { forEachEngine } from '../support/engines.js';
import { startDevRelay } from '../support/relays.js';
import { startStaticServer } from '../support/static-server.js';
import { init } from 'nostr-agents';
import { startDemoAgent } from '../../web-demo/agent/agent.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SUB = '/apps/nostr-agents-demo/'; // the sub-path the host serves the folder from
const DEFAULTS = ['wss://relay.damus.io', 'wss://nos.lol', 'wss://relay.primal.net'];
const RELAYS_FIELD = { label: 'Relays to connect to' };
const CONNECT = { role: 'button', name: 'Connect' };

let tmp;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'demo-site-'));
  const out = path.join(tmp, 'www', ...SUB.split('/').filter(Boolean));
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build-demo.mjs'), '--out', out, '--quiet'], { cwd: ROOT });
  await init();
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('npm run build:demo is the build script', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.scripts['build:demo'], 'node scripts/build-demo.mjs');
});

test('the folder is static: HTML, JS, WASM and CSS with relative URLs, no server code', () => {
  const dir = path.join(tmp, 'www', SUB);
  // nip49.js and nip49.wasm: fetched only to remember or unlock a key; agx-lazy.js and agx.wasm
  // only once the AGX panel is used.
  assert.deepEqual(readdirSync(dir).sort(), ['agx-lazy.js', 'agx.wasm', 'app.js', 'core.wasm', 'index.html', 'nip49.js', 'nip49.wasm', 'style.css']);
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  // No <link rel=preload> of core.wasm: WebKit never gives it to the loader's fetch (two downloads).
  assert.deepEqual(urls.filter((u) => u !== '#message' && u !== 'data:,').sort(), ['app.js', 'style.css']);
  const staticImports = (f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/\bfrom\s*"([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(staticImports('app.js'), [], 'one module: no static imports');
  assert.deepEqual(staticImports('agx-lazy.js'), ['./app.js'], 'the AGX part takes the rest from the page module');
  const js = readFileSync(path.join(dir, 'app.js'), 'utf8');
  assert.doesNotMatch(js, /createServer|startRelay|startDemoAgent/, 'no server or agent code');
  assert.match(js, /import\("\.\/nip49\.js"\)/, 'NIP-49 is imported lazily');
  assert.doesNotMatch(js, /nip49EncryptScratch/, 'and is not in app.js');
  assert.match(js, /import\("\.\/agx-lazy\.js"\)/, 'the AGX panel\'s package code is imported lazily');
  assert.doesNotMatch(js, /AgxWrapJob|agxUnwrapWithHandle/, 'and is not in what a load fetches');
  const lazyAgx = readFileSync(path.join(dir, 'agx-lazy.js'), 'utf8');
  assert.match(lazyAgx, /AgxWrapJob/);
  assert.match(lazyAgx, /"\.\/agx\.wasm"/, 'the AGX part loads its own module');
  // The page's module has no AGX binding; the AGX module has them (their Embind names).
  assert.ok(!readFileSync(path.join(dir, 'core.wasm')).includes('AgxEndpoint'), 'core.wasm leaves the AGX bindings out');
  assert.ok(readFileSync(path.join(dir, 'agx.wasm')).includes('AgxEndpoint'));
  assert.doesNotMatch(readFileSync(path.join(dir, 'nip49.js'), 'utf8'), /\bfrom\s*"[^"]*"/, 'nip49.js is one module');
  const wasm = readFileSync(path.join(dir, 'core.wasm'));
  assert.deepEqual([...wasm.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
});

forEachEngine((engine) => {
  const shots = path.join(ROOT, 'build/test-artifacts/demo', engine.id);
  let site;
  let relay;
  let agent;
  let page;
  const sockets = []; // every WebSocket the page opened, as the page asked for it

  before(async () => {
    mkdirSync(shots, { recursive: true });
    relay = await startDevRelay({ memory: true });
    [agent, site] = await Promise.all([startDemoAgent({ relays: [relay.url], tokenDelay: 5, env: {} }), startStaticServer(path.join(tmp, 'www'))]);
    page = await engine.newPage();
    await page.exposeFunction('__socketOpened', (url) => void sockets.push(url));
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      window.WebSocket = class WebSocket extends Native {
        constructor(...args) {
          super(...args);
          window.__socketOpened(this.url);
        }
      };
    });
  });

  after(async () => {
    await page?.close();
    await agent?.stop();
    await site?.close();
    await relay?.close();
  });

  test('a first visit asks for relays (defaults filled in) and connects nowhere before that', { timeout: 60_000 }, async () => {
    await page.goto(`${site.origin}${SUB}?agent=${agent.npub}`);
    await page.waitForTarget(RELAYS_FIELD);
    await page.waitFor(() => /Choose the relays/.test(document.getElementById('ready-line').textContent), null, { what: 'the relay question' });
    assert.deepEqual((await page.value(RELAYS_FIELD)).split('\n'), DEFAULTS);
    assert.equal(await page.count('#relay-list li'), 0);
    assert.deepEqual(sockets, [], 'no relay contacted before the user confirms');
    await page.screenshot(path.join(shots, 'hosted-relays.png'));
    // Edited: a typo is refused, then the dev relay instead of the defaults.
    await page.fill(RELAYS_FIELD, `${relay.url}\nnot-a-relay`);
    await page.click(CONNECT);
    await page.waitFor(() => document.getElementById('relay-choice-error').textContent !== '', null, { what: 'the refusal' }).catch(async (err) => {
      throw new Error(`${err.message}; field ${JSON.stringify(await page.value(RELAYS_FIELD))}, sockets ${JSON.stringify(sockets)}`);
    });
    assert.match(await page.text('#relay-choice-error'), /not-a-relay/);
    assert.deepEqual(sockets, []);
    await page.fill(RELAYS_FIELD, relay.url);
    await page.click(CONNECT);
    await page.waitForSelector('body[data-ready="true"]', { timeoutMs: 30_000 });
    assert.equal(await page.visible('#relay-choice'), false);
    assert.deepEqual(await page.readAll('#relay-list li', (lis) => lis.map((li) => li.dataset.relay)), [relay.url]);
    assert.equal(await page.value('#agent-select'), agent.pubkey);
  });

  test('it chats with the demo agent through the dev relay', { timeout: 60_000 }, async () => {
    await page.fill({ label: 'Message', exact: true }, 'calculate 6 * (3 + 4)');
    await page.click({ role: 'button', name: 'Send', exact: true });
    await page.waitFor(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeoutMs: 30_000, what: 'the run to end' });
    assert.match(await page.text('#transcript > li:last-child .body'), /= 42$/);
    assert.equal(await page.count('#transcript .tool-card[data-tool="calculator"]'), 1);
    await page.screenshot(path.join(shots, 'hosted.png'));
  });

  test('what a load fetches before the AGX panel is used is at most 200 KB gz', (t) => {
    // Every file the visit so far requested (relays chosen, one chat), gzip -9 each, as the size
    // rows count it (KB = 1000 bytes): issue 20's target for the built page.
    const dir = path.join(tmp, 'www');
    const files = [...new Set(site.requests.map((r) => new URL(r.path, site.origin).pathname))].map((p) => p.endsWith('/') ? `${p}index.html` : p);
    assert.deepEqual(files.map((f) => path.basename(f)).sort(), ['app.js', 'core.wasm', 'index.html', 'style.css']);
    const gz = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
    t.diagnostic(`${engine.browser.label}: a load fetched ${files.length} files, ${(gz / 1000).toFixed(1)} KB gz`);
    assert.ok(gz <= 200_000, `a load fetches ${(gz / 1000).toFixed(1)} KB gz (target 200)`);
  });

  test('the AGX panel fetches its part (agx-lazy.js, agx.wasm) on first use, then finds the Agent Card and completes a task', { timeout: 90_000 }, async () => {
    for (const f of ['agx-lazy.js', 'agx.wasm']) assert.equal(site.requestsFor(`${SUB}${f}`).length, 0, `nothing of the AGX panel (${f}) is fetched until it is used`);
    assert.equal(await page.value({ label: 'Agent npub' }), agent.npub);
    await page.click({ role: 'button', name: 'Look up card' });
    await page.waitForTarget('#card-view dl');
    assert.match(await page.text('#card-view'), /math\.eval/);
    assert.equal(site.requestsFor(`${SUB}agx-lazy.js`).length, 1);
    const agxWasm = site.requestsFor(`${SUB}agx.wasm`);
    assert.equal(agxWasm.length, 1, 'the AGX module is fetched with the panel');
    assert.equal(agxWasm[0].contentType, 'application/wasm');
    await page.fill({ label: 'Capability' }, 'math.eval');
    await page.fill({ label: 'Payload (JSON)' }, '{"expression": "6 * 7"}');
    await page.click({ role: 'button', name: 'Send task' });
    await page.waitForTarget('#task-log li[data-kind="result"]', { timeoutMs: 60_000 });
    assert.match(await page.text('#task-log li[data-kind="result"]'), /"result": "42"/);
    // The page's local key sealed the task and opened the agent's receipt and result from the
    // page's module, through the Signer methods (its handle is no good in agx.wasm).
    await page.waitForTarget('#task-log li[data-kind="receipt"]');
    assert.match(await page.text('#task-log li[data-kind="receipt"]'), /delivered/);
    assert.equal(site.requestsFor(`${SUB}agx-lazy.js`).length, 1, 'fetched once');
    assert.equal(site.requestsFor(`${SUB}agx.wasm`).length, 1, 'fetched once');
  });

  test('a reload remembers the relays and (once unlocked) the key, and restores the chat; every request stayed under the sub-path', { timeout: 90_000 }, async (t) => {
    assert.equal(site.requestsFor(`${SUB}nip49.wasm`).length, 0, 'nothing of NIP-49 is fetched until a key is remembered');
    await page.fill({ label: 'Passphrase to remember this key with (NIP-49)' }, 'a hosted passphrase');
    await page.fill({ label: 'The same passphrase again' }, 'a hosted passphrase');
    await page.click({ role: 'button', name: 'Remember this key' });
    await page.waitFor(() => /remembered in this browser/.test(document.getElementById('identity-line').textContent), null, { timeoutMs: 30_000, what: 'the key to be remembered' });
    assert.equal(site.requestsFor(`${SUB}nip49.js`).length, 1);
    assert.ok(site.requestsFor(`${SUB}nip49.wasm`).every((r) => r.contentType === 'application/wasm'));
    await page.reload();
    await page.fill({ label: 'Passphrase of the remembered key' }, 'a hosted passphrase');
    await page.click({ role: 'button', name: 'Unlock' });
    await page.waitForSelector('body[data-ready="true"]', { timeoutMs: 30_000 });
    await page.waitForSelector('body[data-restored="1"]');
    assert.equal(await page.visible('#relay-choice'), false, 'not asked again');
    assert.deepEqual(await page.readAll('#relay-list li', (lis) => lis.map((li) => li.dataset.relay)), [relay.url]);
    assert.match(await page.text('#transcript > li:last-child .body'), /= 42$/);
    assert.ok(sockets.length >= 2, `one socket per load: ${JSON.stringify(sockets)}`);
    assert.ok(sockets.every((u) => new URL(u).href === new URL(relay.url).href), JSON.stringify(sockets));

    const paths = site.requests.map((r) => new URL(r.path, site.origin).pathname);
    assert.ok(paths.every((p) => p.startsWith(SUB)), JSON.stringify(paths));
    assert.ok(site.requests.every((r) => r.status === 200), JSON.stringify(site.requests.filter((r) => r.status !== 200)));
    const wasm = site.requestsFor(`${SUB}core.wasm`);
    assert.ok(wasm.length >= 1 && wasm.every((r) => r.contentType === 'application/wasm'));
    const wasmLoads = site.requestsFor(`${SUB}core.wasm`).length;
    const pageLoads = site.requestsFor(`${SUB}app.js`).length;
    assert.ok(pageLoads >= 2, `${pageLoads} page loads`);
    assert.equal(wasmLoads, pageLoads, 'one core.wasm request per page load');
    t.diagnostic(`${engine.browser.label}: ${wasmLoads} core.wasm requests for ${pageLoads} page loads`);
    const probe = await page.evaluate(() => window.__wasmProbe);
    assert.ok(probe.streamingOk >= 1 && probe.arrayBuffer === 0, `core.wasm compiled while it streams: ${JSON.stringify(probe)}`);
    assert.deepEqual(await page.problems(), []);
  });
});
