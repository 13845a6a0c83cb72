// The demo page in headless Chromium against the demo as `npm run demo` starts it: our dev relay,
// the demo agent (its offline model) and the demo's static server. Screenshots go to
// build/test-artifacts/demo/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, CHROMIUM_PATH } from '../support/chromium.js';
import { startDevRelay } from '../support/relays.js';
import { init, LocalSigner, nip44, nip19, getPublicKey, finalizeEvent, generateSecretKey } from 'nostr-agents';
import * as toolsNip49 from 'nostr-tools/nip49';
import { bech32 } from '@scure/base';
import { startDemoAgent } from '../../web-demo/agent/agent.js';
import { startStaticServer } from '../../web-demo/serve.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = path.join(ROOT, 'build/test-artifacts/demo');
const SK_KEY = 'nostr-agents-demo:sk'; // where the page kept its key in hex before NIP-49
const NCRYPTSEC_KEY = 'nostr-agents-demo:ncryptsec';
const PASS = 'correct horse battery staple';

let browser;
let relay;
let relayB; // a relay a link proposes
let agent;
let site;
let page;
const problems = [];

function watch(p) {
  p.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  p.on('pageerror', (err) => problems.push(`pageerror: ${err.stack || err.message}`));
  p.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return p;
}

const demoUrl = (origin) => `${origin}/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
const shot = (p, name) => p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const lastTurn = (p) => p.locator('#transcript > li').last();

async function ready(p) {
  await p.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
}

/** Everything the page keeps in Web Storage, as text. */
const storage = (p) => p.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));

/** Unlocks the remembered key with `pass`; resolves to the error text shown ('' when it opened). */
async function unlock(p, pass = PASS) {
  await p.getByLabel('Passphrase of the remembered key').fill(pass);
  await p.getByRole('button', { name: 'Unlock' }).click();
  await p.waitForFunction(() => document.getElementById('pass-error').textContent !== '' || document.getElementById('pass-form').dataset.mode !== 'unlock', null, { timeout: 30_000 });
  return p.locator('#pass-error').textContent();
}

/** A reload: the tab's key is gone, the remembered one asks for its passphrase. */
async function reloadUnlocked(p) {
  await p.reload();
  await p.getByLabel('Passphrase of the remembered key').waitFor();
  assert.equal(await unlock(p), '');
  await ready(p);
}

/** Remembers the tab's key under `pass` (NIP-49) and waits until it is stored. */
async function remember(p, pass = PASS) {
  await p.getByLabel('Passphrase to remember this key with (NIP-49)').fill(pass);
  await p.getByLabel('The same passphrase again').fill(pass);
  await p.getByRole('button', { name: 'Remember this key' }).click();
  await p.waitForFunction(() => /remembered in this browser/.test(document.getElementById('identity-line').textContent), null, { timeout: 30_000 });
}

/** Sends `text` and waits for the run to end; returns the last turn's locator. */
async function chat(p, text, { wait = true } = {}) {
  const before = await p.locator('#transcript > li').count();
  await p.getByLabel('Message', { exact: true }).fill(text);
  await p.getByRole('button', { name: 'Send', exact: true }).click();
  await p.waitForFunction((n) => document.querySelectorAll('#transcript > li').length > n, before);
  if (wait) await p.waitForFunction(() => document.querySelector('#transcript > li:last-child .msg.agent')?.getAttribute('aria-busy') === 'false', null, { timeout: 30_000 });
  return lastTurn(p);
}

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  await init();
  relay = await startDevRelay({ memory: true });
  relayB = await startDevRelay({ memory: true });
  [agent, site, browser] = await Promise.all([
    startDemoAgent({ relays: [relay.url], tokenDelay: 15, env: {} }),
    startStaticServer({ port: 0 }),
    launchChromium(),
  ]);
  page = watch(await browser.context.newPage());
});

after(async () => {
  await browser?.close();
  await agent?.stop();
  await site?.close();
  await relay?.close();
  await relayB?.close();
});

test('the page loads, asks about the proposed relay, makes a key for the tab, finds the agent and streams a reply', { timeout: 60_000 }, async () => {
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(demoUrl(site.origin));
  // ?relay= proposes: a first visit shows the link's relays and connects nowhere before the user says so.
  const field = page.getByLabel(/Relays to connect to/);
  await field.waitFor();
  assert.equal(await field.inputValue(), relay.url);
  assert.match(await page.locator('#relay-choice-label').textContent(), /the link proposes these/);
  assert.deepEqual(sockets, []);
  await page.getByRole('button', { name: 'Connect' }).click();
  await ready(page);
  // A key for this tab only: nothing secret is stored, and NIP-49's module was not even fetched.
  assert.match(await page.locator('#identity-line').textContent(), /for this tab only/);
  assert.deepEqual(Object.keys(JSON.parse(await storage(page)).local).sort(), ['nostr-agents-demo:identity', 'nostr-agents-demo:relays']);
  assert.equal(await page.getByLabel('Passphrase to remember this key with (NIP-49)').isVisible(), true);
  assert.equal(await page.locator('#agent-select').inputValue(), agent.pubkey);
  await assert.doesNotReject(page.getByText('calculator, clock, unit_converter').waitFor());
  await page.waitForSelector('#relay-list .dot[data-state="open"]');
  // Every form control has a label.
  const unlabeled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')].filter((e) => e.labels.length === 0 && !e.getAttribute('aria-label')).map((e) => e.id));
  assert.deepEqual(unlabeled, []);

  // Record the agent bubble's text each time it changes, to see the reply arrive in pieces.
  await page.evaluate(() => {
    window.__snapshots = [];
    new MutationObserver(() => {
      const body = document.querySelector('#transcript > li:last-child .body');
      const t = body?.textContent ?? '';
      if (t && window.__snapshots.at(-1) !== t) window.__snapshots.push(t);
    }).observe(document.getElementById('transcript'), { childList: true, subtree: true, characterData: true });
  });
  const turn = await chat(page, 'hello');
  const final = await turn.locator('.body').textContent();
  assert.match(final, /nostr-agents demo agent/);
  assert.equal(await turn.locator('.body strong').first().textContent(), 'nostr-agents demo agent', 'markdown bold rendered');
  const snaps = await page.evaluate(() => window.__snapshots);
  assert.ok(snaps.length >= 3, `streamed in pieces: ${snaps.length} renders`);
  assert.equal(snaps.at(-1), final);
  assert.match(await turn.locator('.run-status').textContent(), /Done/);
  await shot(page, 'chat');
});

test('a calculation shows a calculator tool card with the right result', { timeout: 60_000 }, async () => {
  const turn = await chat(page, 'calculate 2 * (3 + 4) - 2^3');
  const card = turn.locator('.tool-card[data-tool="calculator"]');
  assert.equal(await card.count(), 1);
  const cardText = await card.textContent();
  assert.match(cardText, /"expression": "2 \* \(3 \+ 4\) - 2\^3"/);
  assert.match(cardText, /"result": "6"/);
  assert.match(cardText, /Duration\d+ ms/);
  assert.equal(await card.getAttribute('data-success'), 'true');
  assert.match(await turn.locator('.body').textContent(), /= 6$/);
  await shot(page, 'tool-card');
});

test('cancel mid-stream ends the run as cancelled', { timeout: 60_000 }, async () => {
  const turn = await chat(page, 'tell me a story', { wait: false });
  await page.waitForFunction(() => (document.querySelector('#transcript > li:last-child .body')?.textContent ?? '').length > 0);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'cancelled', null, { timeout: 20_000 });
  assert.equal(await turn.locator('.status-text').textContent(), 'Cancelled');
  assert.doesNotMatch(await turn.locator('.body').textContent(), /The end\./, 'the story stopped before its end');
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).isDisabled(), true);
  await shot(page, 'cancelled');
});

test('an agent error is shown with its code and a retry_after countdown', { timeout: 60_000 }, async () => {
  const turn = await chat(page, 'fail');
  const box = turn.locator('.error-box');
  assert.equal(await box.locator('code').textContent(), 'RATE_LIMIT');
  assert.match(await box.locator('.countdown').textContent(), /Retry in [1-5] s/);
  assert.equal(await box.getByRole('button', { name: 'Retry' }).isDisabled(), true);
  assert.equal(await turn.locator('.run-status').getAttribute('data-state'), 'error');
  await shot(page, 'error');
});

test('a hostile reply with HTML, script and a javascript: link stays inert text', { timeout: 60_000 }, async () => {
  const hostile =
    'echo <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> **bold** [click](javascript:window.__pwned=3) <a href="https://evil.example">a</a> [ok](https://example.com/x)';
  const turn = await chat(page, hostile);
  const body = turn.locator('.body');
  const text = await body.textContent();
  assert.match(text, /<img src=x onerror="window.__pwned=1">/);
  assert.match(text, /<script>window.__pwned=2<\/script>/);
  assert.match(text, /\[click\]\(javascript:window.__pwned=3\)/);
  assert.equal(await page.locator('#transcript img, #transcript script, #transcript iframe').count(), 0);
  const links = await body.locator('a').evaluateAll((as) => as.map((a) => [a.href, a.rel, a.target]));
  assert.deepEqual(links, [['https://example.com/x', 'noopener noreferrer nofollow', '_blank']]);
  assert.equal(await body.locator('strong').textContent(), 'bold');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
});

test('the AGX panel finds the Agent Card and completes a math.eval task', { timeout: 90_000 }, async () => {
  assert.equal(await page.getByLabel('Agent npub').inputValue(), agent.npub);
  await page.getByRole('button', { name: 'Look up card' }).click();
  await page.locator('#card-view dl').waitFor();
  assert.match(await page.locator('#card-view').textContent(), /math\.eval, demo\.echo/);
  await page.getByLabel('Capability').fill('math.eval');
  await page.getByLabel('Payload (JSON)').fill('{"expression": "6 * (3 + 4)"}');
  await page.getByRole('button', { name: 'Send task' }).click();
  await page.locator('#task-log li[data-kind="result"]').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#task-log li[data-kind="result"]').textContent(), /"result": "42"/);
  assert.match(await page.locator('#task-log li[data-kind="receipt"]').first().textContent(), /delivered/);
  // A bad payload is refused on the page, before anything is sent.
  await page.getByLabel('Payload (JSON)').fill('{not json');
  await page.getByRole('button', { name: 'Send task' }).click();
  assert.equal(await page.locator('#task-error').textContent(), 'The payload is not valid JSON.');
  await shot(page, 'agx');
});

test('a remembered key (NIP-49, lazily loaded) survives a reload, behind its passphrase; the session and its runs come back', { timeout: 90_000 }, async () => {
  const identity = await page.locator('#identity-line code').getAttribute('title');
  const messages = await page.locator('#transcript .msg.user').allTextContents();
  const fetched = [];
  const onRequest = (r) => fetched.push(new URL(r.url()).pathname);
  page.on('request', onRequest);
  // Refused: too short, and two that differ.
  await page.getByLabel('Passphrase to remember this key with (NIP-49)').fill('short');
  await page.getByLabel('The same passphrase again').fill('short');
  await page.getByRole('button', { name: 'Remember this key' }).click();
  assert.match(await page.locator('#pass-error').textContent(), /8 characters/);
  await page.getByLabel('Passphrase to remember this key with (NIP-49)').fill(PASS);
  await page.getByLabel('The same passphrase again').fill(`${PASS}!`);
  await page.getByRole('button', { name: 'Remember this key' }).click();
  assert.match(await page.locator('#pass-error').textContent(), /differ/);
  assert.ok(!fetched.some((f) => f.includes('nip49')), `NIP-49 is loaded only to encrypt: ${fetched}`);
  await remember(page);
  assert.ok(fetched.includes('/dist/core-nip49.wasm'), `the NIP-49 module was fetched: ${fetched}`);
  page.off('request', onRequest);
  // What is stored is an ncryptsec that nostr-tools opens to this identity's key; nothing else secret.
  const kept = JSON.parse(await storage(page));
  const nc = kept.local[NCRYPTSEC_KEY];
  const sk = toolsNip49.decrypt(nc, PASS);
  assert.equal(nip19.npubEncode(getPublicKey(sk)), identity);
  const raw = new Uint8Array(bech32.fromWords(bech32.decode(nc, 5000).words));
  assert.deepEqual([raw[0], raw[1], raw[42]], [2, 16, 1], 'version 2, log_n 16, key never seen in the clear');
  const dump = JSON.stringify(kept);
  assert.ok(!dump.includes(Buffer.from(sk).toString('hex')) && !dump.includes(nip19.nsecEncode(sk)));

  await page.reload();
  // No key until the passphrase is given; a wrong one is refused.
  await page.getByLabel('Passphrase of the remembered key').waitFor();
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'false');
  assert.equal(await unlock(page, 'not the passphrase'), 'Wrong passphrase.');
  assert.equal(await unlock(page), '');
  await ready(page);
  await page.waitForSelector('body[data-restored]'); // the runs are replayed from IndexedDB
  assert.equal(await page.locator('#identity-line code').getAttribute('title'), identity);
  assert.match(await page.locator('#identity-line').textContent(), /remembered in this browser/);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), null);
  assert.deepEqual(await page.locator('#transcript .msg.user').allTextContents(), messages);
  const states = await page.locator('#transcript .run-status').evaluateAll((s) => s.map((x) => x.dataset.state));
  assert.deepEqual(states, ['done', 'done', 'cancelled', 'error', 'done']);
  assert.equal(await page.locator('#session-list button').count(), 1);
  assert.equal(await page.locator('#session-list button').getAttribute('aria-current'), 'true');
  assert.equal(await page.locator('#transcript .tool-card[data-tool="calculator"]').count(), 1);
  // A new chat is a second session; the first stays listed.
  await page.getByRole('button', { name: 'New chat' }).click();
  await chat(page, 'what time is it in Asia/Tokyo');
  assert.equal(await page.locator('#session-list button').count(), 2);
  assert.equal(await lastTurn(page).locator('.tool-card[data-tool="clock"]').count(), 1);
  // The runs are in the package's IndexedDbRunStore, not in localStorage.
  // The store records the terminal just after the page renders it: read until it is there.
  const readStored = () =>
    page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const r = indexedDB.open('nostr-agents-demo');
          r.onerror = () => reject(r.error);
          r.onsuccess = () => {
            const all = r.result.transaction('runs').objectStore('runs').getAll();
            all.onsuccess = () => resolve(all.result.map((x) => [x.message, x.state]));
            all.onerror = () => reject(all.error);
          };
        }),
    );
  let stored = await readStored();
  for (let i = 0; i < 50 && !stored.some(([m, st]) => m === 'what time is it in Asia/Tokyo' && st === 'done'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    stored = await readStored();
  }
  assert.equal(stored.length, 6);
  assert.ok(stored.some(([m, st]) => m === 'what time is it in Asia/Tokyo' && st === 'done'), JSON.stringify(stored));
  assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('runs')).length), 0);
});

test('privacy first: a NIP-59 chat works and the relay sees only gift wraps', { timeout: 60_000 }, async () => {
  const { RelayPool, nip19 } = await import('nostr-agents');
  const me = nip19.decode(await page.locator('#identity-line code').getAttribute('title')).data;
  // A bystander on the relay: what does it see of this chat?
  const watcher = new RelayPool({ relays: [relay.url] });
  const seen = { plain: 0, wrapsToAgent: 0, wrapsToMe: 0 };
  const kinds = [25800, 25801, 25802, 25803, 25804, 25805, 25806];
  const since = Math.floor(Date.now() / 1000) - 3 * 86400; // wraps are backdated up to 2 days
  const subs = [];
  const eosed = [];
  for (const [filters, key] of [
    [[{ kinds, authors: [me] }, { kinds, '#p': [me] }], 'plain'],
    [[{ kinds: [1059], '#p': [agent.pubkey], since }], 'wrapsToAgent'],
    [[{ kinds: [1059], '#p': [me], since }], 'wrapsToMe'],
  ]) {
    let done;
    eosed.push(new Promise((r) => (done = r)));
    subs.push(watcher.subscribe(filters, { onevent: () => seen[key]++, oneose: () => done() }));
  }
  const until = async (ok, what) => {
    for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(ok(), `${what}: ${JSON.stringify(seen)}`);
  };
  try {
    await Promise.all(eosed);
    const before = { ...seen };
    const box = page.getByLabel('Privacy first (NIP-59)');
    assert.equal(await box.isVisible(), true, 'the demo agent advertises supports_nip59');
    assert.equal(await box.isEnabled(), true);
    await box.check();
    const turn = await chat(page, 'calculate 6 * 7');
    assert.match(await turn.locator('.body').textContent(), /= 42$/);
    assert.equal(await turn.locator('.run-status').getAttribute('data-state'), 'done');
    assert.equal(await turn.locator('.tool-card[data-tool="calculator"]').count(), 1, 'the tool card shows (without arguments: private telemetry)');
    assert.equal(await turn.locator('.msg.agent .who').textContent(), 'Agent · private (NIP-59)');
    await until(() => seen.wrapsToAgent > before.wrapsToAgent, 'the prompt went out gift-wrapped');
    await until(() => seen.wrapsToMe - before.wrapsToMe >= 2, 'the replies came back gift-wrapped');
    assert.equal(seen.plain, 0, 'no NIP-XX event in the clear');
    await box.uncheck();
    const plain = await chat(page, 'calculate 1 + 2');
    assert.match(await plain.locator('.body').textContent(), /= 3$/);
    assert.equal(await plain.locator('.msg.agent .who').textContent(), 'Agent');
    await until(() => seen.plain >= 2, 'with the switch off the run is NIP-44 events again');
    // The private run is restored after a reload like the others.
    await reloadUnlocked(page);
    await page.waitForSelector('body[data-restored]');
    const restored = page.locator('#transcript > li').filter({ hasText: 'calculate 6 * 7' }).last();
    assert.match(await restored.locator('.body').textContent(), /= 42$/);
    assert.equal(await restored.locator('.msg.agent .who').textContent(), 'Agent · private (NIP-59)');
  } finally {
    for (const s of subs) s.close();
    await watcher.close();
  }
  await shot(page, 'private');
});

test('phone-sized screen: no horizontal scrolling, controls reachable', { timeout: 60_000 }, async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await reloadUnlocked(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page wider than the screen by ${overflow} px`);
  await page.getByLabel('Message', { exact: true }).focus();
  await page.keyboard.type('calculate 1+1');
  await page.keyboard.press('Enter'); // Enter sends
  await page.waitForFunction(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeout: 30_000 });
  assert.match(await lastTurn(page).locator('.body').textContent(), /= 2$/);
  await shot(page, 'phone');
  assert.deepEqual(problems, []);
});

