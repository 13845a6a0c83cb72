// README.md and docs/*.md as a reader meets them: every relative link resolves (file and heading),
// README stays short with a table of contents and names every example, and every `js` block is
// either run here as written (against a real dev relay, in its own Node process, with a deadline),
// or is an examples/ file verbatim (tests/js/examples.test.js runs those), or says on its first
// line that it is a fragment.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = path.join(ROOT, 'docs');
const FRAGMENT = '// fragment:';
// The address the blocks are written for (`npx nostr-agents relay`); the test runs them against a
// dev relay of its own on a free port instead.
const DEFAULT_RELAY = 'ws://127.0.0.1:7447';
const BLOCK_DEADLINE_MS = 60_000;

const docFiles = () => ['README.md', ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const read = (rel) => readFileSync(path.join(ROOT, rel), 'utf8');

/** Splits markdown into fenced blocks ({ lang, text, line }) and the prose outside them. */
function parse(md) {
  const blocks = [];
  const prose = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[i]);
    if (!open) {
      prose.push({ text: lines[i], line: i + 1 });
      continue;
    }
    const start = i;
    const body = [];
    for (i++; i < lines.length && lines[i] !== open[1]; i++) body.push(lines[i]);
    assert.ok(i < lines.length, `unclosed code fence opened on line ${start + 1}`);
    blocks.push({ lang: open[2], text: body.join('\n') + '\n', line: start + 1 });
  }
  return { blocks, prose };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to '-', repeats numbered. */
function anchors(md) {
  const seen = new Map();
  const out = new Set();
  for (const { text } of parse(md).prose) {
    const h = /^#{1,6} (.*)$/.exec(text);
    if (!h) continue;
    const base = h[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Links of the prose ([text](target)), inline code removed. */
function links(md) {
  const out = [];
  for (const { text, line } of parse(md).prose) {
    const plain = text.replace(/`[^`]*`/g, '');
    for (const m of plain.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) out.push({ target: m[1], line });
  }
  return out;
}

describe('links', () => {
  test('every relative link in README.md and docs/*.md names a file and a heading that exist', () => {
    const bad = [];
    const anchorsOf = new Map();
    let checked = 0;
    for (const file of docFiles()) {
      for (const { target, line } of links(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        checked++;
        const [p, hash] = target.split('#');
        const abs = p ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(p)) : path.join(ROOT, file);
        if (!abs.startsWith(ROOT) || !existsSync(abs)) {
          bad.push(`${file}:${line}: ${target}: no such file`);
          continue;
        }
        if (hash === undefined) continue;
        if (!abs.endsWith('.md') || statSync(abs).isDirectory()) {
          bad.push(`${file}:${line}: ${target}: an anchor into a file that is not markdown`);
          continue;
        }
        if (!anchorsOf.has(abs)) anchorsOf.set(abs, anchors(readFileSync(abs, 'utf8')));
        if (!anchorsOf.get(abs).has(hash)) bad.push(`${file}:${line}: ${target}: no heading with that anchor`);
      }
    }
    assert.deepEqual(bad, []);
    assert.ok(checked > 40, `only ${checked} relative links found: is the parser broken?`);
  });

  test('the anchor rule agrees with GitHub on the headings we link to', () => {
    const a = anchors('# A\n## An AI agent and a client (NIP-XX)\n## Browser extensions (NIP-07)\n## `npm run demo` setup\n## A\n');
    assert.deepEqual([...a], ['a', 'an-ai-agent-and-a-client-nip-xx', 'browser-extensions-nip-07', 'npm-run-demo-setup', 'a-1']);
  });
});

describe('README', () => {
  const readme = read('README.md');

  test('is under 400 lines, opens with a table of contents, and names the two commands only', () => {
    const lines = readme.split('\n').length;
    assert.ok(lines < 400, `README.md has ${lines} lines`);
    const toc = readme.indexOf('\n## Contents\n');
    assert.ok(toc > 0, 'no "## Contents"');
    assert.equal(readme.slice(0, toc).match(/^## /gm), null, 'a section before the table of contents');
    // Every second-level section is in the table of contents.
    const tocText = readme.slice(toc, readme.indexOf('\n## ', toc + 1));
    for (const h of readme.matchAll(/^## (.*)$/gm)) {
      if (h[1] === 'Contents') continue;
      const slug = [...anchors(`## ${h[1]}`)][0];
      assert.ok(tocText.includes(`(#${slug})`), `"${h[1]}" is not in the table of contents`);
    }
    // The two commands a fresh machine needs: one runs the demo, one every test.
    const section = readme.slice(readme.indexOf('\n## The two commands\n'));
    const rows = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(rows, ['npm run demo', 'npm test']);
  });

  test('has a quick start for each use: web app, extension, Node agent, AGX, CLI', () => {
    for (const h of ['### A web app', '### A browser extension', '### A Node AI agent (NIP-XX)', '### Agent Exchange (AGX)', '### The command line'])
      assert.ok(readme.includes(`\n${h}\n`), `no "${h}"`);
  });

  test('names every file of examples/', () => {
    const missing = readdirSync(path.join(ROOT, 'examples')).filter((f) => !readme.includes(f));
    assert.deepEqual(missing, []);
  });

  test('the NIP-XX agent-and-client block and the AGX block are complete programs, not fragments', () => {
    const js = parse(readme).blocks.filter((b) => b.lang === 'js');
    const agent = js.find((b) => b.text.includes('serveAgent(') && b.text.includes('prompt('));
    const agxBlock = js.find((b) => b.text.includes('agx.AgxClient('));
    for (const b of [agent, agxBlock]) {
      assert.ok(b, 'block not found');
      assert.ok(!b.text.startsWith(FRAGMENT), `README line ${b.line} is marked as a fragment`);
      assert.match(b.text, /^await init\(\);/m, `README line ${b.line} does not await init()`);
    }
  });
});

