// A real NIP-07 signer extension (tests/extension/, Manifest V3) loaded into headless Debian
// Chromium the way users load one (--load-extension, --disable-extensions-except, --headless=new).
// Its service worker holds the key and runs every key operation on the package's own browser
// build. The demo logs in through it and chats with the demo agent; an AgxClient with a Nip07Signer
// runs an AGX task through it, and so does the demo's AGX panel; the page never holds the key; refusals reach the page as
// SIGNER_REJECTED; the package runs inside an extension page, and fails with INIT_FAILED without
// 'wasm-unsafe-eval'. Chromium only: extensions are engine-specific (loading, manifest keys, the
// service worker), unlike the other browser tests, which run in Chromium, Firefox ESR and WebKitGTK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../support/chromium.js';
import { assembleExtension, launchWithExtension } from '../support/extension.js';
import { MEMORY_PROBE, scanPageForSecret } from '../support/secret-scan.js';
import { startDevRelay } from '../support/relays.js';
import { startStaticServer as startFileServer } from '../support/static-server.js';
import { init, LocalSigner, generateSecretKey, getPublicKey, verifyEvent, nip19, nip59 } from 'nostr-agents';
import { startDemoAgent } from '../../web-demo/agent/agent.js';
import { startStaticServer as startDemoServer } from '../../web-demo/serve.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = path.join(ROOT, 'build/test-artifacts/extension');
const SK_KEY = 'nostr-agents-demo:sk';

let relay;
let agent;
let demo; // the demo's own static server
let files; // a plain static server over the repository, for tests/extension/test-page/
let ext; // launchWithExtension() result
let extDir;
let sk; // the extension's key, imported through its options page
let pubkey;
const problems = [];
const dirs = [];

function watch(p) {
  p.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${p.url()} console.${msg.type()}: ${msg.text()}`);
  });
  p.on('pageerror', (err) => problems.push(`${p.url()} pageerror: ${err.stack || err.message}`));
  p.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return p;
}

const demoUrl = (origin) => `${origin}/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
// The page's ready state. A link's ?relay= only proposes relays: on a first visit the page asks
// first (nothing is contacted before), and the test accepts the proposed relay as a user would.
async function ready(p) {
  const isReady = p.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  const connect = p.locator('#relay-choice').getByRole('button', { name: 'Connect' });
  const asked = connect.waitFor({ state: 'visible', timeout: 30_000 }).then(() => 'asked');
  isReady.catch(() => {});
  asked.catch(() => {});
  if ((await Promise.race([isReady.then(() => 'ready'), asked])) === 'asked') {
    await connect.click();
    await p.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  }
}
let statsPage; // an extension page kept open to read the worker's counters (chrome.storage.session)
const stats = () => statsPage.evaluate(async () => (await chrome.storage.session.get('stats')).stats ?? { requests: {}, approved: 0, refused: 0, failed: 0, prompts: 0 });

/** Sets the extension's confirmation mode through its options page, as a user would. */
async function setApproval(mode) {
  const o = watch(await ext.context.newPage());
  try {
    await o.goto(ext.url('options.html'));
    await ready(o);
    await o.getByLabel('Confirmation').selectOption(mode);
    await o.waitForFunction((m) => document.body.dataset.ready === 'true' && document.getElementById('approval').value === m, mode);
  } finally {
    await o.close();
  }
}

async function chat(p, text) {
  const before = await p.locator('#transcript > li').count();
  await p.getByLabel('Message', { exact: true }).fill(text);
  await p.getByRole('button', { name: 'Send', exact: true }).click();
  await p.waitForFunction((n) => document.querySelectorAll('#transcript > li').length > n, before);
  await p.waitForFunction(() => document.querySelector('#transcript > li:last-child .msg.agent')?.getAttribute('aria-busy') === 'false', null, { timeout: 30_000 });
  return p.locator('#transcript > li').last();
}

/** A page on the plain server with the package loaded (window.pkg) and the extension's window.nostr. */
async function testPage() {
  const p = watch(await ext.context.newPage());
  await p.goto(`${files.origin}/tests/extension/test-page/index.html`);
  await ready(p);
  return p;
}

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  await init();
  relay = await startDevRelay({ memory: true });
  extDir = assembleExtension();
  dirs.push(extDir);
  [agent, demo, files, ext] = await Promise.all([
    startDemoAgent({ relays: [relay.url], tokenDelay: 5, env: {} }),
    startDemoServer({ port: 0 }),
    startFileServer(ROOT),
    launchWithExtension(extDir),
  ]);
  // The user's key goes into the extension through its options page; the tests keep a copy only to
  // look for it where it must not be.
  sk = generateSecretKey();
  pubkey = getPublicKey(sk);
  const o = watch(await ext.context.newPage());
  await o.goto(ext.url('options.html'));
  await ready(o);
  await o.getByLabel('Import a secret key (nsec or hex)').fill(nip19.nsecEncode(sk));
  await o.getByRole('button', { name: 'Import' }).click();
  await o.waitForFunction((pk) => document.getElementById('npub').dataset.pubkey === pk, pubkey);
  await o.close();
  await setApproval('auto');
  statsPage = watch(await ext.context.newPage());
  await statsPage.goto(ext.url('options.html'));
  await ready(statsPage);
});

