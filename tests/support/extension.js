// Our NIP-07 test extension (tests/extension/) in headless Debian Chromium, loaded the way users
// load an unpacked extension: --load-extension and --disable-extensions-except, in the new
// headless mode (--headless=new; the old one cannot run extensions). Extensions need a persistent
// profile, so this launches through playwright-core's launchPersistentContext.
import { cpSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from './chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const EXTENSION_SOURCE = path.join(ROOT, 'tests/extension');

// The package's browser builds, copied into the extension's vendor/ with the package's own layout
// (an extension loads only its own files): the lite entry for the service worker, the main entry
// for selftest.html, and the two js/ modules the main bundle shares with the other entries.
const VENDOR = [
  'dist/lite.browser.js',
  'dist/core-lite.mjs',
  'dist/core-lite.wasm',
  'dist/index.browser.js',
  'dist/core.mjs',
  'dist/core.wasm',
  'js/core.js',
  'js/errors.js',
];

/**
 * Assembles the extension in a fresh folder: tests/extension/ plus vendor/ (the package's build).
 * `csp` replaces the manifest's extension_pages policy (null drops the key: Chromium's default).
 */
export function assembleExtension({ csp } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nostr-agents-extension-'));
  // test-page/ is an ordinary web page for the tests, not part of the extension.
  cpSync(EXTENSION_SOURCE, dir, { recursive: true, filter: (src) => path.basename(src) !== 'test-page' });
  for (const f of VENDOR) {
    mkdirSync(path.dirname(path.join(dir, 'vendor', f)), { recursive: true });
    copyFileSync(path.join(ROOT, f), path.join(dir, 'vendor', f));
  }
  if (csp !== undefined) {
    const manifestPath = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (csp === null) delete manifest.content_security_policy;
    else manifest.content_security_policy = { extension_pages: csp };
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  }
  return dir;
}

/**
 * Launches Chromium with the extension at `dir` and waits for its service worker. Resolves
 * { context, worker, extensionId, version, url(page), close() }; close() ends Chromium and deletes
 * its profile (not `dir`).
 */
export async function launchWithExtension(dir) {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'nostr-agents-chromium-ext-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: false, // Playwright's own headless flag is replaced by the explicit one below
      args: [
        '--headless=new',
        `--disable-extensions-except=${dir}`,
        `--load-extension=${dir}`,
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
      timeout: 30_000,
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    const extensionId = new URL(worker.url()).host;
    let closed = false;
    return {
      context,
      worker,
      extensionId,
      version: context.browser()?.version() ?? null,
      url: (page) => `chrome-extension://${extensionId}/${page}`,
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
  } catch (err) {
    await context?.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error(`could not load the test extension into Chromium at ${CHROMIUM_PATH}: ${err.message}`, { cause: err });
  }
}
