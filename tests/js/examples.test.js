// Every example under examples/ runs as a user would run it: the Node ones as child processes
// against our dev relay, the pages in headless Chromium, served next to a node_modules/nostr-agents
// that is this package (the import map of each page points there), the NIP-07 page with an
// injected window.nostr whose key lives in this process.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, generateSecretKey, getPublicKey, finalizeEvent, verifyEvent, LocalSigner, RelayPool, nip19, prompt } from 'nostr-agents';
import { useBrowserSite } from '../support/browser-site.js';
import { runPage } from '../support/chromium.js';
import { tempDir } from '../support/package.js';
import { startStaticServer } from '../support/static-server.js';
import { startDevRelay, startThirdPartyRelay } from '../support/relays.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = path.join(ROOT, 'examples');

/**
 * Runs `node examples/<file>` with `env` added. `line(re)` resolves with the first stdout or stderr
 * line matching `re`; `exit` resolves with { code, signal, stdout, stderr }.
 */
function runExample(file, env = {}, args = []) {
  const child = spawn(process.execPath, [path.join(EXAMPLES, file), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const waiters = [];
  const feed = (stream) => (chunk) => {
    out[stream] += chunk;
    for (const w of waiters.slice()) {
      const m = w.re.exec(out.stdout + '\n' + out.stderr);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', feed('stdout'));
  child.stderr.setEncoding('utf8').on('data', feed('stderr'));
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, ...out })));
  exit.then((r) => {
    for (const w of waiters.splice(0)) w.reject(new Error(`${file} exited (${r.code ?? r.signal}) before printing ${w.re}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`));
  });
  return {
    child,
    exit,
    line(re) {
      const m = re.exec(out.stdout + '\n' + out.stderr);
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => waiters.push({ re, resolve, reject }));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exit;
    },
  };
}

// Every file of examples/, and the test that runs it (a new example needs a test here).
const COVERED = {
  'quickstart.mjs': 'examples/quickstart.mjs runs',
  'agent.mjs': 'examples/agent.mjs',
  'agx-responder.mjs': 'examples/agx-*.mjs',
  'agx-requester.mjs': 'examples/agx-*.mjs',
  'browser-chat.html': 'browser-chat.html chats',
  'browser-chat.js': 'browser-chat.html chats',
  'nip07.html': 'nip07.html signs',
  'nip07.js': 'nip07.html signs',
  'worker.html': 'worker.html, built by Vite',
  'worker-page.js': 'worker.html, built by Vite',
  'worker.js': 'worker.html, built by Vite',
  'feed.nostr-tools.mjs': 'feed.mjs, ported from feed.nostr-tools.mjs',
  'feed.mjs': 'feed.mjs, ported from feed.nostr-tools.mjs',
  'dm.nostr-tools.mjs': 'dm.mjs, ported from dm.nostr-tools.mjs',
  'dm.mjs': 'dm.mjs, ported from dm.nostr-tools.mjs',
};

// The nostr-tools programs and their ports (issue 22): the originals import nostr-tools, both
// import `ws` (nostr-tools needs it on Node 20), the ports `nostr-agents/ready`.
const PORTS = { 'feed.nostr-tools.mjs': 'feed.mjs', 'dm.nostr-tools.mjs': 'dm.mjs' };
const PORT_FILES = new Set([...Object.keys(PORTS), ...Object.values(PORTS)]);

test('every example is run by this file, and imports the package by its name only', () => {
  const files = readdirSync(EXAMPLES).sort();
  assert.deepEqual(files, Object.keys(COVERED).sort(), 'examples/ and the COVERED list of tests/js/examples.test.js differ');
  const self = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  for (const [file, title] of Object.entries(COVERED)) assert.ok(self.includes(`test('${title}`), `${file}: no test titled "${title}..."`);
  for (const file of files.filter((f) => /\.m?js$/.test(f))) {
    const source = readFileSync(path.join(EXAMPLES, file), 'utf8');
    const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/g)].map((m) => m[1] ?? m[2]);
    assert.ok(specifiers.length > 0 || /new Worker\(/.test(source), `${file} imports nothing`);
    const allowed = PORT_FILES.has(file) ? /^(nostr-agents\/ready|nostr-tools\/[a-z0-9]+|ws)$/ : /^(nostr-agents(\/[a-z-]+)?|node:[a-z/]+)$/;
    for (const spec of specifiers) assert.match(spec, allowed, `${file} imports ${spec}: examples import the package as a user would`);
  }
  // The pages that load the package without a bundler (worker.html's worker goes through one:
  // workers get no import map).
  for (const page of files.filter((f) => f.endsWith('.html') && f !== 'worker.html')) {
    const html = readFileSync(path.join(EXAMPLES, page), 'utf8');
    assert.match(html, /"nostr-agents": "\.\.\/node_modules\/nostr-agents\/dist\/index\.browser\.js"/, `${page}: the import map points at the installed package`);
  }
});