after(async () => {
  await ext?.close();
  await agent?.stop();
  await demo?.close();
  await files?.close();
  await relay?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  sk?.fill(0);
});

test('the unpacked extension loads in new-headless Chromium and its worker runs the package', { timeout: 60_000 }, async (t) => {
  t.diagnostic(`Chromium ${ext.version} only: extensions are engine-specific; Firefox ESR and WebKitGTK run the other browser tests`);
  assert.match(ext.version, /^\d+\./);
  assert.match(ext.extensionId, /^[a-p]{32}$/);
  assert.equal(ext.worker.url(), ext.url('background.js'));
  const o = watch(await ext.context.newPage());
  await o.goto(ext.url('options.html'));
  await ready(o);
  assert.equal(await o.locator('#npub').textContent(), nip19.npubEncode(pubkey), 'the imported key is the one in use');
  assert.equal(await o.getByLabel('Confirmation').inputValue(), 'auto');
  // A bad key is refused and the old one stays.
  await o.getByLabel('Import a secret key (nsec or hex)').fill('nsec1notakey');
  await o.getByRole('button', { name: 'Import' }).click();
  await o.locator('#key-error').filter({ hasText: 'not a valid secret key' }).waitFor();
  await ready(o);
  assert.equal(await o.locator('#npub').textContent(), nip19.npubEncode(pubkey));
  await o.close();
  // Pages get window.nostr from the content script, with NIP-44 and no NIP-04.
  const p = await testPage();
  const shape = await p.evaluate(() => ({
    methods: Object.keys(window.nostr).sort(),
    nip44: Object.keys(window.nostr.nip44).sort(),
    frozen: Object.isFrozen(window.nostr),
  }));
  assert.deepEqual(shape, { methods: ['getPublicKey', 'nip44', 'signEvent'], nip44: ['decrypt', 'encrypt'], frozen: true });
  assert.equal(await p.evaluate(() => window.nostr.getPublicKey()), pubkey);
  await p.close();
  assert.deepEqual(problems, []);
});

