// Chromium behind the engine-neutral page (./page.js): Debian's Chromium through playwright-core,
// launched by ../chromium.js (fresh profile, the WebAssembly probe in every page).
import { launchChromium } from '../chromium.js';
import { Page, resolveExpression } from './page.js';

class ChromiumPage extends Page {
  constructor(browser, page) {
    super(browser);
    this.page = page;
    this.pending = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') this.pending.push(`console.${msg.type()}: ${msg.text()}`);
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
      else if (kind === 'fill') await handle.fill(arg);
      else if (kind === 'type') await handle.type(arg);
      else if (kind === 'press') await handle.press(arg);
      else if (kind === 'select') await handle.selectOption(arg);
    } finally {
      await handle.dispose();
    }
  }

  async screenshot(file) {
    await this.page.screenshot({ path: file, fullPage: true });
  }

  async setViewport(width, height) {
    await this.page.setViewportSize({ width, height });
    return this.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  }

  async addInitScript(source) {
    await this.page.addInitScript(source);
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
  const b = await launchChromium();
  const browser = {
    engine: 'chromium',
    name: 'Chromium',
    version: b.version,
    context: b.context, // for tests that need Playwright itself
    async newPage() {
      return new ChromiumPage(browser, await b.context.newPage());
    },
    close: () => b.close(),
  };
  return browser;
}
