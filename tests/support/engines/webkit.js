// WebKit behind the engine-neutral page (./page.js): Debian's WebKitGTK (its MiniBrowser, started by
// WebKitWebDriver from webkit2gtk-driver) driven over plain W3C WebDriver, on an Xvfb display of
// its own. WebKitGTK 2.50's WebDriver has no BiDi, so what classic WebDriver lacks comes from
// ./webkit-proxy.js: init scripts (the WebAssembly probe, a test's own), functions exposed to the
// page, problems the page logs (captured in the page, collected with every evaluate) and failed
// requests (seen by the proxy).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import { WASM_PROBE } from '../chromium.js';
import { captureProblems, define, resolveTarget, settledForClick } from './in-page.js';
import { KEYS, Page, resolveExpression } from './page.js';
import { PREFIX, startWebKitProxy } from './webkit-proxy.js';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'; // the W3C web element reference key
const VIEWPORT = { width: 1280, height: 720 }; // Playwright's default, so layouts match Chromium's

// Collects what the page's injected capture script recorded (see in-page.js captureProblems).
const SETTLED = `${define(resolveTarget)}${define(settledForClick)}`;
const DRAIN = '(window.__enginesProblems ? window.__enginesProblems.splice(0) : [])';

class WebKitPage extends Page {
  constructor(browser, id, handle) {
    super(browser);
    this.id = id;
    this.handle = handle;
    this.initScripts = [];
    this.exposed = new Map();
    this.pending = [];
    this.networkFrom = browser.network.length;
  }

  /** Runs `fn` with this page's window as WebDriver's current one. */
  run(fn) {
    return this.browser.exclusive(async () => {
      if (this.browser.current !== this.handle) {
        await this.browser.wd('POST', '/window', { handle: this.handle });
        this.browser.current = this.handle;
      }
      return fn();
    });
  }

  navigate(fn) {
    return this.run(async () => {
      await this.drain();
      this.browser.loading = this.id;
      try {
        await fn();
      } finally {
        this.browser.loading = null;
        this.browser.lastLoaded = this.id;
      }
    });
  }

  async drain() {
    const r = await this.browser.wd('POST', '/execute/sync', { script: `return ${DRAIN};`, args: [] }).catch(() => []);
    if (Array.isArray(r)) this.pending.push(...r);
  }

  async _goto(url, timeoutMs) {
    await this.navigate(() => this.browser.wd('POST', '/url', { url }, timeoutMs));
  }

  async _reload(timeoutMs) {
    await this.navigate(() => this.browser.wd('POST', '/refresh', {}, timeoutMs));
  }

  async _evaluate(expression) {
    const script = `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${expression})).then(
  (v) => done({ ok: true, undef: v === undefined, value: v === undefined ? null : v, problems: ${DRAIN} }),
  (e) => done({ ok: false, error: String((e && e.stack) || e), problems: ${DRAIN} }));`;
    const r = await this.run(() => this.browser.wd('POST', '/execute/async', { script, args: [] }));
    this.pending.push(...(r?.problems ?? []));
    if (!r?.ok) throw new Error(`${this.browser.label}: ${r?.error ?? 'the script returned nothing'}`);
    return r.undef ? undefined : r.value;
  }

  async element(expression, args = []) {
    const ref = await this.browser.wd('POST', '/execute/sync', { script: `return ${expression};`, args });
    if (!ref?.[ELEMENT]) throw new Error(`no element for ${expression.slice(0, 200)}`);
    return `/element/${ref[ELEMENT]}`;
  }

  _act(kind, target, arg) {
    const wd = this.browser.wd;
    return this.run(async () => {
      if (kind === 'select') {
        const option = await this.element(`[...${resolveExpression(target)}.options].find((o) => o.value === arguments[0]) ?? null`, [arg]);
        return wd('POST', `${option}/click`, {});
      }
      const el = await this.element(resolveExpression(target));
      if (kind === 'click') {
        // Classic WebDriver clicks at wherever the element is when it scrolled it into view: wait
        // until it stays put and a click there reaches it (see in-page.js settledForClick).
        const script = `const done = arguments[arguments.length - 1]; ${SETTLED} settledForClick(${JSON.stringify(target)}, 5000).then(done, () => done(false));`;
        await wd('POST', '/execute/async', { script, args: [] });
        return wd('POST', `${el}/click`, {});
      }
      // WebKitWebDriver drops a '\n' in the text it types: send it as the Enter key, which is what
      // typing a line break is (a new line in a textarea).
      const keys = (text) => text.replace(/\r?\n/g, KEYS.Enter);
      if (kind === 'fill') {
        await wd('POST', `${el}/clear`, {});
        if (arg !== '') await wd('POST', `${el}/value`, { text: keys(arg) });
        return;
      }
      if (kind === 'type') return wd('POST', `${el}/value`, { text: keys(arg) });
      if (kind === 'press') return wd('POST', `${el}/value`, { text: KEYS[arg] });
      throw new Error(`unknown action ${kind}`);
    });
  }

  async screenshot(file) {
    const png = await this.run(() => this.browser.wd('GET', '/screenshot'));
    await writeFile(file, Buffer.from(png, 'base64'));
  }

