// Code that runs inside the page, the same in every engine: finding the element a test names, and
// (where the engine reports nothing itself: WebKit over classic WebDriver) recording console
// errors and uncaught errors for the driver to collect.

/**
 * The element `target` names, or null if there is none; throws if it names more than one (a test
 * must not click whichever comes first). `target` is a CSS selector, or
 * - { label, exact }: the form control whose <label> (or aria-label, aria-labelledby) reads `label`
 *   (exact: the whole text; otherwise a case-insensitive part of it);
 * - { role: 'button', name, exact }: the button whose accessible name reads `name`;
 * - { text, exact, within }: the innermost element whose text reads `text`;
 * each optionally { within: cssSelector } (searched inside the last match of that selector).
 * Self-contained: it is sent to the page as source.
 */
export function resolveTarget(target) {
  const norm = (s) => (s ?? '').replace(/\s+/g, ' ').trim();
  const matches = (have, want, exact) => (exact ? norm(have) === want : norm(have).toLowerCase().includes(String(want).toLowerCase()));
  const one = (found, what) => {
    if (found.length > 1) throw new Error(`${what} matches ${found.length} elements`);
    return found[0] ?? null;
  };
  if (typeof target === 'string') return one([...document.querySelectorAll(target)], target);
  let scope = document;
  if (target.within) {
    const all = document.querySelectorAll(target.within);
    scope = all[all.length - 1];
    if (!scope) return null;
  }
  const describe = JSON.stringify(target);
  const labelOf = (el) => {
    const parts = [];
    if (el.getAttribute('aria-label')) parts.push(el.getAttribute('aria-label'));
    for (const id of (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) parts.push(document.getElementById(id)?.textContent ?? '');
    for (const l of el.labels ?? []) parts.push(l.textContent);
    return parts;
  };
  if (target.label !== undefined) {
    const controls = [...scope.querySelectorAll('input, select, textarea, button, [aria-label], [aria-labelledby]')];
    return one(controls.filter((el) => labelOf(el).some((t) => matches(t, target.label, target.exact))), describe);
  }
  if (target.role === 'button') {
    const buttons = [...scope.querySelectorAll('button, input[type=button], input[type=submit], [role=button]')];
    const nameOf = (el) => el.getAttribute('aria-label') ?? (el.tagName === 'INPUT' ? el.value : el.textContent);
    return one(buttons.filter((el) => matches(nameOf(el), target.name, target.exact)), describe);
  }
  if (target.text !== undefined) {
    const all = [...scope.querySelectorAll('*')].filter((el) => matches(el.textContent, target.text, target.exact));
    return one(all.filter((el) => !all.some((o) => o !== el && el.contains(o))), describe);
  }
  throw new Error(`not a target: ${describe}`);
}

/**
 * Whether `target` is there and can take input now: found, rendered (a box on the page, not
 * visibility:hidden) and not disabled. Self-contained, like resolveTarget (which it expects beside
 * it in the page).
 */
export function actionable(target) {
  // eslint-disable-next-line no-undef
  const el = resolveTarget(target);
  if (!el) return false;
  if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') return false;
  return !el.disabled;
}

/**
 * Records console.error/console.warn calls, uncaught errors, unhandled rejections and CSP
 * violations into window.__enginesProblems, in the wording the other engines' events get
 * (`console.error: …`, `pageerror: …`). Runs before the page's own scripts.
 */
export function captureProblems() {
  if (window.__enginesProblems) return;
  const problems = (window.__enginesProblems = []);
  const text = (args) => args.map((a) => (a instanceof Error ? a.stack || String(a) : typeof a === 'object' ? safeJson(a) : String(a))).join(' ');
  function safeJson(v) {
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  for (const [method, type] of [['error', 'error'], ['warn', 'warning']]) {
    const original = console[method];
    console[method] = function (...args) {
      problems.push(`console.${type}: ${text(args)}`);
      return original.apply(this, args);
    };
  }
  addEventListener('error', (ev) => {
    if (ev.target !== window && ev.target instanceof Element) return; // a failed <img>/<script>: the proxy logs the request
    problems.push(`pageerror: ${ev.error?.stack || ev.message}`);
  });
  addEventListener('unhandledrejection', (ev) => problems.push(`pageerror: ${ev.reason?.stack || ev.reason}`));
  addEventListener('securitypolicyviolation', (ev) => problems.push(`console.error: CSP refused ${ev.blockedURI} (${ev.violatedDirective})`));
}

/** `fn` as a statement that defines it in the page by its own name. */
export const define = (fn) => `const ${fn.name} = ${fn};`;

/**
 * Resolves true once the element `target` names is where a click at its centre reaches it and has
 * not moved for two animation frames (scrolled into view first), false if that does not happen
 * within `ms`. What Playwright checks before it clicks; classic WebDriver (WebKit) does not, so a
 * layout shift between its scroll and its click (a transcript restored above the button) sends
 * the click elsewhere. Self-contained, like resolveTarget (which it expects beside it in the page).
 */
export function settledForClick(target, ms) {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const deadline = Date.now() + ms;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].map(Math.round).join();
  };
  return (async () => {
    for (;;) {
      // eslint-disable-next-line no-undef
      const el = resolveTarget(target);
      if (el) {
        el.scrollIntoView({ block: 'center', inline: 'center' });
        const before = box(el);
        await frame();
        await frame();
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        if (box(el) === before && hit && (hit === el || el.contains(hit))) return true;
      }
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 30));
    }
  })();
}

