// The demo page's Markdown renderer (web-demo/markdown.js) on a minimal DOM: the inline rules of
// the regex it had before (kept below as the oracle) on thousands of random lines, links as they
// are now (their text stops at [, their URL at (), and time linear in the input: adversarial
// lines of 2^18 characters (`'['.repeat(65535)` alone took 3.2 s before, and a line 4x longer
// ~16x as long) render within the test's timeout. Speed itself is measured in the demo's bench
// (web-demo/bench.mjs).
import { isMainThread } from 'node:worker_threads';
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../web-demo/markdown.js';

// This file is also the adversarial worker's code (below); there it declares no tests.
const test = isMainThread ? nodeTest : () => {};

/** A deterministic pseudo-random source (helpers.js has the same; this file needs no WASM). */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- A DOM with what the renderer uses, serialized as HTML for comparison.
class El {
  constructor(tag) {
    this.tag = tag;
    this.children = [];
    this.dataset = {};
  }
  append(...nodes) {
    this.children.push(...nodes);
  }
  set textContent(v) {
    this.children = [{ text: String(v) }];
  }
}
const doc = {
  createElement: (tag) => new El(tag),
  createTextNode: (text) => ({ text }),
  createDocumentFragment: () => new El('#fragment'),
};
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
function html(node) {
  if (node.text !== undefined) return esc(node.text);
  const inner = node.children.map(html).join('');
  if (node.tag === '#fragment') return inner;
  const attrs = node.tag === 'a' ? ` href="${node.href}"` : node.start ? ` start="${node.start}"` : node.dataset.lang ? ` lang="${node.dataset.lang}"` : '';
  return node.tag === 'br' ? '<br>' : `<${node.tag}${attrs}>${inner}</${node.tag}>`;
}
const render = (text) => html(renderMarkdown(text, doc));

/** The adversarial inputs and what each must render to: [what, ok] pairs. */
function adversarial() {
  const N = 1 << 18;
  const out = [];
  const check = (what, line, pred) => out.push([what, pred(render(line))]);
  const runs = {
    '[': '['.repeat(N),
    '[a](': '[a]('.repeat(N / 4),
    '*': '*'.repeat(N),
    '* a': '* a'.repeat(N / 3),
    '_': '_'.repeat(N),
    ' _a': ' _a'.repeat(N / 3),
    '`': '`'.repeat(N),
    '**a': '**a'.repeat(N / 3),
    '[x': '[x'.repeat(N / 2),
    '](': ']('.repeat(N / 2),
  };
  for (const [what, line] of Object.entries(runs)) check(what, `a${line}`, (h) => h.startsWith('<p>a') && h.endsWith('</p>') && h.length >= line.length);
  // Nothing in them is markup but what is: a run of [ stays text.
  check('[ is text', `a${'['.repeat(N)}`, (h) => h === `<p>a${'['.repeat(N)}</p>`);
  // Block syntax on huge lines (spaces, then U+2028, a line terminator to `.`).
  const big = ' '.repeat(N);
  check('fence', `\`\`\`${big}x`, (h) => h === `<p>\`\`\`${big}x</p>`);
  check('heading', `# ${big}\u2028x`, (h) => h === '<h3>x</h3>');
  check('list', `- ${big}\u2028x`, (h) => h === '<ul><li>x</li></ul>');
  check('quote', `>${big}\u2028x`, (h) => h === `<blockquote>${big.slice(1)}\u2028x</blockquote>`);
  // And many lines: 2^16 lines of brackets.
  check('lines', '[[[[\n'.repeat(1 << 16), (h) => h.startsWith('<p>[[[[<br>'));
  return out;
}

const { parentPort, workerData } = await import('node:worker_threads');
if (!isMainThread && workerData?.adversarial) parentPort.postMessage(adversarial());