test('the package runs inside an extension page: keys, signatures, NIP-44 and NIP-59 check out in Node', { timeout: 60_000 }, async () => {
  const peerSk = generateSecretKey();
  const peer = new LocalSigner(peerSk);
  const p = watch(await ext.context.newPage());
  try {
    await p.goto(ext.url(`selftest.html?peer=${peer.publicKey}`));
    await p.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
    const r = await p.evaluate(() => window.__result);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.verified, true);
    assert.equal(r.tamperedVerified, false);
    assert.equal(r.roundTrip, 'round trip');
    assert.equal(r.badDecrypt, 'NIP44_INVALID_MAC');
    assert.equal(nip19.npubEncode(r.pubkey), r.npub);
    // Everything it made holds up outside the extension.
    assert.equal(verifyEvent(r.event), true);
    assert.equal(r.event.pubkey, r.pubkey);
    assert.equal(await peer.nip44Decrypt(r.pubkey, r.toPeer), 'hello from the extension page');
    const rumor = await nip59.unwrapEvent(r.wrap, peer);
    assert.equal(rumor.content, 'a sealed note');
    assert.equal(rumor.pubkey, r.pubkey);
  } finally {
    await p.close();
    peer.dispose();
    peerSk.fill(0);
  }
  assert.deepEqual(problems, []);
});

test("without 'wasm-unsafe-eval' (Chromium's default MV3 policy included) the core cannot start: INIT_FAILED", { timeout: 90_000 }, async () => {
  for (const csp of [null, "script-src 'self'; object-src 'self'"]) {
    const dir = assembleExtension({ csp });
    dirs.push(dir);
    const b = await launchWithExtension(dir);
    try {
      const p = await b.context.newPage();
      await p.goto(b.url('selftest.html?peer=' + '11'.repeat(32)));
      await p.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
      const r = await p.evaluate(() => window.__result);
      assert.equal(r.ok, false, `CSP ${csp}`);
      assert.equal(r.code, 'INIT_FAILED');
      assert.match(r.message, /Content Security Policy/);
      // The worker cannot start it either; its options page says so instead of hanging.
      const o = await b.context.newPage();
      await o.goto(b.url('options.html'));
      await o.waitForSelector('body[data-ready="true"]');
      assert.match(await o.evaluate(() => document.body.dataset.error ?? ''), /INIT_FAILED/);
    } finally {
      await b.close();
    }
  }
});

test('the demo logs in with the extension and chats with the demo agent through it', { timeout: 90_000 }, async () => {
  const before = await stats();
  const page = watch(await ext.context.newPage());
  await page.goto(demoUrl(demo.origin));
  const login = page.getByRole('button', { name: 'Log in with extension' });
  await login.waitFor();
  await login.click();
  await ready(page);
  assert.match(await page.locator('#identity-line').textContent(), /NIP-07 extension/);
  assert.equal(await page.locator('#identity-line code').getAttribute('title'), nip19.npubEncode(pubkey));
  const turn = await chat(page, 'calculate 20 + 22');
  assert.match(await turn.locator('.body').textContent(), /= 42$/);
  assert.equal(await turn.locator('.run-status').getAttribute('data-state'), 'done');
  const after = await stats();
  const used = (m) => (after.requests[m]?.approved ?? 0) - (before.requests[m]?.approved ?? 0);
  assert.ok(used('getPublicKey') >= 1 && used('signEvent') >= 1 && used('nip44.encrypt') >= 1 && used('nip44.decrypt') >= 3, JSON.stringify(after));
  assert.equal(after.failed, before.failed);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), SK_KEY), null, 'no local key was made');
  await page.screenshot({ path: path.join(SHOTS, 'demo-chat.png'), fullPage: true });
  await page.close();
  assert.deepEqual(problems, []);
});

test('an AGX task runs through the extension: AgxClient with a Nip07Signer in a web page', { timeout: 120_000 }, async () => {
  const p = await testPage();
  const before = await stats();
  const out = await p.evaluate(
    async ({ relayUrl, agentNpub }) => {
      const { RelayPool, Nip07Signer, agx } = window.pkg;
      const pool = new RelayPool({ relays: [relayUrl] });
      const client = new agx.AgxClient({ signer: new Nip07Signer(), pool, authorize: () => false }); // sends only
      try {
        await client.start();
        return { output: await client.request(agentNpub, 'math.eval', { expression: '6 * (3 + 4)' }, { timeout: 60_000 }) };
      } catch (err) {
        return { error: `${err.code} ${err.message}` };
      } finally {
        await client.stop();
        pool.close();
      }
    },
    { relayUrl: relay.url, agentNpub: agent.npub },
  );
  assert.equal(out.output?.result, '42', JSON.stringify(out));
  const after = await stats();
  const used = (m) => (after.requests[m]?.approved ?? 0) - (before.requests[m]?.approved ?? 0);
  // The seal is signed and sealed by the extension, and both layers of the result opened by it.
  assert.ok(used('signEvent') >= 1 && used('nip44.encrypt') >= 1 && used('nip44.decrypt') >= 2, JSON.stringify(after));
  assert.equal(after.failed, before.failed);
  await p.close();
  assert.deepEqual(problems, []);
});

