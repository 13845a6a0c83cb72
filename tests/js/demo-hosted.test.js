// The hostable demo (`npm run build:demo`): the built folder served as it is by a plain static
// file server under a sub-path, opened in headless Chromium, chatting with the demo agent through
// our dev relay. Screenshots go to build/test-artifacts/demo/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from '../support/chromium.js';
import { startDevRelay } from '../support/relays.js';
import { startStaticServer } from '../support/static-server.js';
import { init } from 'nostr-agents';
import { startDemoAgent } from '../../web-demo/agent/agent.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = path.join(ROOT, 'build/test-artifacts/demo');
const SUB = '/apps/nostr-agents-demo/'; // the sub-path the host serves the folder from
const DEFAULTS = ['wss://relay.damus.io', 'wss://nos.lol', 'wss://relay.primal.net'];

let tmp;
let site;
let relay;
let agent;
let browser;
let page;
const problems = [];
const sockets = [];

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'demo-site-'));
  mkdirSync(SHOTS, { recursive: true });
  const out = path.join(tmp, 'www', ...SUB.split('/').filter(Boolean));
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/build-demo.mjs'), '--out', out, '--quiet'], { cwd: ROOT });
  await init();
  relay = await startDevRelay({ memory: true });
  [agent, site, browser] = await Promise.all([
    startDemoAgent({ relays: [relay.url], tokenDelay: 5, env: {} }),
    startStaticServer(path.join(tmp, 'www')),
    launchChromium(),
  ]);
  page = await browser.context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.stack || err.message}`));
  page.on('websocket', (ws) => sockets.push(ws.url()));
});

after(async () => {
  await browser?.close();
  await agent?.stop();
  await site?.close();
  await relay?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('npm run build:demo is the build script', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.scripts['build:demo'], 'node scripts/build-demo.mjs');
});

test('the folder is static: HTML, JS, WASM and CSS with relative URLs, no server code', () => {
  const dir = path.join(tmp, 'www', SUB);
  // nip49.js and nip49.wasm: fetched only to remember or unlock a key.
  assert.deepEqual(readdirSync(dir).sort(), ['app.js', 'core.wasm', 'index.html', 'nip49.js', 'nip49.wasm', 'style.css']);
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(urls.filter((u) => u !== '#message' && u !== 'data:,').sort(), ['app.js', 'core.wasm', 'style.css']);
  const js = readFileSync(path.join(dir, 'app.js'), 'utf8');
  assert.doesNotMatch(js, /\bfrom\s*"[^"]*"/, 'one module: no static imports left');
  assert.doesNotMatch(js, /createServer|startRelay|startDemoAgent/, 'no server or agent code');
  assert.match(js, /import\("\.\/nip49\.js"\)/, 'NIP-49 is imported lazily');
  assert.doesNotMatch(js, /nip49EncryptScratch/, 'and is not in app.js');
  assert.doesNotMatch(readFileSync(path.join(dir, 'nip49.js'), 'utf8'), /\bfrom\s*"[^"]*"/, 'nip49.js is one module');
  const wasm = readFileSync(path.join(dir, 'core.wasm'));
  assert.deepEqual([...wasm.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
});

test('a first visit asks for relays (defaults filled in) and connects nowhere before that', { timeout: 60_000 }, async () => {
  await page.goto(`${site.origin}${SUB}?agent=${agent.npub}`);
  const field = page.getByLabel(/Relays to connect to/);
  await field.waitFor();
  await page.waitForFunction(() => /Choose the relays/.test(document.getElementById('ready-line').textContent));
  assert.deepEqual((await field.inputValue()).split('\n'), DEFAULTS);
  assert.equal(await page.locator('#relay-list li').count(), 0);
  assert.deepEqual(sockets, [], 'no relay contacted before the user confirms');
  await page.screenshot({ path: path.join(SHOTS, 'hosted-relays.png'), fullPage: true });
  // Edited: a typo is refused, then the dev relay instead of the defaults.
  await field.fill(`${relay.url}\nnot-a-relay`);
  await page.getByRole('button', { name: 'Connect' }).click();
  assert.match(await page.locator('#relay-choice-error').textContent(), /not-a-relay/);
  assert.deepEqual(sockets, []);
  await field.fill(relay.url);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  assert.equal(await page.locator('#relay-choice').isHidden(), true);
  assert.deepEqual(await page.locator('#relay-list li').evaluateAll((lis) => lis.map((li) => li.dataset.relay)), [relay.url]);
  assert.equal(await page.locator('#agent-select').inputValue(), agent.pubkey);
});

test('it chats with the demo agent through the dev relay', { timeout: 60_000 }, async () => {
  await page.getByLabel('Message', { exact: true }).fill('calculate 6 * (3 + 4)');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeout: 30_000 });
  assert.match(await page.locator('#transcript > li:last-child .body').textContent(), /= 42$/);
  assert.equal(await page.locator('#transcript .tool-card[data-tool="calculator"]').count(), 1);
  await page.screenshot({ path: path.join(SHOTS, 'hosted.png'), fullPage: true });
});

test('a reload remembers the relays and (once unlocked) the key, and restores the chat; every request stayed under the sub-path', { timeout: 90_000 }, async () => {
  assert.equal(site.requestsFor(`${SUB}nip49.wasm`).length, 0, 'nothing of NIP-49 is fetched until a key is remembered');
  await page.getByLabel('Passphrase to remember this key with (NIP-49)').fill('a hosted passphrase');
  await page.getByLabel('The same passphrase again').fill('a hosted passphrase');
  await page.getByRole('button', { name: 'Remember this key' }).click();
  await page.waitForFunction(() => /remembered in this browser/.test(document.getElementById('identity-line').textContent), null, { timeout: 30_000 });
  assert.equal(site.requestsFor(`${SUB}nip49.js`).length, 1);
  assert.ok(site.requestsFor(`${SUB}nip49.wasm`).every((r) => r.contentType === 'application/wasm'));
  await page.reload();
  await page.getByLabel('Passphrase of the remembered key').fill('a hosted passphrase');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  await page.waitForSelector('body[data-restored="1"]');
  assert.equal(await page.locator('#relay-choice').isHidden(), true, 'not asked again');
  assert.deepEqual(await page.locator('#relay-list li').evaluateAll((lis) => lis.map((li) => li.dataset.relay)), [relay.url]);
  assert.match(await page.locator('#transcript > li:last-child .body').textContent(), /= 42$/);
  assert.ok(sockets.every((u) => new URL(u).href === new URL(relay.url).href), JSON.stringify(sockets));

  const paths = site.requests.map((r) => new URL(r.path, site.origin).pathname);
  assert.ok(paths.every((p) => p.startsWith(SUB)), JSON.stringify(paths));
  assert.ok(site.requests.every((r) => r.status === 200), JSON.stringify(site.requests.filter((r) => r.status !== 200)));
  const wasm = site.requestsFor(`${SUB}core.wasm`);
  assert.ok(wasm.length >= 1 && wasm.every((r) => r.contentType === 'application/wasm'));
  assert.equal(site.requestsFor(`${SUB}core.wasm`).length, site.requestsFor(`${SUB}app.js`).length, 'the preload is the fetch the loader uses (one wasm request per load)');
  const probe = await page.evaluate(() => window.__wasmProbe);
  assert.ok(probe.streamingOk >= 1 && probe.arrayBuffer === 0, `core.wasm compiled while it streams: ${JSON.stringify(probe)}`);
  assert.deepEqual(problems, []);
});
