// What a test can do with a page, the same in every engine. Each engine's driver supplies a few
// primitives (navigate, evaluate an expression, act on one element, screenshot, viewport, init
// scripts, exposed functions, problems, close); everything else is built here on `evaluate`, so it
// behaves the same in Chromium, Firefox and WebKit.
import { actionable, define, resolveTarget } from './in-page.js';

const POLL_MS = 50;
const RESOLVE = define(resolveTarget);
const ACTIONABLE = `${RESOLVE}${define(actionable)}`;

/** The keys press() knows, as each protocol names them (W3C WebDriver code points). */
export const KEYS = { Enter: '\uE007', Tab: '\uE004', Escape: '\uE00C', Backspace: '\uE003' };

/** Source of an expression that resolves `target` in the page (see in-page.js resolveTarget). */
export const resolveExpression = (target) => `(() => { ${RESOLVE} return resolveTarget(${JSON.stringify(target)}); })()`;

export class Page {
  /**
   * Subclasses implement:
   * - _goto(url, timeoutMs), _reload(timeoutMs): navigate and wait for the load event;
   * - _evaluate(expression): the (awaited) value of a JS expression, JSON-like;
   * - _act(kind, target, arg): kind 'click' | 'fill' | 'type' | 'press' | 'select' on the one
   *   element `target` names, with the engine's own input (real pointer and key events);
   * - screenshot(file), close();
   * - setViewport(width, height): resolves the { width, height } reached (an engine's window may
   *   have a minimum size);
   * - addInitScript(source), exposeFunction(name, fn): for documents loaded after the call;
   * - _problems(): console errors and warnings, uncaught errors, failed requests and HTTP
   *   statuses >= 400 seen since the last call.
   */
  constructor(browser) {
    this.browser = browser;
    this.seen = [];
  }

  async goto(url, { timeoutMs = 30_000 } = {}) {
    await this._goto(url, timeoutMs);
  }

  async reload({ timeoutMs = 30_000 } = {}) {
    await this._reload(timeoutMs);
  }

  /** `fn(...args)` in the page (args: JSON values), awaited. */
  evaluate(fn, ...args) {
    return this._evaluate(`(${fn})(...${JSON.stringify(args)})`);
  }

  /** Polls `fn(arg)` in the page until it returns a truthy value, which it returns. */
  async waitFor(fn, arg, { timeoutMs = 30_000, what } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
      try {
        const v = await this.evaluate(fn, arg);
        if (v) return v;
        last = v;
      } catch (err) {
        last = err.message; // a navigation in progress, a script not loaded yet
      }
      if (Date.now() > deadline) throw new Error(`${this.browser.label}: timed out after ${timeoutMs} ms waiting for ${what ?? fn}: last ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Waits until `target` is there, rendered and enabled (as a user would need to act on it). */
  async waitForTarget(target, { timeoutMs = 30_000 } = {}) {
    await this.waitFor(new Function('t', `${ACTIONABLE} return actionable(t);`), target, { timeoutMs, what: JSON.stringify(target) });
  }

  /** Waits until the CSS selector matches an element (rendered or not). */
  async waitForSelector(selector, { timeoutMs = 30_000 } = {}) {
    await this.waitFor((s) => document.querySelector(s) !== null, selector, { timeoutMs, what: selector });
  }

  async click(target) {
    await this.waitForTarget(target);
    await this._act('click', target);
  }

  /** Replaces the control's value with `text`, typed. */
  async fill(target, text) {
    await this.waitForTarget(target);
    await this._act('fill', target, text);
  }

  /** Types `text` into the control after what it holds. */
  async type(target, text) {
    await this.waitForTarget(target);
    await this._act('type', target, text);
  }

  /** Presses one key (a name in KEYS) with the focus in `target`. */
  async press(target, key) {
    if (!KEYS[key]) throw new Error(`press: unknown key ${key}`);
    await this.waitForTarget(target);
    await this._act('press', target, key);
  }

  /** Picks the <option> whose value is `value` in the <select> `target`. */
  async select(target, value) {
    await this.waitForTarget(target);
    await this._act('select', target, value);
  }

  /** Clicks a checkbox until it is (`on`) or is not checked. */
  async check(target, on = true) {
    if ((await this.read(target, (el) => el.checked)) !== on) await this.click(target);
    if ((await this.read(target, (el) => el.checked)) !== on) throw new Error(`${JSON.stringify(target)} did not become ${on ? 'checked' : 'unchecked'}`);
  }

  /** `fn(element)` in the page for the element `target` names (null if there is none). */
  read(target, fn) {
    return this._evaluate(`(() => { ${RESOLVE} const el = resolveTarget(${JSON.stringify(target)}); return el && (${fn})(el); })()`);
  }

  /** The element's textContent (null if there is none). */
  text(target) {
    return this.read(target, (el) => el.textContent);
  }

  /** The control's value. */
  value(target) {
    return this.read(target, (el) => el.value);
  }

  attribute(target, name) {
    return this._evaluate(`(() => { ${RESOLVE} const el = resolveTarget(${JSON.stringify(target)}); return el && el.getAttribute(${JSON.stringify(name)}); })()`);
  }

  /** Whether the element is there and rendered (a box, not visibility:hidden). */
  visible(target) {
    return this.read(target, (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden').then((v) => v === true);
  }

  /** How many elements the CSS selector matches. */
  count(selector) {
    return this.evaluate((s) => document.querySelectorAll(s).length, selector);
  }

  /** `fn(elements)` for every element the CSS selector matches. */
  readAll(selector, fn) {
    return this._evaluate(`(${fn})([...document.querySelectorAll(${JSON.stringify(selector)})])`);
  }

  /**
   * Answers the next window.confirm() of the current document with `accept` (true: OK), without
   * showing it, and records its message for confirmsAsked(). Done in the page, the same in every
   * engine: classic WebDriver (WebKit) blocks every command while a native dialog is open.
   */
  async answerNextConfirm(accept) {
    await this.evaluate((ok) => {
      window.__enginesConfirms ??= [];
      const native = window.__enginesNativeConfirm ?? (window.__enginesNativeConfirm = window.confirm);
      window.confirm = (message) => {
        window.confirm = native;
        window.__enginesConfirms.push(String(message));
        return ok;
      };
    }, accept);
  }

  /** The messages of the confirm() dialogs answered by answerNextConfirm in this document. */
  async confirmsAsked() {
    return (await this.evaluate(() => window.__enginesConfirms)) ?? [];
  }

  /** Every problem the page has shown since it opened (see _problems). */
  async problems() {
    this.seen.push(...(await this._problems()));
    return [...this.seen];
  }
}