// --- The oracle: the inline rules as the regex the renderer used to have (quadratic, so only
// for short lines). It differs from today's only on links, which need a ( and are tested apart.
const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\*([^*\s\n](?:[^*\n]*[^*\s\n])?)\*|(?<![\w])_([^_\s\n](?:[^_\n]*[^_\s\n])?)_(?![\w])|\[([^\]\n]+)\]\(([^)\s]+)\)/g;
function oracle(text, depth = 0) {
  if (depth >= 4) return esc(text);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += esc(text.slice(last, m.index));
    last = m.index + m[0].length;
    const [, code, bold, em1, em2, linkText, href] = m;
    if (code !== undefined) out += `<code>${esc(code)}</code>`;
    else if (bold !== undefined) out += `<strong>${oracle(bold, depth + 1)}</strong>`;
    else if (em1 !== undefined || em2 !== undefined) out += `<em>${oracle(em1 ?? em2, depth + 1)}</em>`;
    else {
      let url = null;
      try {
        url = new URL(href);
      } catch {
        // not a URL: shown as text
      }
      if (url && (url.protocol === 'https:' || url.protocol === 'http:')) out += `<a href="${url.href}">${oracle(linkText, depth + 1)}</a>`;
      else out += esc(m[0]);
    }
  }
  return out + esc(text.slice(last));
}

test('the usual Markdown renders as before', () => {
  assert.equal(render('plain **bold** and *em* and _em_ and `code`'), '<p>plain <strong>bold</strong> and <em>em</em> and <em>em</em> and <code>code</code></p>');
  assert.equal(render('see [the docs](https://example.com/a?b=1) or [bad](javascript:alert(1))'), '<p>see <a href="https://example.com/a?b=1">the docs</a> or [bad](javascript:alert(1))</p>');
  assert.equal(render('**bold _and em_ inside**'), '<p><strong>bold <em>and em</em> inside</strong></p>');
  assert.equal(render('snake_case_name stays'), '<p>snake_case_name stays</p>');
  assert.equal(render('# Title\n\n- one\n- two\n\n3. three\n> quoted\n> more\n```js\nlet x = 1;\n```'),
    '<h3>Title</h3><ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol><blockquote>quoted<br>more</blockquote><pre><code lang="js">let x = 1;</code></pre>');
  assert.equal(render('line one\nline two'), '<p>line one<br>line two</p>');
  assert.equal(render('<script>alert(1)</script>'), '<p>&lt;script>alert(1)&lt;/script></p>');
});

test('links: the text stops at [ and ], the URL at (, ) and spaces', () => {
  assert.equal(render('[a [b](https://x.example/)'), '<p>[a <a href="https://x.example/">b</a></p>', 'the innermost bracket is the link');
  assert.equal(render('[a](https://x.example/p(q)'), '<p>[a](https://x.example/p(q)</p>');
  assert.equal(render('[**a** _b_](http://x.example/)'), '<p><a href="http://x.example/"><strong>a</strong> <em>b</em></a></p>');
  assert.equal(render('[a](https://x.example/ b)'), '<p>[a](https://x.example/ b)</p>');
  assert.equal(render('[](https://x.example/) [a]()'), '<p>[](https://x.example/) [a]()</p>');
});

test('the inline rules agree with the old regex on 5000 random lines', () => {
  const rand = prng(16);
  const pieces = ['`', '*', '**', '_', '[', ']', ')', ' ', 'a', 'b', 'x_y', 'https://h.example/p', 'javascript:x', '\u2028', '\t', 'é'];
  for (let i = 0; i < 5000; i++) {
    let line = 'a';
    const n = 1 + Math.floor(rand() * 24);
    for (let j = 0; j < n; j++) line += pieces[Math.floor(rand() * pieces.length)];
    assert.equal(render(line), `<p>${oracle(line)}</p>`, JSON.stringify(line));
  }
});

// Rendered in a worker: a quadratic renderer would keep a synchronous test busy past any timeout
// (a timer cannot interrupt it), so the test waits for the worker and stops it when the time is up.
test('adversarial lines of 2^18 characters render, each as what it is', { timeout: 90_000 }, async () => {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL(import.meta.url), { workerData: { adversarial: true } });
  worker.unref(); // a renderer that never finishes must not keep the process alive after the timeout
  try {
    const results = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    for (const [what, ok] of results) assert.ok(ok, what);
    assert.equal(results.length, 16);
  } finally {
    await worker.terminate();
  }
});
