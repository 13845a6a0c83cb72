// Pay for what you import. Every module the package entries reach has no top-level effect (so a
// bundler keeps only what an app uses, package.json "sideEffects": false); a crypto-only app
// carries none of the protocol layers and at most 15 KB gz of JS; the dist/ files ship source maps
// and short lines (an uncaught error prints its source line). The bundle sizes of the four
// reference apps with Vite and esbuild are `npm run bench` rows (bench/bundle-size.mjs).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { JS_GOAL, buildEsbuild, scratchProject } from '../../bench/bundle-size.mjs';
import { repoRoot, run } from '../support/package.js';

const root = repoRoot.replace(/\/$/, '');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const project = scratchProject(root);
after(() => project.remove());

// The modules the package's entries are made of: js/ sources (what bundlers get through the
// "module" condition) and the dist/ bundles (Node, no bundler, other bundlers).
const ENTRIES = [
  'js/index.browser.js',
  'js/index.node.js',
  'js/index.single.js',
  'js/index.lite.browser.js',
  'js/index.lite.node.js',
  'dist/index.browser.js',
  'dist/index.node.js',
  'dist/index.single.js',
  'dist/lite.browser.js',
  'dist/lite.node.js',
];
// emcc's loaders (generated code: one IIFE each) are left out of the strict check: "sideEffects":
// false lets a bundler drop them whole when unused (checked below).
const isLoader = (p) => /\/dist\/core(-single|-lite|-web)?\.mjs$/.test(p);

/**
 * What Rollup keeps of `import '<entry>'` when every module of the package counts as having
 * effects: the top-level statements that a bundler must keep (Rollup's analysis is exact enough
 * to tell a pure declaration from an effect; esbuild also keeps some pure ones, such as a class
 * with a computed key).
 */
async function effectsOf(entry) {
  const abs = path.resolve(root, entry);
  const b = await rollup({
    input: 'entry',
    treeshake: { moduleSideEffects: (id, external) => !external },
    onwarn() {},
    plugins: [
      {
        name: 'bare-import',
        resolveId(source, importer) {
          if (source === 'entry') return source;
          if (!source.startsWith('.') && !source.startsWith('/')) return { id: source, external: true };
          const p = path.resolve(importer ? path.dirname(importer) : root, source);
          return isLoader(p) ? { id: p, external: true } : p;
        },
        load: (id) => (id === 'entry' ? `import ${JSON.stringify(abs)};` : null),
      },
    ],
  });
  const { output } = await b.generate({ format: 'es' });
  await b.close();
  return output[0].code.replace(/^\s*\/\/.*\n/gm, '').trim();
}

test('package.json declares the package free of side effects', () => {
  assert.equal(manifest.sideEffects, false);
});

test('no module an entry reaches has a top-level effect (Rollup keeps nothing of a bare import)', async () => {
  const kept = {};
  for (const entry of ENTRIES) {
    const text = await effectsOf(entry);
    if (text) kept[entry] = text.slice(0, 1500);
  }
  assert.deepEqual(kept, {}, 'top-level statements a bundler must keep (mark them /* @__PURE__ */, or move them into a function)');
});

test('the check can fail: a top-level call is kept', async () => {
  const probe = path.join(project.dir, 'probe.js');
  writeFileSync(probe, `import { NostrError } from ${JSON.stringify(path.join(root, 'js/errors.js'))};\nexport const x = new NostrError('X');\nconsole.log('effect');\n`);
  const text = await effectsOf(probe);
  assert.match(text, /console\.log\('effect'\)/);
  assert.match(text, /new NostrError/);
});