test("the demo's AGX panel completes a task while logged in with the extension; the page never holds the key", { timeout: 120_000 }, async () => {
  const page = watch(await ext.context.newPage());
  await page.addInitScript(MEMORY_PROBE);
  await page.goto(demoUrl(demo.origin));
  await ready(page); // the remembered choice logs in through the extension again
  assert.match(await page.locator('#identity-line').textContent(), /NIP-07 extension/);
  await page.getByRole('button', { name: 'Look up card' }).click();
  await page.locator('#card-view dl').waitFor();
  await page.getByLabel('Capability').fill('math.eval');
  await page.getByLabel('Payload (JSON)').fill('{"expression": "6 * (3 + 4)"}');
  await page.getByRole('button', { name: 'Send task' }).click();
  await page.locator('#task-log li[data-kind="result"]').waitFor({ timeout: 90_000 });
  assert.match(await page.locator('#task-log li[data-kind="result"]').textContent(), /"result": "42"/);
  await page.screenshot({ path: path.join(SHOTS, 'demo-agx.png'), fullPage: true });

  // After a chat and a task the key is nowhere in the page: not in any heap string, buffer or WASM
  // memory, nor in its storage.
  const scan = await scanPageForSecret(page, sk, { nsec: nip19.nsecEncode(sk) });
  assert.deepEqual(scan.heapStrings, [], 'no heap string holds the key');
  assert.equal(scan.buffers, 0, 'no ArrayBuffer or WASM memory holds the key');
  assert.deepEqual(scan.storage, []);
  assert.ok(scan.scanned.memories >= 1, `the page's WASM memory was scanned: ${JSON.stringify(scan.scanned)}`);
  await page.close();

  // The same scan finds a key where one is: the demo with a local key, on another origin.
  const site2 = await startDemoServer({ port: 0 });
  const local = watch(await ext.context.newPage());
  try {
    await local.addInitScript(MEMORY_PROBE);
    await local.goto(demoUrl(site2.origin));
    await local.getByRole('button', { name: 'Use a key for this tab' }).click();
    await ready(local);
    // The tab key is stored nowhere; the page hands it out only through Export.
    await local.getByRole('button', { name: 'Export key' }).click();
    const nsec = await local.getByLabel('Your secret key (keep it private)').inputValue();
    await local.getByRole('button', { name: 'Export key' }).click(); // close the box
    const localSk = nip19.decode(nsec).data;
    const hex = Buffer.from(localSk).toString('hex');
    const control = await scanPageForSecret(local, localSk, { nsec });
    assert.ok(control.buffers >= 1, `the local key is in the page's WASM memory: ${JSON.stringify(control)}`);
    assert.deepEqual(control.storage, [], 'a key for the tab is not stored');
    assert.ok(!control.heapStrings.includes('HEX'), JSON.stringify(control.heapStrings));
    // A string kept only in a closure is found too.
    await local.evaluate((h) => {
      const kept = h.toUpperCase();
      window.addEventListener('nothing-ever', () => kept.length);
    }, hex);
    assert.ok((await scanPageForSecret(local, localSk, { nsec })).heapStrings.includes('HEX'));
    localSk.fill(0);
  } finally {
    await local.close();
    await site2.close();
  }
  assert.deepEqual(problems, []);
});