test('NIP-07: an injected window.nostr signs and decrypts; the page never holds a key', { timeout: 60_000 }, async () => {
  // Another origin: its own localStorage, with no local key in it.
  const site2 = await startStaticServer({ port: 0 });
  const ext = watch(await browser.context.newPage());
  try {
    const sk = generateSecretKey();
    const pubkey = getPublicKey(sk);
    const signer = new LocalSigner(sk);
    const calls = { getPublicKey: 0, signEvent: 0, encrypt: 0, decrypt: 0 };
    await ext.exposeFunction('__extGetPublicKey', async () => (calls.getPublicKey++, pubkey));
    await ext.exposeFunction('__extSign', async (t) => (calls.signEvent++, finalizeEvent(t, sk)));
    await ext.exposeFunction('__extEncrypt', async (pk, text) => (calls.encrypt++, signer.nip44Encrypt(pk, text)));
    await ext.exposeFunction('__extDecrypt', async (pk, payload) => (calls.decrypt++, signer.nip44Decrypt(pk, payload)));
    await ext.addInitScript(() => {
      window.nostr = {
        getPublicKey: () => window.__extGetPublicKey(),
        signEvent: (t) => window.__extSign(t),
        nip44: { encrypt: (pk, t) => window.__extEncrypt(pk, t), decrypt: (pk, p) => window.__extDecrypt(pk, p) },
      };
    });
    await ext.goto(demoUrl(site2.origin));
    const login = ext.getByRole('button', { name: 'Log in with extension' });
    await login.waitFor();
    await login.click();
    await ext.getByRole('button', { name: 'Connect' }).click(); // the proposed relay
    await ready(ext);
    assert.match(await ext.locator('#identity-line').textContent(), /NIP-07 extension/);
    const turn = await chat(ext, 'calculate 20 + 22');
    assert.match(await turn.locator('.body').textContent(), /= 42$/);
    assert.ok(calls.getPublicKey >= 1 && calls.signEvent >= 1 && calls.encrypt >= 1 && calls.decrypt >= 3, JSON.stringify(calls));
    // An AGX task from the extension's key too: the seal is signed and the payload encrypted by it.
    const before = { ...calls };
    await ext.getByLabel('Payload (JSON)').fill('{"expression": "2 ^ 10"}');
    await ext.getByRole('button', { name: 'Send task' }).click();
    await ext.locator('#task-log li[data-kind="result"]').waitFor({ timeout: 60_000 });
    assert.match(await ext.locator('#task-log li[data-kind="result"]').textContent(), /"result": "1024"/);
    assert.ok(calls.signEvent > before.signEvent && calls.encrypt > before.encrypt && calls.decrypt > before.decrypt, JSON.stringify(calls));
    assert.equal(await ext.evaluate((k) => localStorage.getItem(k), SK_KEY), null, 'no local key was made');
    assert.equal(await ext.evaluate((k) => localStorage.getItem(k), NCRYPTSEC_KEY), null);
    // A reload logs in through the extension again, still without a local key.
    await ext.reload();
    await ready(ext);
    assert.match(await ext.locator('#identity-line').textContent(), /NIP-07 extension/);
    assert.equal(await ext.evaluate((k) => localStorage.getItem(k), SK_KEY), null);
    await shot(ext, 'nip07');
    signer.dispose();
    sk.fill(0);
  } finally {
    await ext.close();
    await site2.close();
  }
  assert.deepEqual(problems, []);
});

