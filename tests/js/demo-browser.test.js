// The demo page in three browser engines (Chromium, Firefox ESR, WebKitGTK: ../support/engines.js)
// against the demo as `npm run demo` starts it: our dev relay, the demo agent (its offline model)
// and the demo's static server, fresh for each engine. Screenshots go to
// build/test-artifacts/demo/<engine>/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forEachEngine } from '../support/engines.js';
import { startDevRelay } from '../support/relays.js';
import { init, LocalSigner, nip44, nip19, getPublicKey, finalizeEvent, generateSecretKey } from 'nostr-agents';
import * as toolsNip49 from 'nostr-tools/nip49';
import { bech32 } from '@scure/base';
import { startDemoAgent } from '../../web-demo/agent/agent.js';
import { startStaticServer } from '../../web-demo/serve.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SK_KEY = 'nostr-agents-demo:sk'; // where the page kept its key in hex before NIP-49
const NCRYPTSEC_KEY = 'nostr-agents-demo:ncryptsec';
const PASS = 'correct horse battery staple';
const LAST = '#transcript > li:last-child'; // the latest turn
const MESSAGE = { label: 'Message', exact: true };
const SEND = { role: 'button', name: 'Send', exact: true };

before(() => init());

forEachEngine((engine) => {
  const shots = path.join(ROOT, 'build/test-artifacts/demo', engine.id);
  let relay;
  let relayB; // a relay a link proposes
  let agent;
  let site;
  let page;
  const sockets = []; // every WebSocket `page` opened, as the page asked for it

  const demoUrl = (origin) => `${origin}/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
  const shot = (p, name) => p.screenshot(path.join(shots, `${name}.png`));
  const ready = (p) => p.waitForSelector('body[data-ready="true"]', { timeoutMs: 30_000 });

  /** Everything the page keeps in Web Storage, as text. */
  const storage = (p) => p.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));

  /** Unlocks the remembered key with `pass`; resolves to the error text shown ('' when it opened). */
  async function unlock(p, pass = PASS) {
    await p.fill({ label: 'Passphrase of the remembered key' }, pass);
    await p.click({ role: 'button', name: 'Unlock' });
    await p.waitFor(() => document.getElementById('pass-error').textContent !== '' || document.getElementById('pass-form').dataset.mode !== 'unlock', null, { timeoutMs: 30_000, what: 'the unlock to end' });
    return p.text('#pass-error');
  }

  /** A reload: the tab's key is gone, the remembered one asks for its passphrase. */
  async function reloadUnlocked(p) {
    await p.reload();
    await p.waitForTarget({ label: 'Passphrase of the remembered key' });
    assert.equal(await unlock(p), '');
    await ready(p);
  }

  /** Remembers the tab's key under `pass` (NIP-49) and waits until it is stored. */
  async function remember(p, pass = PASS) {
    await p.fill({ label: 'Passphrase to remember this key with (NIP-49)' }, pass);
    await p.fill({ label: 'The same passphrase again' }, pass);
    await p.click({ role: 'button', name: 'Remember this key' });
    await p.waitFor(() => /remembered in this browser/.test(document.getElementById('identity-line').textContent), null, { timeoutMs: 30_000, what: 'the key to be remembered' });
  }

  /** Paths of the resources the page's document fetched (Resource Timing), since the last clear. */
  const fetchedPaths = (p) => p.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));

  /** Sends `text` and waits for the run to end. */
  async function chat(p, text, { wait = true } = {}) {
    const before = await p.count('#transcript > li');
    await p.fill(MESSAGE, text);
    await p.click(SEND);
    await p.waitFor((n) => document.querySelectorAll('#transcript > li').length > n, before, { what: 'a new turn' });
    if (wait) await p.waitFor(() => document.querySelector('#transcript > li:last-child .msg.agent')?.getAttribute('aria-busy') === 'false', null, { timeoutMs: 30_000, what: 'the run to end' });
  }

  before(async () => {
    mkdirSync(shots, { recursive: true });
    relay = await startDevRelay({ memory: true });
    relayB = await startDevRelay({ memory: true });
    [agent, site] = await Promise.all([startDemoAgent({ relays: [relay.url], tokenDelay: 15, env: {} }), startStaticServer({ port: 0 })]);
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
    await relayB?.close();
  });

  test('the page loads, asks about the proposed relay, makes a key for the tab, finds the agent and streams a reply', { timeout: 60_000 }, async () => {
    await page.goto(demoUrl(site.origin));
    // ?relay= proposes: a first visit shows the link's relays and connects nowhere before the user says so.
    const field = { label: 'Relays to connect to' };
    await page.waitForTarget(field);
    assert.equal(await page.value(field), relay.url);
    assert.match(await page.text('#relay-choice-label'), /the link proposes these/);
    assert.deepEqual(sockets, []);
    await page.click({ role: 'button', name: 'Connect' });
    await ready(page);
    // A key for this tab only: nothing secret is stored, and NIP-49's module was not even fetched.
    assert.match(await page.text('#identity-line'), /for this tab only/);
    assert.deepEqual(Object.keys(JSON.parse(await storage(page)).local).sort(), ['nostr-agents-demo:identity', 'nostr-agents-demo:relays']);
    assert.equal(await page.visible({ label: 'Passphrase to remember this key with (NIP-49)' }), true);
    const fetched = await fetchedPaths(page);
    assert.ok(!fetched.some((f) => f.includes('nip49')), 'NIP-49 is not loaded for a tab key');
    assert.deepEqual(fetched.filter((f) => f.endsWith('.wasm')), ['/dist/core.wasm'], 'the page fetched its WASM once');
    assert.equal(await page.value('#agent-select'), agent.pubkey);
    await page.waitForTarget({ text: 'calculator, clock, unit_converter' });
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
    await chat(page, 'hello');
    const final = await page.text(`${LAST} .body`);
    assert.match(final, /nostr-agents demo agent/);
    assert.equal(await page.evaluate((s) => document.querySelector(s)?.textContent, `${LAST} .body strong`), 'nostr-agents demo agent', 'markdown bold rendered');
    const snaps = await page.evaluate(() => window.__snapshots);
    assert.ok(snaps.length >= 3, `streamed in pieces: ${snaps.length} renders`);
    assert.equal(snaps.at(-1), final);
    assert.match(await page.text(`${LAST} .run-status`), /Done/);
    await shot(page, 'chat');
  });

  test('a calculation shows a calculator tool card with the right result', { timeout: 60_000 }, async () => {
    await chat(page, 'calculate 2 * (3 + 4) - 2^3');
    const card = `${LAST} .tool-card[data-tool="calculator"]`;
    assert.equal(await page.count(card), 1);
    const cardText = await page.text(card);
    assert.match(cardText, /"expression": "2 \* \(3 \+ 4\) - 2\^3"/);
    assert.match(cardText, /"result": "6"/);
    assert.match(cardText, /Duration\d+ ms/);
    assert.equal(await page.attribute(card, 'data-success'), 'true');
    assert.match(await page.text(`${LAST} .body`), /= 6$/);
    await shot(page, 'tool-card');
  });

  test('cancel mid-stream ends the run as cancelled', { timeout: 60_000 }, async () => {
    await chat(page, 'tell me a story', { wait: false });
    await page.waitFor(() => (document.querySelector('#transcript > li:last-child .body')?.textContent ?? '').length > 0, null, { what: 'the story to start' });
    await page.click({ role: 'button', name: 'Cancel' });
    await page.waitFor(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'cancelled', null, { timeoutMs: 20_000, what: 'the run to be cancelled' });
    assert.equal(await page.text(`${LAST} .status-text`), 'Cancelled');
    assert.doesNotMatch(await page.text(`${LAST} .body`), /The end\./, 'the story stopped before its end');
    assert.equal(await page.read({ role: 'button', name: 'Cancel' }, (el) => el.disabled), true);
    await shot(page, 'cancelled');
  });

  test('an agent error is shown with its code and a retry_after countdown', { timeout: 60_000 }, async () => {
    await chat(page, 'fail');
    const box = `${LAST} .error-box`;
    assert.equal(await page.text(`${box} code`), 'RATE_LIMIT');
    assert.match(await page.text(`${box} .countdown`), /Retry in [1-5] s/);
    assert.equal(await page.read({ role: 'button', name: 'Retry', within: box }, (el) => el.disabled), true);
    assert.equal(await page.attribute(`${LAST} .run-status`, 'data-state'), 'error');
    await shot(page, 'error');
  });

  test('a hostile reply with HTML, script and a javascript: link stays inert text', { timeout: 60_000 }, async () => {
    const hostile =
      'echo <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> **bold** [click](javascript:window.__pwned=3) <a href="https://evil.example">a</a> [ok](https://example.com/x)';
    await chat(page, hostile);
    const body = `${LAST} .body`;
    const text = await page.text(body);
    assert.match(text, /<img src=x onerror="window.__pwned=1">/);
    assert.match(text, /<script>window.__pwned=2<\/script>/);
    assert.match(text, /\[click\]\(javascript:window.__pwned=3\)/);
    assert.equal(await page.count('#transcript img, #transcript script, #transcript iframe'), 0);
    const links = await page.readAll(`${body} a`, (as) => as.map((a) => [a.href, a.rel, a.target]));
    assert.deepEqual(links, [['https://example.com/x', 'noopener noreferrer nofollow', '_blank']]);
    assert.equal(await page.text(`${body} strong`), 'bold');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  test('the AGX panel finds the Agent Card and completes a math.eval task', { timeout: 90_000 }, async () => {
    assert.equal(await page.value({ label: 'Agent npub' }), agent.npub);
    const agxLazy = '/web-demo/agx-lazy.js';
    assert.ok(!(await fetchedPaths(page)).includes(agxLazy), "the AGX panel's code is not loaded before the panel is used");
    await page.click({ role: 'button', name: 'Look up card' });
    await page.waitForTarget('#card-view dl');
    assert.ok((await fetchedPaths(page)).includes(agxLazy), 'it is loaded for the card lookup');
    assert.match(await page.text('#card-view'), /math\.eval, demo\.echo/);
    await page.fill({ label: 'Capability' }, 'math.eval');
    await page.fill({ label: 'Payload (JSON)' }, '{"expression": "6 * (3 + 4)"}');
    await page.click({ role: 'button', name: 'Send task' });
    await page.waitForTarget('#task-log li[data-kind="result"]', { timeoutMs: 60_000 });
    assert.match(await page.text('#task-log li[data-kind="result"]'), /"result": "42"/);
    assert.match(await page.evaluate(() => document.querySelector('#task-log li[data-kind="receipt"]')?.textContent), /delivered/);
    // A bad payload is refused on the page, before anything is sent.
    await page.fill({ label: 'Payload (JSON)' }, '{not json');
    await page.click({ role: 'button', name: 'Send task' });
    assert.equal(await page.text('#task-error'), 'The payload is not valid JSON.');
    await shot(page, 'agx');
  });

  test('a remembered key (NIP-49, lazily loaded) survives a reload, behind its passphrase; the session and its runs come back', { timeout: 90_000 }, async () => {
    const identity = await page.attribute('#identity-line code', 'title');
    const userTexts = () => page.readAll('#transcript .msg.user', (els) => els.map((e) => e.textContent));
    const messages = await userTexts();
    await page.evaluate(() => performance.clearResourceTimings());
    const newPass = { label: 'Passphrase to remember this key with (NIP-49)' };
    const again = { label: 'The same passphrase again' };
    const rememberButton = { role: 'button', name: 'Remember this key' };
    // Refused: too short, and two that differ.
    await page.fill(newPass, 'short');
    await page.fill(again, 'short');
    await page.click(rememberButton);
    assert.match(await page.text('#pass-error'), /8 characters/);
    await page.fill(newPass, PASS);
    await page.fill(again, `${PASS}!`);
    await page.click(rememberButton);
    assert.match(await page.text('#pass-error'), /differ/);
    let fetched = await fetchedPaths(page);
    assert.ok(!fetched.some((f) => f.includes('nip49')), `NIP-49 is loaded only to encrypt: ${fetched}`);
    await remember(page);
    fetched = await fetchedPaths(page);
    assert.ok(fetched.includes('/dist/core-nip49.wasm'), `the NIP-49 module was fetched: ${fetched}`);
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
    await page.waitForTarget({ label: 'Passphrase of the remembered key' });
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'false');
    assert.equal(await unlock(page, 'not the passphrase'), 'Wrong passphrase.');
    assert.equal(await unlock(page), '');
    await ready(page);
    await page.waitForSelector('body[data-restored]'); // the runs are replayed from IndexedDB
    assert.equal(await page.attribute('#identity-line code', 'title'), identity);
    assert.match(await page.text('#identity-line'), /remembered in this browser/);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), null);
    assert.deepEqual(await userTexts(), messages);
    const states = await page.readAll('#transcript .run-status', (s) => s.map((x) => x.dataset.state));
    assert.deepEqual(states, ['done', 'done', 'cancelled', 'error', 'done']);
    assert.equal(await page.count('#session-list button'), 1);
    assert.equal(await page.attribute('#session-list button', 'aria-current'), 'true');
    assert.equal(await page.count('#transcript .tool-card[data-tool="calculator"]'), 1);
    // A new chat is a second session; the first stays listed.
    await page.click({ role: 'button', name: 'New chat' });
    await chat(page, 'what time is it in Asia/Tokyo');
    assert.equal(await page.count('#session-list button'), 2);
    assert.equal(await page.count(`${LAST} .tool-card[data-tool="clock"]`), 1);
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
    const me = nip19.decode(await page.attribute('#identity-line code', 'title')).data;
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
    const privacy = { label: 'Privacy first (NIP-59)' };
    try {
      await Promise.all(eosed);
      const before = { ...seen };
      assert.equal(await page.visible(privacy), true, 'the demo agent advertises supports_nip59');
      assert.equal(await page.read(privacy, (el) => !el.disabled), true);
      await page.check(privacy, true);
      await chat(page, 'calculate 6 * 7');
      assert.match(await page.text(`${LAST} .body`), /= 42$/, await page.read(LAST, (el) => el.innerText));
      assert.equal(await page.attribute(`${LAST} .run-status`, 'data-state'), 'done');
      assert.equal(await page.count(`${LAST} .tool-card[data-tool="calculator"]`), 1, 'the tool card shows (without arguments: private telemetry)');
      assert.equal(await page.text(`${LAST} .msg.agent .who`), 'Agent · private (NIP-59)');
      await until(() => seen.wrapsToAgent > before.wrapsToAgent, 'the prompt went out gift-wrapped');
      await until(() => seen.wrapsToMe - before.wrapsToMe >= 2, 'the replies came back gift-wrapped');
      assert.equal(seen.plain, 0, 'no NIP-XX event in the clear');
      await page.check(privacy, false);
      await chat(page, 'calculate 1 + 2');
      assert.match(await page.text(`${LAST} .body`), /= 3$/);
      assert.equal(await page.text(`${LAST} .msg.agent .who`), 'Agent');
      await until(() => seen.plain >= 2, 'with the switch off the run is NIP-44 events again');
      // The private run is restored after a reload like the others.
      await reloadUnlocked(page);
      await page.waitForSelector('body[data-restored]');
      const restored = await page.evaluate((text) => {
        const li = [...document.querySelectorAll('#transcript > li')].filter((l) => l.textContent.includes(text)).at(-1);
        return [li?.querySelector('.body')?.textContent, li?.querySelector('.msg.agent .who')?.textContent];
      }, 'calculate 6 * 7');
      assert.match(restored[0], /= 42$/);
      assert.equal(restored[1], 'Agent · private (NIP-59)');
    } finally {
      for (const s of subs) s.close();
      await watcher.close();
    }
    await shot(page, 'private');
  });

  test('phone-sized screen: no horizontal scrolling, controls reachable', { timeout: 60_000 }, async (t) => {
    const size = await page.setViewport(390, 844);
    // MiniBrowser (WebKitGTK) keeps its window at least 447 px wide: the narrowest it goes.
    t.diagnostic(`${engine.browser.label}: viewport ${size.width}×${size.height}`);
    assert.ok(size.width <= 447, `viewport ${size.width} px wide`);
    try {
      await reloadUnlocked(page);
      await page.waitForSelector('body[data-restored]'); // the whole transcript, as the user sees it
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      // What sticks out: elements past the right edge, and elements whose own content (text too) overflows them.
      const wide =
        overflow > 0
          ? await page.evaluate(() => {
              const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
              const all = [...document.querySelectorAll('body *')];
              return [
                ...all.filter((el) => el.getBoundingClientRect().right > innerWidth).map((el) => `${name(el)} right=${Math.round(el.getBoundingClientRect().right)}`),
                ...all.filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible').map((el) => `${name(el)} content ${el.scrollWidth} > ${el.clientWidth}`),
              ].slice(0, 12);
            })
          : [];
      assert.ok(overflow <= 0, `page wider than the screen by ${overflow} px: ${wide.join(', ')}`);
      await page.type(MESSAGE, 'calculate 1+1');
      await page.press(MESSAGE, 'Enter'); // Enter sends
      await page.waitFor(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeoutMs: 30_000, what: 'the run to end' });
      assert.match(await page.text(`${LAST} .body`), /= 2$/);
      await shot(page, 'phone');
      assert.deepEqual(await page.problems(), []);
    } finally {
      await page.setViewport(1280, 720); // the later tests at the size they were written for
    }
  });

  test('NIP-07: an injected window.nostr signs and decrypts; the page never holds a key', { timeout: 60_000 }, async () => {
    // Another origin: its own localStorage, with no local key in it.
    const site2 = await startStaticServer({ port: 0 });
    const ext = await engine.newPage();
    let extProblems;
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
      await ext.click({ role: 'button', name: 'Log in with extension' });
      await ext.click({ role: 'button', name: 'Connect' }); // the proposed relay
      await ready(ext);
      assert.match(await ext.text('#identity-line'), /NIP-07 extension/);
      await chat(ext, 'calculate 20 + 22');
      assert.match(await ext.text(`${LAST} .body`), /= 42$/);
      assert.ok(calls.getPublicKey >= 1 && calls.signEvent >= 1 && calls.encrypt >= 1 && calls.decrypt >= 3, JSON.stringify(calls));
      // An AGX task from the extension's key too: the seal is signed and the payload encrypted by it.
      const before = { ...calls };
      await ext.fill({ label: 'Payload (JSON)' }, '{"expression": "2 ^ 10"}');
      await ext.click({ role: 'button', name: 'Send task' });
      await ext.waitForTarget('#task-log li[data-kind="result"]', { timeoutMs: 60_000 });
      assert.match(await ext.text('#task-log li[data-kind="result"]'), /"result": "1024"/);
      assert.ok(calls.signEvent > before.signEvent && calls.encrypt > before.encrypt && calls.decrypt > before.decrypt, JSON.stringify(calls));
      assert.equal(await ext.evaluate((k) => localStorage.getItem(k), SK_KEY), null, 'no local key was made');
      assert.equal(await ext.evaluate((k) => localStorage.getItem(k), NCRYPTSEC_KEY), null);
      // A reload logs in through the extension again, still without a local key.
      await ext.reload();
      await ready(ext);
      assert.match(await ext.text('#identity-line'), /NIP-07 extension/);
      assert.equal(await ext.evaluate((k) => localStorage.getItem(k), SK_KEY), null);
      await shot(ext, 'nip07');
      signer.dispose();
      sk.fill(0);
    } finally {
      extProblems = await ext.problems().catch((err) => [String(err)]);
      await ext.close();
      await site2.close();
    }
    assert.deepEqual([...(await page.problems()), ...extProblems], []);
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
    const picker = { label: 'Agent found on the relays' };
    try {
      await page.waitForSelector(`#agent-select option[value="${gap.pubkey}"]`);
      assert.equal(await page.count('#agent-select option'), 2);
      await page.select(picker, gap.pubkey);
      await ready(page);
      assert.equal(await page.value('#model'), 'gap-1');
      // It does not advertise NIP-59: no privacy switch.
      assert.equal(await page.visible('#privacy-box'), false);
      await chat(page, 'count');
      assert.equal(await page.visible(`${LAST} .degraded`), true);
      assert.equal(await page.text(`${LAST} .body`), 'one two three four', 'the final text is complete');
      await page.select(picker, agent.pubkey);
      assert.equal(await page.visible({ label: 'Privacy first (NIP-59)' }), true, 'the demo agent advertises NIP-59');
    } finally {
      await gap.stop();
      await real.close();
    }
    assert.deepEqual(await page.problems(), []);
  });

  test('relays are editable: a dead one gets its own dot, removing it keeps the live one', { timeout: 60_000 }, async () => {
    // After the tests that want no problem at all: browsers log the refused WebSocket as an error.
    const add = { label: 'Add a relay' };
    const addButton = { role: 'button', name: 'Add', exact: true };
    await page.fill(add, 'not a url');
    await page.click(addButton);
    assert.match(await page.text('#relay-error'), /ws:\/\/ or wss:\/\//);
    await page.fill(add, 'ws://127.0.0.1:9');
    await page.click(addButton);
    await page.waitForSelector('#relay-list li[data-relay="ws://127.0.0.1:9"] .dot[data-state="backing-off"]', { timeoutMs: 30_000 });
    await page.waitForSelector(`#relay-list li[data-relay="${relay.url}"] .dot[data-state="open"]`);
    await ready(page); // the agent is found again on the new pool
    await page.click({ role: 'button', name: 'Remove ws://127.0.0.1:9' });
    assert.equal(await page.count('#relay-list li'), 1);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('nostr-agents-demo:relays')));
    assert.deepEqual(saved, [relay.url]);
    await ready(page);
    assert.equal(await page.value('#agent-select'), agent.pubkey, 'the picked agent stays picked');
    await chat(page, 'calculate 3*3');
    assert.match(await page.text(`${LAST} .body`), /= 9$/);
  });

  test('the tab key exports as nsec and an imported one replaces it; neither is stored in the clear', { timeout: 90_000 }, async () => {
    const identity = await page.attribute('#identity-line code', 'title');
    await page.click({ role: 'button', name: 'Export key' });
    const nsec = await page.value({ label: 'Your secret key (keep it private)' });
    assert.equal(nip19.npubEncode(getPublicKey(nip19.decode(nsec).data)), identity);
    assert.ok(!(await storage(page)).includes(nsec));

    const before = await storage(page);
    const importField = { label: 'Import a key (nsec or hex)' };
    const importButton = { role: 'button', name: 'Import', exact: true };
    await page.fill(importField, 'nsec1notakey');
    await page.click(importButton);
    assert.match(await page.text('#import-error'), /Not a valid key/);
    assert.equal(await storage(page), before, 'unchanged');

    const sk = generateSecretKey();
    await page.fill(importField, nip19.nsecEncode(sk));
    await page.click(importButton);
    await ready(page);
    assert.equal(await page.attribute('#identity-line code', 'title'), nip19.npubEncode(getPublicKey(sk)));
    assert.equal(await page.value(importField), '', 'the field is cleared');
    assert.match(await page.text('#identity-line'), /for this tab only/, 'imported keys are not stored by themselves');
    assert.equal(await storage(page), before);
    await chat(page, 'calculate 5*5');
    assert.match(await page.text(`${LAST} .body`), /= 25$/);
    // Remembering it replaces the remembered key; the key security byte says it was seen in the clear.
    await remember(page, 'another good passphrase');
    const nc = JSON.parse(await storage(page)).local[NCRYPTSEC_KEY];
    assert.deepEqual(toolsNip49.decrypt(nc, 'another good passphrase'), sk);
    assert.equal(new Uint8Array(bech32.fromWords(bech32.decode(nc, 5000).words))[42], 0);
    assert.ok(!(await storage(page)).includes(Buffer.from(sk).toString('hex')));
    await page.click({ role: 'button', name: 'Export key' }); // close the box
    sk.fill(0);
  });

  test('a reload in the middle of a run resumes it from the store and follows it to its end', { timeout: 60_000 }, async () => {
    const known = (await page.problems()).length; // the relays test left the refused WebSocket's errors
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
      await page.waitForSelector(`#agent-select option[value="${gated.pubkey}"]`);
      await page.select({ label: 'Agent found on the relays' }, gated.pubkey);
      await page.click({ role: 'button', name: 'New chat' });
      await chat(page, 'wait for me', { wait: false });
      await page.waitFor(() => /before the reload/.test(document.querySelector('#transcript > li:last-child .body')?.textContent ?? ''), null, { what: 'the first delta' });
      await page.reload();
      assert.equal(await unlock(page, 'another good passphrase'), '');
      await ready(page);
      await page.waitForSelector('body[data-restored="1"]');
      assert.equal(await page.text(`${LAST} .msg.user`), 'Youwait for me');
      // What the store kept is replayed (once resumeRun has subscribed again), before the agent goes on.
      await page
        .waitFor(() => /^before the reload,\s*$/.test(document.querySelector('#transcript > li:last-child .body')?.textContent), null, { timeoutMs: 10_000, what: 'the stored delta' })
        .catch(async (err) => {
          throw new Error(`${err.message}: ${await page.read(LAST, (el) => el.innerText)}`);
        });
      assert.equal(await page.attribute(`${LAST} .msg.agent`, 'aria-busy'), 'true', 'still running: resumed live');
      release();
      await page.waitFor(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeoutMs: 30_000, what: 'the run to end' });
      assert.equal(await page.text(`${LAST} .body`), 'before the reload, after the reload.');
    } finally {
      release();
      await gated.stop();
    }
    assert.deepEqual((await page.problems()).slice(known), []);
  });

  test('a link proposing another relay does not change the saved list; the user adds it or not', { timeout: 60_000 }, async () => {
    const link = `${site.origin}/?relay=${encodeURIComponent(relayB.url)}&relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
    await page.goto(link);
    assert.equal(await unlock(page, 'another good passphrase'), '');
    await ready(page);
    const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('nostr-agents-demo:relays')));
    assert.deepEqual(await saved(), [relay.url]);
    assert.match(await page.text('#relay-proposal'), new RegExp(`proposes relays you do not use: ${relayB.url.replace(/[.]/g, '\\.')}\\.`));
    assert.ok(!sockets.some((u) => new URL(u).port === new URL(relayB.url).port), 'the proposed relay was not contacted');
    await page.click({ role: 'button', name: 'Ignore' });
    assert.equal(await page.visible('#relay-proposal'), false);
    assert.deepEqual(await saved(), [relay.url]);

    await page.goto(link);
    assert.equal(await unlock(page, 'another good passphrase'), '');
    await page.click({ role: 'button', name: 'Add them' });
    assert.deepEqual(await saved(), [relay.url, relayB.url]);
    await page.waitForSelector(`#relay-list li[data-relay="${relayB.url}"] .dot[data-state="open"]`);
    await page.click({ role: 'button', name: `Remove ${relayB.url}` });
    assert.deepEqual(await saved(), [relay.url]);
  });

  test('a key an older version kept in plain text is moved out of storage; a remembered key can be forgotten', { timeout: 60_000 }, async () => {
    const site3 = await startStaticServer({ port: 0 });
    const p = await engine.newPage();
    try {
      const sk = generateSecretKey();
      const hex = Buffer.from(sk).toString('hex');
      await p.goto(`${site3.origin}/web-demo/style.css`); // the origin, to plant the old entry
      await p.evaluate((k, v) => {
        localStorage.setItem(k, v);
        localStorage.setItem('nostr-agents-demo:relays', '[]');
      }, SK_KEY, hex);
      await p.goto(demoUrl(site3.origin));
      await p.waitForSelector('#identity-line code');
      assert.equal(await p.attribute('#identity-line code', 'title'), nip19.npubEncode(getPublicKey(sk)));
      assert.match(await p.text('#identity-line'), /kept unencrypted, now out of storage: remember or export it/);
      assert.ok(!(await storage(p)).includes(hex), 'the plain-text copy is gone');
      await remember(p);
      assert.deepEqual(toolsNip49.decrypt(JSON.parse(await storage(p)).local[NCRYPTSEC_KEY], PASS), sk);
      // Forget: the page asks first; said no, nothing changes; said yes, nothing is remembered (the
      // tab keeps its key until it closes).
      const forget = { role: 'button', name: 'Forget the remembered key' };
      await p.answerNextConfirm(false);
      await p.click(forget);
      assert.deepEqual(await p.confirmsAsked(), ['Forget the remembered key for good?']);
      assert.notEqual(JSON.parse(await storage(p)).local[NCRYPTSEC_KEY], undefined, 'not without a yes');
      await p.answerNextConfirm(true);
      await p.click(forget);
      assert.equal((await p.confirmsAsked()).length, 2);
      await p.waitFor((k) => localStorage.getItem(k) === null, NCRYPTSEC_KEY, { what: 'the remembered key to go' });
      await p.reload();
      await p.waitForSelector('#identity-line code');
      assert.notEqual(await p.attribute('#identity-line code', 'title'), nip19.npubEncode(getPublicKey(sk)), 'a new tab key');
      sk.fill(0);
    } finally {
      await p.close();
      await site3.close();
    }
  });
});
