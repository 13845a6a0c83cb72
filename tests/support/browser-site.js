// The fixture every package browser test shares: a temporary site (the test's pages next to
// symlinks to the package's files), served by the static server on 127.0.0.1 (Chromium's local
// network access checks refuse loopback WebSockets to pages of no address space, so pages never
// come from file: or data: URLs), headless Chromium (or none, for tests that run every engine
// through ./engines.js), and a dev relay.
import { before, after } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, runPage, CHROMIUM_PATH } from './chromium.js';
import { startStaticServer } from './static-server.js';
import { startDevRelay } from './relays.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Registers node:test before/after hooks for the fixture and returns it; its fields are set once
 * `before` has run. Options:
 * - name: folds into the temp folder's name;
 * - pages: { 'file.html': html } written at the site's root;
 * - links: { 'site/path': 'repository/path' } symlinks (parents made; default: js/ and dist/,
 *   what `import('/js/index.browser.js')` needs);
 * - relay: startDevRelay options, or null for no relay (default { memory: true });
 * - chromium: false to start no browser (the test runs its engines itself: ./engines.js).
 * Fixture: browser ({ context, close }), server (the static server: origin, requests), relay,
 * root (the site folder), url(file, query): `${origin}/${file}?${new URLSearchParams(query)}`,
 * and run(file, query, runPageOptions): runPage on that URL → { result, problems, console, wasmProbe }.
 */
export function useBrowserSite({ name = 'browser', pages = {}, links = { js: 'js', dist: 'dist' }, relay = { memory: true }, chromium = true } = {}) {
  const site = {
    browser: null,
    server: null,
    relay: null,
    root: null,
    url(file, query = {}) {
      const qs = new URLSearchParams(query).toString();
      return `${site.server.origin}/${file}${qs ? `?${qs}` : ''}`;
    },
    run(file, query = {}, options) {
      return runPage(site.browser.context, site.url(file, query), options);
    },
  };
  before(async () => {
    if (chromium && !existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
    site.root = mkdtempSync(path.join(tmpdir(), `nostr-agents-${name}-`));
    for (const [at, target] of Object.entries(links)) {
      const where = path.join(site.root, at);
      mkdirSync(path.dirname(where), { recursive: true });
      symlinkSync(path.resolve(ROOT, target), where);
    }
    for (const [file, html] of Object.entries(pages)) writeFileSync(path.join(site.root, file), html);
    // allSettled: what did start is kept, so `after` closes it even when another part failed
    const started = await Promise.allSettled([chromium ? launchChromium() : null, startStaticServer(site.root), relay ? startDevRelay(relay) : null]);
    [site.browser, site.server, site.relay] = started.map((r) => (r.status === 'fulfilled' ? r.value : null));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });
  after(async () => {
    await Promise.all([site.browser?.close(), site.server?.close(), site.relay?.close()]);
    if (site.root) rmSync(site.root, { recursive: true, force: true });
  });
  return site;
}
