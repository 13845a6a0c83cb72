#!/usr/bin/env node
// The demo's speed and size (issue 7, section 4), in headless Chromium against a local relay and
// the demo agent, for both ways the page is served:
//   - dev: `npm run demo`'s server (web-demo/ unbundled, importing dist/index.browser.js);
//   - built: `npm run build:demo`'s folder (one minified module + core.wasm), served by a plain
//     static server under a sub-path, as a host would.
// For each:
//   - bytes: every file one load fetches (JS, CSS, HTML, WASM), gzip -9 and brotli -11 per file,
//     with what they are made of;
//   - navigation to "ready to chat" (performance.mark('demo-ready')), median of 7 loads;
//   - first delta: from the agent's model handing its first token to serveAgent (Date.now() in
//     Node) to that text being in the page's DOM (Date.now() in a MutationObserver), median of 9.
// Then, apart from the page's load (neither is fetched or run by it):
//   - NIP-49, loaded only to remember or unlock a key: its two files' bytes, and the time to
//     remember (encrypt, log_n 16) and unlock (decrypt) in the built page;
//   - renderMarkdown on adversarial replies of 65,535 characters (a run of `[` took 3.2 s when the
//     renderer was a backtracking regex), next to an ordinary reply of the same length.
// Run: node web-demo/bench.mjs   (targets: 200 KB gz, 1 s, 100 ms)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { launchChromium } from '../tests/support/chromium.js';
import { startStaticServer as startPlainServer } from '../tests/support/static-server.js';
import { startRelay } from '../js/relay-server/index.js';
import { startDemoAgent } from './agent/agent.js';
import { createDemoModel } from './agent/model.js';
import { createTools } from './agent/tools.js';
import { startStaticServer } from './serve.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

// What a file is, for the breakdown.
function part(file) {
  if (file.endsWith('.wasm')) return 'WASM core';
  if (/\/dist\/core\.mjs$/.test(file)) return 'Emscripten loader';
  if (/\/(dist|js)\//.test(file)) return 'package JS';
  if (/\.(html|css)$/.test(file)) return 'HTML + CSS';
  if (/\/app\.js$/.test(file) && !file.includes('/web-demo/')) return 'page + package + loader, one module';
  return 'page JS (web-demo/)';
}

const relay = await startRelay({ port: 0, memory: true });
let firstTokenAt = [];
const base = createDemoModel({ tools: createTools(), tokenDelay: 0 });
const model = {
  name: base.name,
  async *generate(ctx) {
    let first = true;
    for await (const x of base.generate(ctx)) {
      if (first && typeof x === 'string') {
        first = false;
        firstTokenAt.push(Date.now());
      }
      yield x;
    }
  },
};
const agent = await startDemoAgent({ relays: [relay.url], model, env: {} });
const dev = await startStaticServer({ port: 0 });
const tmp = mkdtempSync(path.join(tmpdir(), 'demo-bench-'));
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-demo.mjs'), '--out', path.join(tmp, 'demo'), '--quiet']);
const built = await startPlainServer(tmp);
const browser = await launchChromium();
const query = `?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;

async function measure(name, origin, pagePath, fileOf) {
  const url = `${origin}${pagePath}${query}`;
  const page = await browser.context.newPage();
  const files = new Set();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === origin) files.add(u.pathname);
  });
  await page.goto(url);
  // A first visit: the link's relay is proposed, and accepted here.
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.waitForSelector('body[data-ready="true"]');
  const parts = new Map();
  const total = { raw: 0, gz: 0, br: 0 };
  for (const requested of files) {
    const f = requested.endsWith('/') ? `${requested}index.html` : requested;
    const body = readFileSync(fileOf(f));
    const size = {
      raw: body.length,
      gz: gzipSync(body, { level: 9 }).length,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
    const p = parts.get(part(f)) ?? { files: 0, raw: 0, gz: 0, br: 0 };
    p.files++;
    for (const k of ['raw', 'gz', 'br']) {
      p[k] += size[k];
      total[k] += size[k];
    }
    parts.set(part(f), p);
  }

  const readies = [];
  for (let i = 0; i < 7; i++) {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    readies.push(await page.evaluate(() => performance.getEntriesByName('demo-ready')[0].startTime));
  }

  const lags = [];
  for (let i = 0; i < 9; i++) {
    firstTokenAt = [];
    await page.evaluate(() => {
      window.__firstSeen = null;
      const n = document.querySelectorAll('#transcript > li').length;
      const obs = new MutationObserver(() => {
        const turns = document.querySelectorAll('#transcript > li');
        if (turns.length > n && turns[turns.length - 1].querySelector('.body').textContent.length > 0) {
          window.__firstSeen = Date.now();
          obs.disconnect();
        }
      });
      obs.observe(document.getElementById('transcript'), { childList: true, subtree: true, characterData: true });
    });
    await page.getByLabel('Message', { exact: true }).fill(`hello ${i}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#transcript > li:last-child .msg.agent')?.getAttribute('aria-busy') === 'false');
    lags.push((await page.evaluate(() => window.__firstSeen)) - firstTokenAt[0]);
  }
  console.log(`\n${name}`);
  console.log(`  page bytes (${files.size} files): ${kb(total.raw)} raw, ${kb(total.gz)} gzip -9, ${kb(total.br)} brotli -11 (target <= 200 KB gz)`);
  for (const [p, s] of [...parts].sort((a, b) => b[1].gz - a[1].gz))
    console.log(`    ${p} (${s.files} file${s.files > 1 ? 's' : ''}): ${kb(s.raw)} raw, ${kb(s.gz)} gz, ${kb(s.br)} br`);
  console.log(`  navigation -> ready to chat: median ${median(readies).toFixed(0)} ms of ${readies.map((x) => x.toFixed(0)).join(', ')} (target <= 1000 ms)`);
  console.log(`  agent's first token -> on screen: median ${median(lags)} ms of ${lags.join(', ')} (target <= 100 ms)`);
  return page;
}

