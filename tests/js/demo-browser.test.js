// The demo page in browser engines (Chromium, Firefox ESR; WebKitGTK pending, see the end; ../support/engines.js)
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
import { init, LocalSigner, nip44, getPublicKey, finalizeEvent, generateSecretKey } from 'nostr-agents';
import { startDemoAgent } from '../../web-demo/agent/agent.js';
import { startStaticServer } from '../../web-demo/serve.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SK_KEY = 'nostr-agents-demo:sk';
const LAST = '#transcript > li:last-child'; // the latest turn
const MESSAGE = { label: 'Message', exact: true };
const SEND = { role: 'button', name: 'Send', exact: true };

before(() => init());

forEachEngine((engine) => {
  const shots = path.join(ROOT, 'build/test-artifacts/demo', engine.id);
  let relay;
  let agent;
  let site;
  let page;

  const demoUrl = (origin) => `${origin}/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
  const shot = (p, name) => p.screenshot(path.join(shots, `${name}.png`));
  const ready = (p) => p.waitForSelector('body[data-ready="true"]', { timeoutMs: 30_000 });

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
    [agent, site] = await Promise.all([startDemoAgent({ relays: [relay.url], tokenDelay: 15, env: {} }), startStaticServer({ port: 0 })]);
    page = await engine.newPage();
  });

  after(async () => {
    await page?.close();
    await agent?.stop();
    await site?.close();
    await relay?.close();
  });

  test('the page loads, makes a local key, finds the agent and streams a reply', { timeout: 60_000 }, async () => {
    await page.goto(demoUrl(site.origin));
    await ready(page);
    const sk = await page.evaluate((k) => localStorage.getItem(k), SK_KEY);
    assert.match(sk, /^[0-9a-f]{64}$/, 'a local key is kept in the browser');
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
    await page.click({ role: 'button', name: 'Look up card' });
    await page.waitForTarget('#card-view dl');
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

  test('a reload keeps the local identity and restores the session and its runs', { timeout: 60_000 }, async () => {
    const identity = await page.attribute('#identity-line code', 'title');
    const sk = await page.evaluate((k) => localStorage.getItem(k), SK_KEY);
    const userTexts = () => page.readAll('#transcript .msg.user', (els) => els.map((e) => e.textContent));
    const messages = await userTexts();
    await page.reload();
    await ready(page);
    await page.waitForSelector('body[data-restored]'); // the runs are replayed from IndexedDB
    assert.equal(await page.attribute('#identity-line code', 'title'), identity);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), sk);
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
      assert.match(await page.text(`${LAST} .body`), /= 42$/);
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
      await page.reload();
      await ready(page);
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
    await page.reload();
    await ready(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const wide = overflow > 0 ? await page.evaluate(() => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > innerWidth).slice(0, 8).map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} right=${Math.round(el.getBoundingClientRect().right)}`)) : [];
    assert.ok(overflow <= 0, `page wider than the screen by ${overflow} px: ${wide.join(', ')}`);
    await page.type(MESSAGE, 'calculate 1+1');
    await page.press(MESSAGE, 'Enter'); // Enter sends
    await page.waitFor(() => document.querySelector('#transcript > li:last-child .run-status')?.dataset.state === 'done', null, { timeoutMs: 30_000, what: 'the run to end' });
    assert.match(await page.text(`${LAST} .body`), /= 2$/);
    await shot(page, 'phone');
    assert.deepEqual(await page.problems(), []);
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

  test('the local key exports as nsec and imports back; a bad key is refused', { timeout: 60_000 }, async () => {
    const { nip19 } = await import('nostr-agents');
    await page.click({ role: 'button', name: 'Export key' });
    const nsec = await page.value({ label: 'Your secret key (keep it private)' });
    const stored = await page.evaluate((k) => localStorage.getItem(k), SK_KEY);
    assert.equal(Buffer.from(nip19.decode(nsec).data).toString('hex'), stored);

    const importField = { label: 'Import a key (nsec or hex)' };
    const importButton = { role: 'button', name: 'Import', exact: true };
    await page.fill(importField, 'nsec1notakey');
    await page.click(importButton);
    assert.match(await page.text('#import-error'), /Not a valid key/);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), stored, 'unchanged');

    const sk = generateSecretKey();
    await page.fill(importField, nip19.nsecEncode(sk));
    await page.click(importButton);
    await ready(page);
    assert.equal(await page.attribute('#identity-line code', 'title'), nip19.npubEncode(getPublicKey(sk)));
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), Buffer.from(sk).toString('hex'));
    assert.equal(await page.value(importField), '', 'the field is cleared');
    await chat(page, 'calculate 5*5');
    assert.match(await page.text(`${LAST} .body`), /= 25$/);
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
}, {
  // Open (engines branch, 2026-12-02): in WebKitGTK 2.50 the page is 10 px wider than a 447 px
  // window, and the NIP-07 test (window.nostr bridged through the WebDriver proxy) times out.
  pending: { webkit: 'WebKitGTK: phone-width overflow and the NIP-07 bridge are open (see the comment here)' },
});
