// Firefox behind the engine-neutral page (./page.js): Debian's Firefox ESR driven over WebDriver
// BiDi by puppeteer-core (no browser download; puppeteer makes and deletes a fresh profile), with
// the WebAssembly probe in every page, as in Chromium.
import puppeteer from 'puppeteer-core';
import { WASM_PROBE } from '../chromium.js';
import { Page, resolveExpression } from './page.js';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

// Puppeteer's own Firefox profile already turns off updates, telemetry and first-run pages; these
// keep a test run off the network beyond the pages' own requests.
const PREFS = {
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
};

class FirefoxPage extends Page {
  constructor(browser, page) {
    super(browser);
    this.page = page;
    this.pending = [];
    page.on('console', (msg) => {
      const type = msg.type() === 'warn' ? 'warning' : msg.type();
      if (type === 'error' || type === 'warning') this.pending.push(`console.${type}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => this.pending.push(`pageerror: ${err.stack || err.message}`));
    page.on('requestfailed', (req) => this.pending.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => {
      if (res.status() >= 400) this.pending.push(`HTTP ${res.status()}: ${res.url()}`);
    });
  }

  async _goto(url, timeout) {
    await this.page.goto(url, { waitUntil: 'load', timeout });
  }

  async _reload(timeout) {
    await this.page.reload({ waitUntil: 'load', timeout });
  }

  _evaluate(expression) {
    return this.page.evaluate(expression);
  }

  async _act(kind, target, arg) {
    const handle = (await this.page.evaluateHandle(resolveExpression(target))).asElement();
    if (!handle) throw new Error(`no element for ${JSON.stringify(target)}`);
    try {
      if (kind === 'click') await handle.click();
      else if (kind === 'fill') {
        // Select what the control holds, then type over it (typing into a selection replaces it).
        await handle.evaluate((el) => (el.focus(), el.select()));
        if (arg === '') await handle.press('Backspace');
        else await handle.type(arg);
      } else if (kind === 'type') await handle.type(arg);
      else if (kind === 'press') await handle.press(arg);
      else if (kind === 'select') await handle.select(arg);
    } finally {
      await handle.dispose();
    }
  }

  async screenshot(file) {
    await this.page.screenshot({ path: file, fullPage: true });
  }

  async setViewport(width, height) {
    await this.page.setViewport({ width, height });
    return this.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  }

  async addInitScript(source) {
    await this.page.evaluateOnNewDocument(source);
  }

  async exposeFunction(name, fn) {
    await this.page.exposeFunction(name, fn);
  }

  async _problems() {
    return this.pending.splice(0);
  }

  async close() {
    await this.page.close().catch(() => {});
  }
}

export async function launch() {
  let b;
  try {
    b = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      defaultViewport: { width: 1280, height: 720 }, // Playwright's default, so layouts match Chromium's
      extraPrefsFirefox: PREFS,
      timeout: 120_000,
      protocolTimeout: 120_000,
    });
  } catch (err) {
    throw new Error(`could not launch Firefox at ${FIREFOX_PATH}: ${err.message}`, { cause: err });
  }
  const version = (await b.version()).replace(/^firefox\//i, '');
  const browser = {
    engine: 'firefox',
    name: /esr/.test(FIREFOX_PATH) ? 'Firefox ESR' : 'Firefox',
    version,
    async newPage() {
      const page = await b.newPage();
      await page.evaluateOnNewDocument(WASM_PROBE);
      return new FirefoxPage(browser, page);
    },
    close: () => b.close(),
  };
  return browser;
}