/** NIP-49 in the built page: the lazy files' bytes, and remembering and unlocking a key. */
async function measureNip49(page, dir) {
  const sizes = ['nip49.js', 'nip49.wasm'].map((f) => {
    const body = readFileSync(path.join(dir, f));
    return { f, raw: body.length, gz: gzipSync(body, { level: 9 }).length };
  });
  const timed = async (fn) => {
    const t = Date.now();
    await fn();
    return Date.now() - t;
  };
  const remembers = [];
  const unlocks = [];
  for (let i = 0; i < 3; i++) {
    remembers.push(
      await timed(async () => {
        await page.getByLabel('Passphrase to remember this key with (NIP-49)').fill('a bench passphrase');
        await page.getByLabel('The same passphrase again').fill('a bench passphrase');
        await page.getByRole('button', { name: 'Remember this key' }).click();
        await page.waitForFunction(() => /remembered in this browser/.test(document.getElementById('identity-line').textContent), null, { timeout: 60_000 });
      }),
    );
    await page.reload();
    await page.getByLabel('Passphrase of the remembered key').fill('a bench passphrase');
    unlocks.push(
      await timed(async () => {
        await page.getByRole('button', { name: 'Unlock' }).click();
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      }),
    );
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Forget the remembered key' }).click();
  }
  console.log('\nNIP-49, loaded only to remember or unlock a key (not part of the page bytes above)');
  for (const s of sizes) console.log(`  ${s.f}: ${kb(s.raw)} raw, ${kb(s.gz)} gz`);
  console.log(`  total: ${kb(sizes[0].gz + sizes[1].gz)} gz`);
  console.log(`  remember (fetch + scrypt log_n 16 + encrypt): median ${median(remembers)} ms of ${remembers.join(', ')}`);
  console.log(`  unlock (fetch + scrypt log_n 16 + decrypt, to ready): median ${median(unlocks)} ms of ${unlocks.join(', ')}`);
}

/** renderMarkdown in the dev page on adversarial lines, median of 5 each. */
async function measureMarkdown(page) {
  const rows = await page.evaluate(async () => {
    const { renderMarkdown } = await import('/web-demo/markdown.js');
    const n = 65535;
    const inputs = {
      "'['.repeat(65535)": '['.repeat(n),
      "'[a]('.repeat(16384)": '[a]('.repeat(16384),
      "'*'.repeat(65535)": '*'.repeat(n),
      "'**a'.repeat(21845)": '**a'.repeat(21845),
      "'_a '.repeat(21845)": '_a '.repeat(21845),
      'ordinary reply, 65,535 characters': 'Some **bold** text, a [link](https://example.com) and `code`. '.repeat(1100).slice(0, n),
    };
    const out = [];
    for (const [name, text] of Object.entries(inputs)) {
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        document.createElement('div').append(renderMarkdown(text));
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      out.push([name, times[2]]);
    }
    return out;
  });
  console.log('\nrenderMarkdown, 65,535 characters (median of 5; was 3,200 ms for a run of [ with the regex renderer)');
  for (const [name, ms] of rows) console.log(`  ${name}: ${ms.toFixed(1)} ms`);
}

try {
  console.log(`Chromium ${browser.version}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  const devPage = await measure('dev page (npm run demo: web-demo/ + dist/index.browser.js, unbundled)', dev.origin, '/web-demo/', (f) => path.join(ROOT, f));
  await measureMarkdown(devPage);
  await devPage.close();
  const builtPage = await measure('built page (npm run build:demo, served from /demo/)', built.origin, '/demo/', (f) => path.join(tmp, f));
  await measureNip49(builtPage, path.join(tmp, 'demo'));
  await builtPage.close();
} finally {
  await browser.close();
  await agent.stop();
  await dev.close();
  await built.close();
  await relay.close();
  rmSync(tmp, { recursive: true, force: true });
}
