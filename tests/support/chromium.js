// Headless Debian Chromium through playwright-core, for browser tests. A fresh profile per launch
// (Playwright refuses --user-data-dir in args), no background network traffic, and a page helper
// that records every console error or warning, page error, failed request and HTTP error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Runs in every page before its own scripts: counts how the WebAssembly module gets compiled, so
// a test can tell streaming compilation (instantiateStreaming on the fetch Response) from the
// ArrayBuffer fallback.
export const WASM_PROBE = `(() => {
  const probe = { streaming: 0, streamingOk: 0, streamingFailed: [], arrayBuffer: 0 };
  window.__wasmProbe = probe;
  const W = WebAssembly;
  const streaming = W.instantiateStreaming;
  if (typeof streaming === 'function') {
    W.instantiateStreaming = function (source, imports) {
      probe.streaming++;
      return streaming.call(W, source, imports).then(
        (r) => { probe.streamingOk++; return r; },
        (e) => { probe.streamingFailed.push(String(e)); throw e; });
    };
  }
  const instantiate = W.instantiate;
  W.instantiate = function (source, imports) {
    if (!(source instanceof W.Module)) probe.arrayBuffer++;
    return instantiate.call(W, source, imports);
  };
})();`;

/** Launches Chromium; close() ends it and deletes its profile, and is safe to call twice. */
export async function launchChromium() {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'nostr-agents-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      timeout: 30_000,
    });
    await context.addInitScript(WASM_PROBE);
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error(`could not launch Chromium at ${CHROMIUM_PATH}: ${err.message}`, { cause: err });
  }
  let closed = false;
  return {
    context,
    version: context.browser()?.version() ?? null,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        rmSync(userDataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Opens `url` in a new page, waits until the page sets `window.__result`, and returns it with the
 * problems seen on the way (console errors and warnings, uncaught errors, failed requests, HTTP
 * statuses >= 400) and the WebAssembly probe. The page is always closed.
 */
export async function runPage(context, url, { timeoutMs = 30_000 } = {}) {
  const page = await context.newPage();
  const problems = [];
  const console_ = [];
  page.on('console', (msg) => {
    const line = `console.${msg.type()}: ${msg.text()}`;
    console_.push(line);
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(line);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.stack || err.message}`));
  page.on('requestfailed', (req) => problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  try {
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    let result;
    try {
      await page.waitForFunction(() => window.__result !== undefined, null, {
        timeout: Math.max(1_000, timeoutMs - (Date.now() - started)),
      });
      result = await page.evaluate(() => window.__result);
    } catch (err) {
      throw new Error(`${url} never reported a result (${err.message})\n${problems.join('\n')}`, { cause: err });
    }
    const wasmProbe = await page.evaluate(() => window.__wasmProbe);
    return { result, problems, console: console_, wasmProbe, wallMs: Date.now() - started };
  } finally {
    await page.close().catch(() => {});
  }
}