test('a second agent appears in the picker; a missing delta shows the "streaming degraded" marker', { timeout: 60_000 }, async () => {
  // An agent whose pool loses its second delta on the way out (the relay never sees it).
  const { RelayPool, serveAgent } = await import('nostr-agents');
  const real = new RelayPool({ relays: [relay.url] });
  let deltas = 0;
  const lossy = new Proxy(real, {
    get(target, prop) {
      if (prop === 'publish')
        return (event, opts) => (event.kind === 25801 && ++deltas === 2 ? Promise.resolve([{ relay: relay.url, status: 'accepted' }]) : target.publish(event, opts));
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const gap = await serveAgent({
    signer: LocalSigner.generate(),
    pool: lossy,
    info: { name: 'lossy agent', supported_models: ['gap-1'], default_model: 'gap-1', tool_names: [] },
    async *handler() {
      for (const w of ['one ', 'two ', 'three ', 'four']) yield w;
    },
  });
  try {
    await page.locator(`#agent-select option[value="${gap.pubkey}"]`).waitFor({ state: 'attached' });
    assert.equal(await page.locator('#agent-select option').count(), 2);
    await page.getByLabel('Agent found on the relays').selectOption(gap.pubkey);
    await ready(page);
    assert.equal(await page.locator('#model').inputValue(), 'gap-1');
    // It does not advertise NIP-59: no privacy switch.
    assert.equal(await page.locator('#privacy-box').isHidden(), true);
    const turn = await chat(page, 'count');
    assert.equal(await turn.locator('.degraded').isVisible(), true);
    assert.equal(await turn.locator('.body').textContent(), 'one two three four', 'the final text is complete');
    await page.getByLabel('Agent found on the relays').selectOption(agent.pubkey);
    assert.equal(await page.getByLabel('Privacy first (NIP-59)').isVisible(), true, 'the demo agent advertises NIP-59');
  } finally {
    await gap.stop();
    await real.close();
  }
  assert.deepEqual(problems, []);
});

test('relays are editable: a dead one gets its own dot, removing it keeps the live one', { timeout: 60_000 }, async () => {
  // Last: Chromium logs the refused WebSocket as a console error.
  await page.getByLabel('Add a relay').fill('not a url');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  assert.match(await page.locator('#relay-error').textContent(), /ws:\/\/ or wss:\/\//);
  await page.getByLabel('Add a relay').fill('ws://127.0.0.1:9');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.waitForSelector('#relay-list li[data-relay="ws://127.0.0.1:9"] .dot[data-state="backing-off"]', { timeout: 30_000 });
  await page.waitForSelector(`#relay-list li[data-relay="${relay.url}"] .dot[data-state="open"]`);
  await ready(page); // the agent is found again on the new pool
  await page.getByRole('button', { name: 'Remove ws://127.0.0.1:9' }).click();
  assert.equal(await page.locator('#relay-list li').count(), 1);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('nostr-agents-demo:relays')));
  assert.deepEqual(saved, [relay.url]);
  await ready(page);
  assert.equal(await page.locator('#agent-select').inputValue(), agent.pubkey, 'the picked agent stays picked');
  const turn = await chat(page, 'calculate 3*3');
  assert.match(await turn.locator('.body').textContent(), /= 9$/);
});

test('the tab key exports as nsec and an imported one replaces it; neither is stored in the clear', { timeout: 90_000 }, async () => {
  const identity = await page.locator('#identity-line code').getAttribute('title');
  await page.getByRole('button', { name: 'Export key' }).click();
  const nsec = await page.getByLabel('Your secret key (keep it private)').inputValue();
  assert.equal(nip19.npubEncode(getPublicKey(nip19.decode(nsec).data)), identity);
  assert.ok(!(await storage(page)).includes(nsec));

  const before = await storage(page);
  await page.getByLabel('Import a key (nsec or hex)').fill('nsec1notakey');
  await page.getByRole('button', { name: 'Import' }).click();
  assert.match(await page.locator('#import-error').textContent(), /Not a valid key/);
  assert.equal(await storage(page), before, 'unchanged');

  const sk = generateSecretKey();
  await page.getByLabel('Import a key (nsec or hex)').fill(nip19.nsecEncode(sk));
  await page.getByRole('button', { name: 'Import' }).click();
  await ready(page);
  assert.equal(await page.locator('#identity-line code').getAttribute('title'), nip19.npubEncode(getPublicKey(sk)));
  assert.equal(await page.getByLabel('Import a key (nsec or hex)').inputValue(), '', 'the field is cleared');
  assert.match(await page.locator('#identity-line').textContent(), /for this tab only/, 'imported keys are not stored by themselves');
  assert.equal(await storage(page), before);
  const turn = await chat(page, 'calculate 5*5');
  assert.match(await turn.locator('.body').textContent(), /= 25$/);
  // Remembering it replaces the remembered key; the key security byte says it was seen in the clear.
  await remember(page, 'another good passphrase');
  const nc = JSON.parse(await storage(page)).local[NCRYPTSEC_KEY];
  assert.deepEqual(toolsNip49.decrypt(nc, 'another good passphrase'), sk);
  assert.equal(new Uint8Array(bech32.fromWords(bech32.decode(nc, 5000).words))[42], 0);
  assert.ok(!(await storage(page)).includes(Buffer.from(sk).toString('hex')));
  await page.getByRole('button', { name: 'Export key' }).click(); // close the box
  sk.fill(0);
});

test('a reload in the middle of a run resumes it from the store and follows it to its end', { timeout: 60_000 }, async () => {
  const known = problems.length; // the relays test left Chromium's refused-WebSocket errors
  const { serveAgent } = await import('nostr-agents');
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const gated = await serveAgent({
    signer: LocalSigner.generate(),
    relays: [relay.url],
    info: { name: 'gated agent', supported_models: ['gate-1'], default_model: 'gate-1', tool_names: [] },
    async *handler() {
      yield 'before the reload, ';
      await gate; // the test opens it once the page is back
      yield 'after the reload.';
    },
  });
  try {
    await page.locator(`#agent-select option[value="${gated.pubkey}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Agent found on the relays').selectOption(gated.pubkey);
    await page.getByRole('button', { name: 'New chat' }).click();
    await chat(page, 'wait for me', { wait: false });
    await page.waitForFunction(() => /before the reload/.test(document.querySelector('#transcript > li:last-child .body')?.textContent ?? ''));
    await page.reload();
    assert.equal(await unlock(page, 'another good passphrase'), '');
    await ready(page);
    await page.waitForSelector('body[data-restored="1"]');
    const turn = lastTurn(page);
    assert.equal(await turn.locator('.msg.user').textContent(), 'Youwait for me');
    // What the store kept is replayed (once resumeRun has subscribed again), before the agent goes on.
    await page
      .waitForFunction(() => /^before the reload,\s*$/.test(document.querySelector('#transcript > li:last-child .body')?.textContent), null, { timeout: 10_000 })
      .catch(async (err) => {
        throw new Error(`${err.message}: ${await turn.innerText()}`);
      });
    assert.equal(await turn.locator('.msg.agent').getAttribute('aria-busy'), 'true', 'still running: resumed live');
    release();
    await page.waitForFunction(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeout: 30_000 });
    assert.equal(await turn.locator('.body').textContent(), 'before the reload, after the reload.');
  } finally {
    release();
    await gated.stop();
  }
  assert.deepEqual(problems.slice(known), []);
});

test('a link proposing another relay does not change the saved list; the user adds it or not', { timeout: 60_000 }, async () => {
  const sockets = [];
  const onSocket = (ws) => sockets.push(ws.url());
  page.on('websocket', onSocket);
  try {
    const link = `${site.origin}/?relay=${encodeURIComponent(relayB.url)}&relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
    await page.goto(link);
    assert.equal(await unlock(page, 'another good passphrase'), '');
    await ready(page);
    const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('nostr-agents-demo:relays')));
    assert.deepEqual(await saved(), [relay.url]);
    assert.match(await page.locator('#relay-proposal').textContent(), new RegExp(`proposes relays you do not use: ${relayB.url.replace(/[.]/g, '\\.')}\\.`));
    assert.ok(!sockets.some((u) => new URL(u).port === new URL(relayB.url).port), 'the proposed relay was not contacted');
    await page.getByRole('button', { name: 'Ignore' }).click();
    assert.equal(await page.locator('#relay-proposal').isHidden(), true);
    assert.deepEqual(await saved(), [relay.url]);

    await page.goto(link);
    assert.equal(await unlock(page, 'another good passphrase'), '');
    await page.getByRole('button', { name: 'Add them' }).click();
    assert.deepEqual(await saved(), [relay.url, relayB.url]);
    await page.waitForSelector(`#relay-list li[data-relay="${relayB.url}"] .dot[data-state="open"]`);
    await page.getByRole('button', { name: `Remove ${relayB.url}` }).click();
    assert.deepEqual(await saved(), [relay.url]);
  } finally {
    page.off('websocket', onSocket);
  }
});

test('a key an older version kept in plain text is moved out of storage; a remembered key can be forgotten', { timeout: 60_000 }, async () => {
  const site3 = await startStaticServer({ port: 0 });
  const p = watch(await browser.context.newPage());
  try {
    const sk = generateSecretKey();
    const hex = Buffer.from(sk).toString('hex');
    await p.goto(`${site3.origin}/web-demo/style.css`); // the origin, to plant the old entry
    await p.evaluate(([k, v]) => {
      localStorage.setItem(k, v);
      localStorage.setItem('nostr-agents-demo:relays', '[]');
    }, [SK_KEY, hex]);
    await p.goto(demoUrl(site3.origin));
    await p.locator('#identity-line code').waitFor();
    assert.equal(await p.locator('#identity-line code').getAttribute('title'), nip19.npubEncode(getPublicKey(sk)));
    assert.match(await p.locator('#identity-line').textContent(), /kept unencrypted, now out of storage: remember or export it/);
    assert.ok(!(await storage(p)).includes(hex), 'the plain-text copy is gone');
    await remember(p);
    assert.deepEqual(toolsNip49.decrypt(JSON.parse(await storage(p)).local[NCRYPTSEC_KEY], PASS), sk);
    // Forget: the page asks first; said no, nothing changes; said yes, nothing is remembered (the
    // tab keeps its key until it closes).
    p.once('dialog', (d) => d.dismiss());
    await p.getByRole('button', { name: 'Forget the remembered key' }).click();
    assert.notEqual(JSON.parse(await storage(p)).local[NCRYPTSEC_KEY], undefined, 'not without a yes');
    p.once('dialog', (d) => d.accept());
    await p.getByRole('button', { name: 'Forget the remembered key' }).click();
    await p.waitForFunction((k) => localStorage.getItem(k) === null, NCRYPTSEC_KEY);
    await p.reload();
    await p.locator('#identity-line code').waitFor();
    assert.notEqual(await p.locator('#identity-line code').getAttribute('title'), nip19.npubEncode(getPublicKey(sk)), 'a new tab key');
    sk.fill(0);
  } finally {
    await p.close();
    await site3.close();
  }
});