let relay;
before(async () => {
  await init();
  relay = await startDevRelay({ memory: true });
});
after(async () => {
  await relay?.close();
});

test('examples/quickstart.mjs runs and every step checks out', { timeout: 60_000 }, async () => {
  const r = await runExample('quickstart.mjs').exit;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /: verify -> true/);
  assert.match(r.stdout, /tampered copy: verify -> false/);
  assert.match(r.stdout, /bob decrypts: meet at noon/);
  assert.match(r.stdout, /bob unwraps: "a private hello" from alice/);
});

test('examples/agent.mjs: a Node agent answers a prompt through the relay and stops on SIGINT', { timeout: 60_000 }, async () => {
  const agent = runExample('agent.mjs', { NOSTR_RELAY: relay.url });
  const pool = new RelayPool({ relays: [relay.url] });
  const signer = LocalSigner.generate();
  try {
    const [, npub] = await agent.line(/agent (npub1[02-9ac-hj-np-z]+) listening on (\S+)/);
    const run = prompt({ pool, signer, agent: nip19.decode(npub).data, message: 'hello from a test' });
    const deltas = [];
    for await (const u of run) if (u.type === 'delta') deltas.push(u.text);
    const { text } = await run.result;
    assert.equal(text, 'You said: hello from a test');
    assert.ok(deltas.length >= 2, `streamed: ${JSON.stringify(deltas)}`);
    const r = await agent.stop();
    assert.equal(r.code, 0, `exit ${r.code ?? r.signal}: ${r.stderr}`);
  } finally {
    agent.child.kill('SIGKILL');
    pool.close();
    signer.dispose();
  }
});

test('examples/agx-*.mjs: the requester gets the responder\'s output; a peer it does not allow gets nothing', { timeout: 90_000 }, async () => {
  const allowedKey = generateSecretKey();
  const responder = runExample('agx-responder.mjs', { NOSTR_RELAY: relay.url, AGX_ALLOW: nip19.npubEncode(getPublicKey(allowedKey)) });
  try {
    const [, peer] = await responder.line(/responder (npub1[02-9ac-hj-np-z]+) listening/);
    const ok = await runExample('agx-requester.mjs', { NOSTR_RELAY: relay.url, AGX_PEER: peer, AGX_NSEC: nip19.nsecEncode(allowedKey) }, ['4200']).exit;
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout.trim()), { approved: true });
    await responder.line(/invoice\.review from npub1\S+: amount 4200/);

    // Another key: default-deny, so no reply at all, and the requester times out.
    const denied = await runExample('agx-requester.mjs', { NOSTR_RELAY: relay.url, AGX_PEER: peer, AGX_TIMEOUT: '3000' }).exit;
    assert.equal(denied.code, 1, denied.stdout);
    assert.match(denied.stderr, /AGX_TIMEOUT/);
    assert.equal(denied.stdout, '');
    const r = await responder.stop();
    assert.equal(r.code, 0, `exit ${r.code ?? r.signal}: ${r.stderr}`);
    assert.doesNotMatch(r.stdout, /amount undefined/);
  } finally {
    responder.child.kill('SIGKILL');
    allowedKey.fill(0);
  }
});