/** esbuild (not minified) of an app in the scratch project; returns the output text. */
async function esbuildText(source) {
  const file = path.join(project.dir, `app-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(file, source);
  const r = await build({ entryPoints: [file], absWorkingDir: project.dir, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent', metafile: true });
  return { text: r.outputFiles[0].text, inputs: Object.keys(r.metafile.inputs) };
}

async function rollupText(source) {
  const file = path.join(project.dir, `app-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(file, source);
  const b = await rollup({ input: file, plugins: [nodeResolve({ browser: true })], onwarn() {} });
  const { output } = await b.generate({ format: 'es', inlineDynamicImports: true });
  await b.close();
  return output.map((o) => o.code ?? '').join('\n');
}

// Names only the protocol layers define.
const PROTOCOL = ['class AgxClient', 'class AgxRequester', 'function serveAgent', 'function startBunker', 'class Nip46Signer', 'class RelayPool', 'function prompt'];
const CRYPTO_APP = readFileSync(path.join(root, 'bench/apps/crypto.js'), 'utf8');

test('a crypto-only app bundled by esbuild or Rollup carries none of the protocol layers', async () => {
  const es = await esbuildText(CRYPTO_APP);
  assert.ok(es.inputs.some((i) => i.endsWith('/js/index.browser.js')) && !es.inputs.some((i) => i.endsWith('/dist/index.browser.js')), `esbuild did not take the "module" entry: ${es.inputs.join(' ')}`);
  const ro = await rollupText(CRYPTO_APP);
  for (const [name, text] of [['esbuild', es.text], ['Rollup', ro]]) {
    for (const p of PROTOCOL) assert.ok(!text.includes(p), `${name}: the crypto-only bundle has ${p}`);
    assert.match(text, /function finalizeEvent/, `${name}: no finalizeEvent in the bundle`);
  }
  // The same app through the prebuilt bundle (a bundler without the "module" condition).
  const text = await rollupText(CRYPTO_APP.replace("from 'nostr-agents'", `from ${JSON.stringify(path.join(root, 'dist/index.browser.js'))}`));
  for (const p of PROTOCOL) assert.ok(!text.includes(p), `dist/index.browser.js: the crypto-only bundle has ${p}`);
});

test('crypto only: at most 15 KB gz of JS from the main entry and from nostr-agents/lite (esbuild --minify)', async (t) => {
  for (const app of ['crypto-main', 'crypto-lite']) {
    const r = await buildEsbuild(project.dir, app);
    assert.deepEqual(r.warnings, [], `${app}: esbuild warned`);
    t.diagnostic(`${app}: JS ${r.jsRaw} B raw, ${r.jsGz} B gz; ${r.wasm.map((w) => `${w.file} ${w.gz} B gz`).join(', ')}`);
    assert.ok(r.jsGz <= JS_GOAL, `${app}: ${r.jsGz} B gz of JS (goal ${JS_GOAL})`);
  }
});

test('an app that uses only NostrError does not load the WASM loader (sideEffects: false)', async () => {
  const { text } = await esbuildText("import { NostrError } from 'nostr-agents';\nconsole.log(new NostrError('X').code);\n");
  assert.doesNotMatch(text, /createCore|wasmUrl|WebAssembly/);
  assert.ok(text.length < 2000, `${text.length} B for NostrError alone:\n${text.slice(0, 2000)}`);
});

// ------------------------------------------------------------------ source maps and line lengths
const shipped = manifest.files.filter((f) => f.startsWith('dist/') && /\.m?js$/.test(f));
const MAX_LINE = 1000;

test('every dist/ JS file ships a source map whose sources ship too, and has no line over 1,000 characters', () => {
  assert.ok(shipped.length >= 8, shipped.join(' '));
  for (const f of shipped) {
    const text = readFileSync(path.join(root, f), 'utf8');
    const longest = Math.max(...text.split('\n').map((l) => l.length));
    assert.ok(longest <= MAX_LINE, `${f}: a line of ${longest} characters`);
    const m = text.match(/\n\/\/# sourceMappingURL=(\S+)\n$/);
    assert.ok(m, `${f}: no sourceMappingURL comment at its end`);
    const mapFile = path.join(root, path.dirname(f), m[1]);
    assert.ok(manifest.files.includes(path.relative(root, mapFile)), `${f}: its map ${m[1]} is not in package.json "files"`);
    const map = JSON.parse(readFileSync(mapFile, 'utf8'));
    assert.equal(map.version, 3);
    assert.ok(map.mappings.length > 100, `${f}: an empty map`);
    map.sources.forEach((s, i) => {
      const inline = map.sourcesContent?.[i];
      assert.ok(inline || existsSync(path.join(path.dirname(mapFile), map.sourceRoot ?? '', s)), `${f}: source ${s} neither ships nor is embedded`);
    });
  }
});

test("an uncaught error from finalizeEvent in Node prints a short source line, and --enable-source-maps names js/", async () => {
  const script = "import { init, finalizeEvent } from 'nostr-agents';\nawait init();\nfinalizeEvent({ kind: 1, created_at: 1, tags: 'x', content: '' }, new Uint8Array(32).fill(1));\n";
  for (const flags of [[], ['--enable-source-maps']]) {
    const r = await run(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: root, timeoutMs: 30_000 });
    assert.notEqual(r.code, 0, 'finalizeEvent accepted tags that are not an array');
    assert.match(r.stderr, /NostrError|INVALID/);
    const longest = Math.max(...r.stderr.split('\n').map((l) => l.length));
    assert.ok(longest <= MAX_LINE, `a printed line of ${longest} characters`);
    if (flags.length) assert.match(r.stderr, /js\/[\w/-]+\.js:\d+/, `the stack does not name a js/ source:\n${r.stderr}`);
  }
});
