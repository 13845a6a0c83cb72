#!/usr/bin/env node
// The demo's speed and size (issue 7, section 4), in headless Chromium against a local relay and
// the demo agent:
//   - bytes: every file the page loads (JS, CSS, HTML, WASM), gzip -9 per file;
//   - navigation to "ready to chat" (performance.mark('demo-ready')), median of 7 loads;
//   - first delta: from the agent's model handing its first token to serveAgent (Date.now() in
//     Node) to that text being in the page's DOM (Date.now() in a MutationObserver), median of 9.
// Run: node web-demo/bench.mjs   (targets: 200 KB gz, 1 s, 100 ms)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../tests/support/chromium.js';
import { startRelay } from '../js/relay-server/index.js';
import { startDemoAgent } from './agent/agent.js';
import { createDemoModel } from './agent/model.js';
import { createTools } from './agent/tools.js';
import { startStaticServer } from './serve.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
const site = await startStaticServer({ port: 0 });
const browser = await launchChromium();
const url = `${site.origin}/web-demo/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;

try {
  // Bytes: what one load fetches.
  const page = await browser.context.newPage();
  const files = new Set();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === site.origin) files.add(u.pathname);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    if (f === '/') continue;
    const body = readFileSync(path.join(ROOT, f.endsWith('/') ? `${f}index.html` : f));
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }

  // Navigation to ready.
  const readies = [];
  for (let i = 0; i < 7; i++) {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]');
    readies.push(await page.evaluate(() => performance.getEntriesByName('demo-ready')[0].startTime));
  }

  // First delta on screen.
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

  const fmt = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(`Chromium ${browser.version}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`page bytes (${files.size} files): ${fmt(raw)} raw, ${fmt(gz)} gzip -9 (target <= 200 KB)`);
  console.log(`navigation -> ready to chat: median ${median(readies).toFixed(0)} ms of ${readies.map((x) => x.toFixed(0)).join(', ')} (target <= 1000 ms)`);
  console.log(`agent's first token -> on screen: median ${median(lags)} ms of ${lags.join(', ')} (target <= 100 ms)`);
} finally {
  await browser.close();
  await agent.stop();
  await site.close();
  await relay.close();
}