describe('the example pages in headless Chromium', () => {
  // A user's site: their pages next to node_modules/nostr-agents (here: this package's files).
  const pkg = 'node_modules/nostr-agents';
  const site = useBrowserSite({
    name: 'examples',
    links: { examples: 'examples', [`${pkg}/package.json`]: 'package.json', [`${pkg}/js`]: 'js', [`${pkg}/dist`]: 'dist' },
    relay: null,
  });
  const problems = [];

  const ready = (page) =>
    page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 }).catch((err) => {
      throw new Error(`${page.url()} never got ready: ${err.message}\n${problems.join('\n')}`);
    });
  const open = async (url) => {
    const page = await site.browser.context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.stack || err.message}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    if (url) await page.goto(url);
    return page;
  };

  test('browser-chat.html chats with examples/agent.mjs', { timeout: 90_000 }, async () => {
    const agent = runExample('agent.mjs', { NOSTR_RELAY: relay.url });
    try {
      const [, npub] = await agent.line(/agent (npub1[02-9ac-hj-np-z]+) listening/);
      const page = await open(`${site.server.origin}/examples/browser-chat.html?relay=${encodeURIComponent(relay.url)}&agent=${npub}`);
      await ready(page);
      for (const message of ['hi from the browser', 'and a second one']) {
        await page.getByLabel('Message').fill(message);
        await page.getByRole('button', { name: 'Send' }).click();
        await page.waitForFunction((n) => document.querySelectorAll('#log p[data-done]').length === n, message === 'hi from the browser' ? 1 : 2, { timeout: 30_000 });
      }
      const lines = await page.locator('#log p').allTextContents();
      assert.deepEqual(lines, [
        'you: hi from the browser',
        'agent: You said: hi from the browser',
        'you: and a second one',
        'agent: You said: and a second one',
      ]);
      await page.close();
      assert.equal((await agent.stop()).code, 0);
    } finally {
      agent.child.kill('SIGKILL');
    }
    assert.deepEqual(problems, [], JSON.stringify(site.server.requests.filter((q) => q.status >= 400)));
  });

  test('nip07.html signs and publishes through window.nostr; the page never holds a key', { timeout: 60_000 }, async () => {
    const sk = generateSecretKey();
    const pubkey = getPublicKey(sk);
    const signer = new LocalSigner(sk);
    const calls = { getPublicKey: 0, signEvent: 0, encrypt: 0, decrypt: 0 };
    const page = await open(null);
    // The extension, injected before the page's scripts: its key stays in this process.
    await page.exposeFunction('__extGetPublicKey', async () => (calls.getPublicKey++, pubkey));
    await page.exposeFunction('__extSign', async (t) => (calls.signEvent++, finalizeEvent(t, sk)));
    await page.exposeFunction('__extEncrypt', async (pk, text) => (calls.encrypt++, signer.nip44Encrypt(pk, text)));
    await page.exposeFunction('__extDecrypt', async (pk, payload) => (calls.decrypt++, signer.nip44Decrypt(pk, payload)));
    await page.addInitScript(() => {
      window.nostr = {
        getPublicKey: () => window.__extGetPublicKey(),
        signEvent: (t) => window.__extSign(t),
        nip44: { encrypt: (pk, t) => window.__extEncrypt(pk, t), decrypt: (pk, p) => window.__extDecrypt(pk, p) },
      };
    });
    const pool = new RelayPool({ relays: [relay.url] });
    try {
      await page.goto(`${site.server.origin}/examples/nip07.html?relay=${encodeURIComponent(relay.url)}`);
      await ready(page);
      await page.getByLabel('Note').fill('signed by the extension');
      await page.getByRole('button', { name: 'Sign with extension and publish' }).click();
      await page.waitForFunction(() => /NIP-44 to self|ERROR|SIGNER_/.test(document.querySelector('#out').textContent), null, { timeout: 30_000 });
      const out = await page.locator('#out').textContent();
      assert.match(out, new RegExp(`signed in as ${nip19.npubEncode(pubkey)}`));
      assert.match(out, /NIP-44 to self: ok/);
      const [, id] = /note ([0-9a-f]{64}): accepted/.exec(out) ?? [];
      assert.ok(id, out);
      const [stored] = await pool.query({ ids: [id] }, { maxWait: 5000 });
      assert.equal(stored?.pubkey, pubkey, 'the relay holds the note, signed with the extension\'s key');
      assert.equal(stored.content, 'signed by the extension');
      assert.deepEqual(calls, { getPublicKey: 1, signEvent: 1, encrypt: 1, decrypt: 1 });
      const pageText = await page.content();
      assert.ok(!pageText.includes(Buffer.from(sk).toString('hex')), 'no secret key in the page');
      await page.close();
    } finally {
      pool.close();
      signer.dispose();
      sk.fill(0);
    }
    assert.deepEqual(problems, []);
  });

  test('nip07.html without an extension says so instead of failing', { timeout: 60_000 }, async () => {
    const page = await open(`${site.server.origin}/examples/nip07.html?relay=${encodeURIComponent(relay.url)}`);
    await ready(page);
    await page.getByRole('button', { name: 'Sign with extension and publish' }).click();
    await page.waitForFunction(() => document.querySelector('#out').textContent.length > 0, null, { timeout: 10_000 });
    assert.equal(await page.locator('#out').textContent(), 'No NIP-07 extension found (window.nostr).\n');
    await page.close();
    assert.deepEqual(problems, []);
  });

  test('worker.html, built by Vite: a module worker with a ready handshake answers the message posted before ready too', { timeout: 90_000 }, async () => {
    // As an app would build it: Vite (workers as ES modules, for the worker's top-level await),
    // the package from node_modules, no copy step; the built site served as it is.
    const work = tempDir('worker');
    let server;
    try {
      const app = path.join(work.dir, 'app');
      mkdirSync(path.join(work.dir, 'node_modules'));
      symlinkSync(ROOT, path.join(work.dir, 'node_modules', 'nostr-agents'), 'dir');
      mkdirSync(app);
      for (const f of ['worker.html', 'worker-page.js', 'worker.js']) copyFileSync(path.join(EXAMPLES, f), path.join(app, f));
      const { build } = await import('vite');
      await build({ root: app, configFile: false, logLevel: 'error', worker: { format: 'es' }, build: { outDir: path.join(work.dir, 'out'), target: 'es2022', rollupOptions: { input: path.join(app, 'worker.html') } } });
      server = await startStaticServer(path.join(work.dir, 'out'));
      const r = await runPage(site.browser.context, `${server.origin}/worker.html`, { timeoutMs: 60_000 });
      assert.deepEqual(r.problems, []);
      assert.deepEqual(r.result.map((x) => [x.event.content, x.verified]), [['posted before ready', true], ['posted after ready', true]]);
      for (const x of r.result) assert.equal(verifyEvent({ ...x.event }), true, 'the worker signed an event nostr-agents in Node rejects');
      const wasm = server.requests.filter((q) => q.path.endsWith('.wasm'));
      assert.deepEqual(wasm.map((q) => [q.status, q.contentType]), [[200, 'application/wasm']], 'the worker fetched the .wasm Vite emitted');
    } finally {
      await server?.close();
      work.remove();
    }
  });
});