// The demo's panel still sends tasks from a one-time LocalSigner when logged in with an extension
// (web-demo/app.js agxAgent(), from when AGX needed a LocalSigner); AgxClient now takes any Signer.
// Passes once the page passes state.identity.signer for NIP-07 too.
test("the demo's AGX panel signs its tasks with the extension's key", { timeout: 120_000 }, async () => {
  const page = watch(await ext.context.newPage());
  try {
    await page.goto(demoUrl(demo.origin));
    await ready(page);
    const before = await stats();
    await page.getByLabel('Agent npub').fill(agent.npub);
    await page.getByLabel('Capability').fill('math.eval');
    await page.getByLabel('Payload (JSON)').fill('{"expression": "2 * 21"}');
    await page.getByRole('button', { name: 'Send task' }).click();
    await page.locator('#task-log li[data-kind="result"]').waitFor({ timeout: 90_000 });
    assert.match(await page.locator('#task-log li[data-kind="result"]').textContent(), /"result": "42"/);
    const after = await stats();
    const used = (m) => (after.requests[m]?.approved ?? 0) - (before.requests[m]?.approved ?? 0);
    assert.ok(used('signEvent') >= 1 && used('nip44.encrypt') >= 1 && used('nip44.decrypt') >= 2, JSON.stringify(after));
  } finally {
    await page.close();
  }
});

test('a refusal reaches the page as SIGNER_REJECTED, and the demo says the extension refused', { timeout: 60_000 }, async () => {
  await setApproval('deny');
  const before = await stats();
  try {
    const p = await testPage();
    const out = await p.evaluate(async () => {
      const signer = new window.pkg.Nip07Signer();
      const codes = {};
      for (const [name, call] of [
        ['getPublicKey', () => signer.getPublicKey()],
        ['signEvent', () => signer.signEvent({ kind: 1, created_at: 1_700_000_000, tags: [], content: 'no' })],
        ['nip44Encrypt', () => signer.nip44Encrypt('11'.repeat(32), 'no')],
        ['nip44Decrypt', () => signer.nip44Decrypt('11'.repeat(32), 'AAAA')],
      ]) {
        try {
          await call();
          codes[name] = 'resolved';
        } catch (err) {
          codes[name] = `${err.name} ${err.code} ${err.message}`;
        }
      }
      return codes;
    });
    for (const [name, text] of Object.entries(out)) assert.match(text, /^NostrError SIGNER_REJECTED .*the user refused/, name);
    await p.close();
    // The demo, on an origin that never logged in: its button shows the refusal.
    const site3 = await startDemoServer({ port: 0 });
    const page = watch(await ext.context.newPage());
    try {
      await page.goto(demoUrl(site3.origin));
      await page.getByRole('button', { name: 'Log in with extension' }).click();
      await page.locator('#identity-line').filter({ hasText: 'The extension refused: SIGNER_REJECTED' }).waitFor();
      assert.equal(await page.evaluate(() => document.body.dataset.ready), 'false');
    } finally {
      await page.close();
      await site3.close();
    }
    const after = await stats();
    assert.equal(after.refused - before.refused, 5);
    assert.equal(after.approved, before.approved, 'nothing was approved');
  } finally {
    await setApproval('auto');
  }
  assert.deepEqual(problems, []);
});