// What some blocks must print, beyond exiting 0: proof that they did their work.
const PRINTS = [
  { when: /serveAgent\(/, and: /message: 'hello there'/, prints: /hello there/ }, // the agent answered the client
  { when: /resumeRun\(/, and: /listRuns\(/, prints: /^terminal$/m }, // the stored run replayed to its terminal
  { when: /invoice\.review/, and: /\.request\(/, prints: /approved: true/ }, // the AGX task ran
  { when: /pool\.publish\(/, and: /signal: AbortSignal/, prints: /status: 'accepted'/ },
];

describe('js blocks', { concurrency: 2 }, () => {
  const examples = new Map(readdirSync(path.join(ROOT, 'examples')).map((f) => [read(`examples/${f}`), f]));
  const all = docFiles().flatMap((file) =>
    parse(read(file))
      .blocks.filter((b) => b.lang === 'js' || b.lang === 'javascript' || b.lang === 'mjs')
      .map((b) => ({ ...b, file })),
  );
  const runnable = all.filter((b) => !b.text.startsWith(FRAGMENT) && !examples.has(b.text));
  let relay;
  let dir;

  before(async () => {
    const { startDevRelay } = await import('../support/relays.js'); // the WASM core: only for the blocks
    relay = await startDevRelay();
    mkdirSync(path.join(ROOT, 'build'), { recursive: true });
    // Inside the package, so that `import ... from 'nostr-agents'` resolves to this package.
    dir = mkdtempSync(path.join(ROOT, 'build', 'doc-blocks-'));
  });
  after(async () => {
    await relay?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('each is run here, is an examples/ file verbatim, or is marked as a fragment on its first line', () => {
    assert.ok(all.length >= 10, `only ${all.length} js blocks found`);
    assert.ok(runnable.length >= 8, `only ${runnable.length} runnable js blocks`);
    // A fragment says why it does not run.
    for (const b of all.filter((x) => x.text.startsWith(FRAGMENT)))
      assert.match(b.text.split('\n')[0], /^\/\/ fragment: \S.{8,}/, `${b.file}:${b.line}: say what the fragment needs`);
    // A block that starts like an examples/ file is that file, verbatim (examples.test.js runs it).
    for (const [text, name] of examples) {
      const first = text.split('\n')[0];
      for (const blk of all.filter((x) => x.text.split('\n')[0] === first))
        assert.equal(blk.text, text, `${blk.file}:${blk.line} is no longer examples/${name} verbatim`);
    }
  });

  for (const b of runnable) {
    test(`${b.file}:${b.line} runs as written and exits`, async () => {
      const sub = mkdtempSync(path.join(dir, `${path.basename(b.file, '.md')}-${b.line}-`));
      const file = path.join(sub, 'block.mjs');
      writeFileSync(file, b.text.replaceAll(DEFAULT_RELAY, relay.url));
      const result = await runNode(file, sub, BLOCK_DEADLINE_MS);
      assert.equal(result.signal, null, `${b.file}:${b.line} did not exit within ${BLOCK_DEADLINE_MS} ms (a live subscription, an open pool?)\n${result.output}`);
      assert.equal(result.code, 0, `${b.file}:${b.line} failed:\n${result.output}`);
      for (const p of PRINTS.filter((x) => x.when.test(b.text) && x.and.test(b.text)))
        assert.match(result.output, p.prints, `${b.file}:${b.line} ran but did not do its work`);
    });
  }
});

/** Runs `node file` in `cwd`; kills it at the deadline. Resolves { code, signal, output }. */
function runNode(file, cwd, deadline) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadline);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}
