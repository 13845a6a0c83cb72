// The three browser engines the browser tests run in, behind one small driver: Chromium (Debian's,
// through playwright-core), Firefox ESR (Debian's, over WebDriver BiDi through puppeteer-core) and
// WebKitGTK (Debian's MiniBrowser through WebKitWebDriver, over classic WebDriver, on its own
// Xvfb). A test writes its steps once against the page of engines/page.js (navigate,
// evaluate/await in the page, act on an element, read the problems the page showed, close) and
// forEachEngine() runs them in each engine, starting each browser once per test file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

const DRIVERS = {
  chromium: () => import('./engines/chromium.js'),
  firefox: () => import('./engines/firefox.js'),
  webkit: () => import('./engines/webkit.js'),
};

const TITLES = { chromium: 'Chromium', firefox: 'Firefox ESR', webkit: 'WebKitGTK' };

/**
 * The engines to run: all three, unless NOSTR_BROWSERS names some (comma-separated) for a quicker
 * local run; the ones left out show as a skipped test, never silently.
 */
export function enginesUnderTest() {
  const wanted = process.env.NOSTR_BROWSERS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length) return ENGINES;
  for (const e of wanted) if (!ENGINES.includes(e)) throw new Error(`NOSTR_BROWSERS: unknown engine ${e} (known: ${ENGINES.join(', ')})`);
  return ENGINES.filter((e) => wanted.includes(e));
}

/**
 * Starts one engine's browser: { engine, name, version, label, newPage(), close() }. newPage()
 * resolves a page (see engines/page.js); close() ends the browser and everything it started.
 */
export async function launchBrowser(engine) {
  if (!DRIVERS[engine]) throw new Error(`unknown engine ${engine}`);
  const browser = await (await DRIVERS[engine]()).launch();
  browser.label = `${browser.name} ${browser.version}`;
  return browser;
}

/**
 * Opens `url` in a new page, waits until the page sets `window.__result`, and returns it with the
 * problems seen on the way (console errors and warnings, uncaught errors, failed requests, HTTP
 * statuses >= 400) and the WebAssembly probe (chromium.js). The page is always closed.
 */
export async function runPage(browser, url, { timeoutMs = 30_000 } = {}) {
  const page = await browser.newPage();
  try {
    const started = Date.now();
    await page.goto(url, { timeoutMs });
    let result;
    try {
      await page.waitFor(() => window.__result !== undefined, null, { timeoutMs: Math.max(1_000, timeoutMs - (Date.now() - started)), what: 'window.__result' });
      result = await page.evaluate(() => window.__result);
    } catch (err) {
      throw new Error(`${browser.label}: ${url} never reported a result (${err.message})\n${(await page.problems().catch(() => [])).join('\n')}`, { cause: err });
    }
    const wasmProbe = await page.evaluate(() => window.__wasmProbe);
    return { result, problems: await page.problems(), wasmProbe, wallMs: Date.now() - started };
  } finally {
    await page.close();
  }
}

/**
 * Registers, for each engine under test, a suite named after it whose `before` starts that
 * engine's browser (once for the file) and whose `after` closes it, then calls body(engine) to
 * register the suite's tests. `engine` is { id, title, browser, newPage(), runPage(url, options) };
 * its browser is there once the suite's tests run. Each suite opens with a test that records the
 * engine's version and start-up time in the output. `pending`: { engine: why } for engines the
 * file does not pass in yet (each shows as a skipped test with its reason).
 */
export function forEachEngine(body, { pending = {} } = {}) {
  const run = enginesUnderTest().filter((e) => !pending[e]);
  const left = ENGINES.filter((e) => !run.includes(e) && !pending[e]);
  if (left.length) test(`engines left out by NOSTR_BROWSERS: ${left.join(', ')}`, { skip: 'NOSTR_BROWSERS is set' });
  // An engine in which the file does not pass yet shows as a skipped test naming why, never silently.
  for (const [e, why] of Object.entries(pending)) test(`${TITLES[e]}: not run yet`, { skip: why });
  for (const id of run) {
    const engine = {
      id,
      title: TITLES[id],
      browser: null,
      startMs: 0,
      newPage: () => engine.browser.newPage(),
      runPage: (url, options) => runPage(engine.browser, url, options),
    };
    describe(TITLES[id], () => {
      before(
        async () => {
          const t0 = Date.now();
          engine.browser = await launchBrowser(id);
          engine.startMs = Date.now() - t0;
        },
        { timeout: 180_000 },
      );
      after(() => engine.browser?.close());
      test(`${TITLES[id]}: the engine under test`, (t) => {
        assert.equal(engine.browser.engine, id);
        assert.match(engine.browser.version, /^\d+\.\d+/);
        t.diagnostic(`engine: ${engine.browser.label} (started in ${(engine.startMs / 1000).toFixed(1)} s)`);
      });
      body(engine);
    });
  }
}