test('asking mode: a confirmation window per request; Approve answers, Deny and closing it refuse', { timeout: 90_000 }, async () => {
  await setApproval('ask');
  try {
    const p = await testPage();
    const prompt = () => ext.context.waitForEvent('page', { predicate: (pg) => pg.url().startsWith(ext.url('prompt.html')), timeout: 15_000 });
    // The window closes itself on an answer, possibly before Playwright's click returns.
    const press = (win, name) => win.getByRole('button', { name }).click().catch((err) => {
      if (!win.isClosed()) throw err;
    });

    let next = prompt();
    const pk = p.evaluate(() => new window.pkg.Nip07Signer().getPublicKey());
    let win = await next;
    await win.locator('#approve:not([disabled])').waitFor();
    assert.equal(await win.locator('#what').textContent(), `${files.origin} asks to read your public key.`);
    await press(win, 'Approve');
    assert.equal(await pk, pubkey);

    next = prompt();
    const signed = p.evaluate(() =>
      new window.pkg.Nip07Signer().signEvent({ kind: 1, created_at: 1_700_000_000, tags: [], content: 'sign me?' }).then(
        () => 'resolved',
        (err) => err.code,
      ),
    );
    win = await next;
    await win.locator('#approve:not([disabled])').waitFor();
    assert.match(await win.locator('#detail').textContent(), /kind: 1\ncontent: sign me\?/);
    await press(win, 'Deny');
    assert.equal(await signed, 'SIGNER_REJECTED');

    next = prompt();
    const closed = p.evaluate(() => window.nostr.nip44.encrypt('11'.repeat(32), 'x').then(() => 'resolved', (err) => err.message));
    win = await next;
    await win.locator('#deny:not([disabled])').waitFor();
    await win.close();
    assert.equal(await closed, 'the user refused nip44.encrypt');
    await p.close();
  } finally {
    await setApproval('auto');
  }
  assert.deepEqual(problems, []);
});

test('bad input through window.nostr gets an error, never a crash; the extension keeps working', { timeout: 60_000 }, async () => {
  const p = await testPage();
  const out = await p.evaluate(async () => {
    const n = window.nostr;
    const tryIt = (f) => f().then((v) => ['resolved', v], (err) => ['rejected', err.message]);
    return {
      notObject: await tryIt(() => n.signEvent(null)),
      badKind: await tryIt(() => n.signEvent({ kind: 'one', created_at: 1, tags: [], content: '' })),
      badTags: await tryIt(() => n.signEvent({ kind: 1, created_at: 1, tags: 'x', content: '' })),
      badPeer: await tryIt(() => n.nip44.encrypt('not a key', 'x')),
      badPayload: await tryIt(() => n.nip44.decrypt('11'.repeat(32), '%%%')),
      // A forged message straight to the bridge, for a method that does not exist.
      forged: await new Promise((resolve) => {
        const onMsg = (ev) => {
          if (ev.data?.['nostr-agents-test-signer'] === 'response' && ev.data.id === 'forged') {
            window.removeEventListener('message', onMsg);
            resolve(['rejected', ev.data.error]);
          }
        };
        window.addEventListener('message', onMsg);
        window.postMessage({ 'nostr-agents-test-signer': 'request', id: 'forged', method: 'getSecretKey', params: [] }, location.origin);
      }),
      // The page cannot replace window.nostr's methods.
      frozen: (() => {
        try {
          window.nostr.getPublicKey = () => 'x';
        } catch {}
        return window.nostr.getPublicKey.toString().includes('call(');
      })(),
      after: await n.getPublicKey(),
    };
  });
  assert.deepEqual(out.notObject, ['rejected', 'INVALID_EVENT: the event must be an object']);
  for (const k of ['badKind', 'badTags', 'badPeer', 'badPayload']) {
    assert.equal(out[k][0], 'rejected', k);
    assert.match(out[k][1], /^[A-Z_]+: /, `${k}: a NostrError code: ${out[k][1]}`);
  }
  assert.deepEqual(out.forged, ['rejected', 'not a NIP-07 method this signer offers: getSecretKey']);
  assert.equal(out.frozen, true);
  assert.equal(out.after, pubkey);
  // A signature the page asks for is made with the extension's key and checks out here.
  const event = await p.evaluate(() => window.nostr.signEvent({ kind: 1, created_at: 1_700_000_000, tags: [['t', 'x']], content: 'ok', pubkey: '00'.repeat(32) }));
  assert.equal(verifyEvent(event), true);
  assert.equal(event.pubkey, pubkey, 'the page cannot choose the pubkey');
  await p.close();
  assert.deepEqual(problems, []);
});