// --- The port: a nostr-tools program and the same program with its import lines changed.

/** The program without its import lines and its leading comment: what a port must not change. */
function body(file) {
  const lines = readFileSync(path.join(EXAMPLES, file), 'utf8').split('\n');
  let i = 0;
  while (i < lines.length && (lines[i].startsWith('//') || lines[i].startsWith('import '))) i++;
  return { imports: lines.filter((l) => l.startsWith('import ')), rest: lines.slice(i).join('\n') };
}

test('every port differs from its nostr-tools original in its import lines only', () => {
  for (const [original, port] of Object.entries(PORTS)) {
    const a = body(original);
    const b = body(port);
    assert.equal(b.rest, a.rest, `${port} and ${original} differ beyond their imports`);
    assert.ok(a.imports.some((l) => l.includes("'nostr-tools/")), `${original} imports nostr-tools`);
    assert.ok(b.imports.every((l) => !l.includes('nostr-tools')), `${port} imports no nostr-tools`);
  }
});

describe('ports from nostr-tools, run side by side on the same relays', () => {
  let third;
  before(async () => {
    third = await startThirdPartyRelay();
  });
  after(async () => {
    await third?.close();
  });

  test('feed.mjs, ported from feed.nostr-tools.mjs: the same profiles, pages and live notes', { timeout: 90_000 }, async () => {
    const relays = [relay.url, third.url];
    const pool = new RelayPool({ relays });
    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const base = Math.floor(Date.now() / 1000) - 1000;
    const sign = (sk, t) => finalizeEvent({ tags: [], ...t }, sk);
    try {
      const stored = [sign(alice, { kind: 0, content: JSON.stringify({ name: 'alice' }), created_at: base })];
      for (let i = 0; i < 7; i++) stored.push(sign(alice, { kind: 1, content: `alice ${i}`, created_at: base + 10 + Math.floor(i / 2) }));
      for (let i = 0; i < 3; i++) stored.push(sign(bob, { kind: 1, content: `bob ${i} "quoted" ✓`, created_at: base + 20 + i }));
      // Some notes on one relay only, the others on both: pages merge and dedupe them.
      for (const [i, e] of stored.entries()) {
        const out = await pool.publish(e, { relays: i % 3 === 0 ? relays : [relays[i % 2]] });
        assert.ok(out.every((r) => r.status === 'accepted'), JSON.stringify(out));
      }
      const env = { NOSTR_RELAYS: relays.join(','), FEED_PAGE: '3', FEED_LIVE: '2' };
      const npubs = [nip19.npubEncode(getPublicKey(alice)), nip19.npubEncode(getPublicKey(bob))];
      const runs = [runExample('feed.nostr-tools.mjs', env, npubs), runExample('feed.mjs', env, npubs)];
      try {
        await Promise.all(runs.map((r) => r.line(/^listening$/m)));
        for (const [sk, content] of [[bob, 'live one'], [alice, 'live two']]) {
          const out = await pool.publish(sign(sk, { kind: 1, content, created_at: Math.floor(Date.now() / 1000) }));
          assert.ok(out.every((r) => r.status === 'accepted'));
        }
        const [original, ported] = await Promise.all(runs.map((r) => r.exit));
        assert.equal(original.code, 0, original.stderr);
        assert.equal(ported.code, 0, ported.stderr);
        assert.equal(ported.stdout, original.stdout);
        assert.match(original.stdout, /^profile npub1\S+ alice$/m);
        assert.match(original.stdout, /^10 notes in [2-9] pages$/m);
        assert.equal((original.stdout.match(/^live /gm) ?? []).length, 2);
      } finally {
        for (const r of runs) r.child.kill('SIGKILL');
      }
    } finally {
      await pool.close();
    }
  });

  test('dm.mjs, ported from dm.nostr-tools.mjs: NIP-17 messages each side reads from the other', { timeout: 90_000 }, async () => {
    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const pool = new RelayPool({ relays: [relay.url] });
    // A program that does not exit on its own (a connection left open) fails here, named, instead
    // of running into the test's timeout.
    const finished = async (file, env, args) => {
      const run = runExample(file, env, args);
      const timer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
      const r = await run.exit.finally(() => clearTimeout(timer));
      assert.equal(r.code, 0, `${file} ${args[0]}: exit ${r.code ?? r.signal}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      return r.stdout;
    };
    try {
      // Bob reads DMs on the third-party relay only (NIP-17 kind 10050).
      const list = finalizeEvent({ kind: 10050, tags: [['relay', third.url]], content: '', created_at: Math.floor(Date.now() / 1000) }, bob);
      assert.equal((await pool.publish(list))[0].status, 'accepted');
      const as = (sk) => ({ NOSTR_NSEC: nip19.nsecEncode(sk), NOSTR_RELAYS: relay.url, DM_SUBJECT: 'port' });
      const to = nip19.npubEncode(getPublicKey(bob));
      // Alice sends once with each program: nostr-tools' wraps are read by ours and ours by nostr-tools.
      const sent = [];
      for (const [file, words] of [['dm.nostr-tools.mjs', ['hello', 'from', 'nostr-tools']], ['dm.mjs', ['hello', 'from', 'nostr-agents']]]) {
        sent.push(await finished(file, as(alice), [to, ...words]));
      }
      assert.equal(sent[1], sent[0]);
      assert.match(sent[0], /^sent to 1\/1 inbox relays, copy kept on 1\/1$/m);
      // Bob's inbox on the relay his kind 10050 names, Alice's copies on her own relay.
      const from = nip19.npubEncode(getPublicKey(alice));
      for (const [sk, relays] of [[bob, third.url], [alice, relay.url]]) {
        const env = { ...as(sk), NOSTR_RELAYS: relays };
        const [original, ported] = await Promise.all([finished('dm.nostr-tools.mjs', env, ['inbox']), finished('dm.mjs', env, ['inbox'])]);
        assert.equal(ported, original);
        assert.match(original, new RegExp(`^from ${from} \\[port\\]: hello from nostr-tools$`, 'm'));
        assert.match(original, new RegExp(`^from ${from} \\[port\\]: hello from nostr-agents$`, 'm'));
        assert.match(original, /^2 messages$/m);
      }
    } finally {
      await pool.close();
    }
  });
});