  /**
   * Sizes the window so that the page's viewport (innerWidth × innerHeight) is width × height, or
   * as close as the window allows (MiniBrowser's toolbar keeps its window at least 447 px wide);
   * resolves the size reached.
   */
  async setViewport(width, height) {
    return this.run(async () => {
      let rect = { width, height };
      let got;
      for (let i = 0; i < 3; i++) {
        await this.browser.wd('POST', '/window/rect', rect);
        const [w, h] = await this.browser.wd('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight];', args: [] });
        got = { width: w, height: h };
        if (w === width && h === height) break;
        rect = { width: rect.width + width - w, height: rect.height + height - h };
      }
      return got;
    });
  }

  async addInitScript(source) {
    this.initScripts.push(typeof source === 'function' ? `(${source})();` : source);
  }

  async exposeFunction(name, fn) {
    this.exposed.set(name, fn);
  }

  /** The injected script's source for this page's documents. */
  initScript() {
    const names = JSON.stringify([...this.exposed.keys()]);
    const bridge = `(() => {
  const post = window.fetch.bind(window);
  for (const name of ${names}) {
    window[name] = (...args) =>
      post('${PREFIX}call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: ${JSON.stringify(this.id)}, name, args }) })
        .then((r) => r.json())
        .then((r) => ('error' in r ? Promise.reject(new Error(r.error)) : r.value));
  }
})();`;
    return [`(${captureProblems})();`, WASM_PROBE, bridge, ...this.initScripts].join('\n;\n');
  }

  async _problems() {
    await this.run(() => this.drain()).catch(() => {});
    const network = this.browser.network.slice(this.networkFrom);
    this.networkFrom = this.browser.network.length;
    return [...this.pending.splice(0), ...network];
  }

  async close() {
    await this.run(async () => {
      this.browser.pages.delete(this.id);
      if (this.browser.pages.size === 0) {
        // Closing the last window would end the session: leave it blank instead.
        await this.browser.wd('POST', '/url', { url: 'about:blank' });
        this.browser.spare = this.handle;
      } else {
        await this.browser.wd('DELETE', '/window');
        this.browser.current = null;
      }
    }).catch(() => {});
  }
}

export async function launch() {
  const children = [];
  const killAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  process.once('exit', killAll); // never leave a display or a browser behind
  let proxy;
  let session;
  let port;
  const browser = {
    engine: 'webkit',
    name: 'WebKitGTK',
    version: null,
    pages: new Map(),
    network: [],
    loading: null,
    lastLoaded: null,
    current: null,
    spare: null,
    queue: Promise.resolve(),
    nextId: 1,
    /** Runs WebDriver commands one caller at a time (the current window is global). */
    exclusive(fn) {
      const run = browser.queue.then(fn);
      browser.queue = run.catch(() => {});
      return run;
    },
    /** One WebDriver command on the session: its value, or a thrown Error with the driver's. */
    async wd(method, path, body, timeoutMs = 120_000) {
      const url = `http://127.0.0.1:${port}/session${session ? `/${session}` : ''}${path}`;
      const res = await fetch(url, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs + 5_000),
      });
      const json = await res.json().catch(() => ({}));
      if (!res.ok || json.value?.error) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error ?? res.status}: ${json.value?.message ?? ''}`);
      return json.value;
    },
    async newPage() {
      const id = String(browser.nextId++);
      let handle = browser.spare;
      browser.spare = null;
      if (!handle) {
        // A window, not a tab: MiniBrowser opens a new tab in the background and switching to it
        // over WebDriver does not bring it to the front, so its document stays hidden (no
        // requestAnimationFrame, throttled timers) and a screenshot of it waits forever.
        handle = await browser.exclusive(async () => {
          const w = await browser.wd('POST', '/window/new', { type: 'window' });
          return w.handle;
        });
      }
      const page = new WebKitPage(browser, id, handle);
      browser.pages.set(id, page);
      await page.setViewport(VIEWPORT.width, VIEWPORT.height);
      return page;
    },
    async close() {
      try {
        if (session) await browser.wd('DELETE', '', undefined, 30_000).catch(() => {});
      } finally {
        session = null;
        for (const c of children.reverse()) await stop(c);
        process.removeListener('exit', killAll);
        await proxy?.close();
      }
    },
  };
  try {
    const display = await startXvfb(children);
    proxy = await startWebKitProxy({
      documentPage: () => browser.loading ?? browser.lastLoaded,
      initScript: (id) => browser.pages.get(id)?.initScript() ?? `(${captureProblems})();\n${WASM_PROBE}`,
      call: (id, name, args) => {
        const fn = browser.pages.get(id)?.exposed.get(name);
        if (!fn) throw new Error(`${name} is not exposed to page ${id}`);
        return fn(...args);
      },
      problem: (text) => browser.network.push(text),
    });
    port = await freePort();
    const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, '--host=local'], { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(driver);
    const log = [];
    driver.stderr.on('data', (d) => log.push(String(d)));
    await waitForDriver(port, driver, log);
    const created = await browser.wd('POST', '', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { args: ['--automation'] },
          proxy: { proxyType: 'manual', httpProxy: `127.0.0.1:${proxy.port}`, sslProxy: `127.0.0.1:${proxy.port}` },
          pageLoadStrategy: 'normal',
          timeouts: { script: 120_000, pageLoad: 60_000, implicit: 0 },
        },
      },
    });
    session = created.sessionId;
    browser.version = created.capabilities.browserVersion;
    browser.spare = await browser.wd('GET', '/window');
    browser.current = browser.spare;
  } catch (err) {
    await browser.close().catch(() => {});
    throw new Error(`could not start WebKitGTK through ${WEBKIT_DRIVER_PATH}: ${err.message}`, { cause: err });
  }
  return browser;
}

/** An Xvfb of our own (it picks a free display number); resolves ':N'. */
async function startXvfb(children) {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1920x1080x24'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  children.push(xvfb);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    xvfb.stderr.on('data', (d) => (err += d));
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.on('error', (e) => reject(new Error(`Xvfb: ${e.message} (apt-get install xvfb)`)));
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err.trim()}`)));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForDriver(port, driver, log) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${log.join('')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer on port ${port}: ${log.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
