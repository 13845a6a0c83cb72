// The installed tarball in three browser engines (Chromium, Firefox ESR, WebKitGTK: ../../support/
// engines.js), four ways a web app loads it: <script type=module> through an import map with no
// bundler (the .wasm streamed next to dist/core.mjs), the same for the single-file entry, and
// esbuild bundles of both (the split one with dist/core.wasm copied next to the bundle, as the
// README says; the single-file one with no extra step). Every console error or warning, page
// error and failed request fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import * as tools from 'nostr-tools/pure';
import { forEachEngine } from '../../support/engines.js';
import { gzipSize, packAndInstall, readJson, tempDir, PACKAGE_NAME } from '../../support/package.js';
import { startStaticServer } from '../../support/static-server.js';

const consumerDir = fileURLToPath(new URL('../../support/consumer/', import.meta.url));
const TIMEOUT = { timeout: 60_000 };
const PKG_URL = `/node_modules/${PACKAGE_NAME}`;

const work = tempDir('browser');
let pkg; // packAndInstall() result
let server; // startStaticServer() result, serving the scratch project

after(async () => {
  try {
    await server?.close();
  } finally {
    work.remove();
  }
});

before(
  async () => {
    pkg = await packAndInstall(work.dir);
    const app = path.join(pkg.scratch, 'app');
    await mkdir(app);
    for (const f of ['checks.js', 'app-split.js', 'app-single.js']) {
      await copyFile(path.join(consumerDir, f), path.join(app, f));
    }
    // An import map built from the installed package.json, the way an unbundled app would write it.
    const { exports } = await readJson(path.join(pkg.pkgDir, 'package.json'));
    const browserTarget = (e) => (typeof e === 'string' ? e : (e.browser ?? e.import ?? e.default));
    const importMap = {
      imports: {
        [PACKAGE_NAME]: `${PKG_URL}/${browserTarget(exports['.']).replace(/^\.\//, '')}`,
        [`${PACKAGE_NAME}/single`]: `${PKG_URL}/${browserTarget(exports['./single']).replace(/^\.\//, '')}`,
        [`${PACKAGE_NAME}/lite`]: `${PKG_URL}/${browserTarget(exports['./lite']).replace(/^\.\//, '')}`,
      },
    };
    await writeFile(
      path.join(app, 'app-lite.js'),
      (await readFile(path.join(consumerDir, 'app-split.js'), 'utf8'))
        .replace(`from '${PACKAGE_NAME}'`, `from '${PACKAGE_NAME}/lite'`)
        .replace("'browser split'", "'browser lite'"),
    );
    await writeFile(path.join(pkg.scratch, 'lite.html'), page('unbundled, lite', '/app/app-lite.js', importMap));
    await writeFile(path.join(pkg.scratch, 'split.html'), page('unbundled, split', '/app/app-split.js', importMap));
    await writeFile(path.join(pkg.scratch, 'single.html'), page('unbundled, single file', '/app/app-single.js', importMap));
    server = await startStaticServer(pkg.scratch);
  },
  { timeout: 120_000 },
);

function page(title, script, importMap) {
  return [
    '<!doctype html>',
    '<meta charset="utf-8">',
    '<link rel="icon" href="data:,">',
    `<title>${title}</title>`,
    importMap ? `<script type="importmap">${JSON.stringify(importMap)}</script>` : '',
    `<script type="module" src="${script}"></script>`,
    '',
  ].join('\n');
}

/** esbuild, platform=browser, format=esm, minified, of app/<entry> into <outDir>/app.js. */
const bundles = new Map();
function bundle(entry, outDir) {
  if (!bundles.has(outDir)) bundles.set(outDir, buildBundle(entry, outDir));
  return bundles.get(outDir);
}

async function buildBundle(entry, outDir) {
  const outfile = path.join(pkg.scratch, outDir, 'app.js');
  const result = await esbuild.build({
    entryPoints: [path.join(pkg.scratch, 'app', entry)],
    absWorkingDir: pkg.scratch,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  assert.deepEqual(
    result.warnings.map((w) => w.text),
    [],
    'esbuild warned while bundling the package',
  );
  await writeFile(path.join(pkg.scratch, outDir, 'index.html'), page(`esbuild ${entry}`, `/${outDir}/app.js`));
  if (entry === 'app-split.js') await copyFile(path.join(pkg.pkgDir, 'dist/core.wasm'), path.join(pkg.scratch, outDir, 'core.wasm')); // as README says
  const inputs = Object.keys(result.metafile.inputs);
  const code = readFileSync(outfile);
  return { inputs, code, gz: await gzipSize(code) };
}

async function load(engine, urlPath) {
  const before = server.requests.length;
  const r = await engine.runPage(server.origin + urlPath);
  const requests = server.requests.slice(before);
  assert.deepEqual(r.problems, [], `${engine.browser.label}: problems on ${urlPath}:\n${r.problems.join('\n')}`);
  assert.equal(r.result.error, undefined, `${engine.browser.label}: ${urlPath} failed:\n${r.result.error}`);
  return { ...r, requests };
}

function assertChecksPass(result) {
  assert.equal(result.isReady, true, 'isReady() after init()');
  assert.equal(result.secretKeyIsBytes, true, 'generateSecretKey() gives 32 bytes');
  assert.equal(result.randomKeysDiffer, true, 'two generated keys are equal: no randomness');
  assert.equal(result.vectorPublicKeyOk, true, 'BIP-340 vector 0 public key');
  assert.equal(result.pubkeyMatches, true, 'event.pubkey is the signer');
  assert.equal(result.verified, true, 'verifyEvent(signed event)');
  assert.equal(result.tamperedContent, false, 'verifyEvent(tampered content)');
  assert.equal(result.tamperedSig, false, 'verifyEvent(tampered sig)');
  assert.equal(tools.verifyEvent({ ...result.event }), true, 'nostr-tools rejects the event signed in the browser');
  assert.ok(result.initMs > 0 && result.initMs < 10_000, `init took ${result.initMs} ms`);
}

/** The page fetched the .wasm exactly once, at `wasmPath`, as application/wasm, and streamed it. */
function assertStreamedWasm(r, wasmPath) {
  const wasm = r.requests.filter((q) => q.path.split('?')[0].endsWith('.wasm'));
  assert.deepEqual(
    wasm.map((q) => [q.path, q.status, q.contentType]),
    [[wasmPath, 200, 'application/wasm']],
    'the .wasm requests',
  );
  assert.equal(r.wasmProbe.streaming, 1, 'WebAssembly.instantiateStreaming calls');
  assert.deepEqual(r.wasmProbe.streamingFailed, [], 'streaming compilation failed');
  assert.equal(r.wasmProbe.streamingOk, 1, 'streaming compilation succeeded');
  assert.equal(r.wasmProbe.arrayBuffer, 0, 'fell back to ArrayBuffer compilation');
}

/** The single-file build: no .wasm request at all, compiled from the embedded bytes. */
function assertEmbeddedWasm(r) {
  const wasm = r.requests.filter((q) => q.path.split('?')[0].endsWith('.wasm'));
  assert.deepEqual(wasm, [], 'the single-file build fetched a .wasm');
  assert.equal(r.wasmProbe.arrayBuffer, 1, 'compiled from the embedded bytes');
}

function record(t, engine, label, r, extra = '') {
  t.diagnostic(
    `${engine.browser.label}, ${label}: init() ${r.result.initMs.toFixed(1)} ms, ready ${r.result.readyAtMs.toFixed(1)} ms after navigation${extra}`,
  );
}

// The bundles, once for every engine: esbuild picks the browser entries and warns about nothing.
test("esbuild bundles the browser entries: 'nostr-agents' (dist/core.wasm copied next to it) and 'nostr-agents/single'", TIMEOUT, async () => {
  const split = await bundle('app-split.js', 'bundle-split');
  // Bundlers take the ES modules of js/ (the "module" condition), which they tree-shake.
  assert.ok(split.inputs.includes(`node_modules/${PACKAGE_NAME}/js/index.browser.js`), `esbuild inputs: ${split.inputs}`);
  assert.ok(!split.inputs.some((i) => i.includes('index.node.js') || i.includes('nip05-node')), 'esbuild picked the Node entry');
  assert.ok(!split.inputs.some((i) => i.startsWith('node_modules/ws/')), 'esbuild bundled ws');
  assert.ok(!split.code.includes('node:fs'), 'the browser bundle references node:fs');
  const single = await bundle('app-single.js', 'bundle-single');
  assert.ok(single.inputs.includes(`node_modules/${PACKAGE_NAME}/js/index.single.js`), `esbuild inputs: ${single.inputs}`);
});

forEachEngine((engine) => {
  test('browser: <script type=module> + import map, no bundler: streams dist/core.wasm, signs, verifies', TIMEOUT, async (t) => {
    const r = await load(engine, '/split.html');
    assertChecksPass(r.result);
    assertStreamedWasm(r, `${PKG_URL}/dist/core.wasm`);
    const paths = r.requests.map((q) => q.path);
    assert.ok(paths.includes(`${PKG_URL}/dist/index.browser.js`), 'loaded dist/index.browser.js');
    assert.ok(!paths.some((p) => p.includes('index.node.js') || p.includes('core-single')), paths.join(' '));
    record(t, engine, 'unbundled split', r);
  });

  test('browser: nostr-agents/lite through the import map: streams dist/core-lite.wasm only, signs, verifies', TIMEOUT, async (t) => {
    const r = await load(engine, '/lite.html');
    assertChecksPass(r.result);
    assertStreamedWasm(r, `${PKG_URL}/dist/core-lite.wasm`);
    const paths = r.requests.map((q) => q.path);
    assert.ok(paths.includes(`${PKG_URL}/dist/lite.browser.js`), 'loaded dist/lite.browser.js');
    assert.ok(!paths.some((p) => /\/dist\/(core\.mjs|index\.)/.test(p)), paths.join(' '));
    record(t, engine, 'unbundled lite', r);
  });

  test('browser: <script type=module> + import map, single-file entry: no .wasm request, signs, verifies', TIMEOUT, async (t) => {
    const r = await load(engine, '/single.html');
    assertChecksPass(r.result);
    assertEmbeddedWasm(r);
    assert.ok(r.requests.some((q) => q.path === `${PKG_URL}/dist/index.single.js`), 'loaded dist/index.single.js');
    record(t, engine, 'unbundled single', r);
  });

  test("browser: esbuild bundle of 'nostr-agents' with dist/core.wasm copied next to it", TIMEOUT, async (t) => {
    const b = await bundle('app-split.js', 'bundle-split');
    const r = await load(engine, '/bundle-split/');
    assertChecksPass(r.result);
    assertStreamedWasm(r, '/bundle-split/core.wasm');
    record(t, engine, 'esbuild split', r, `; bundle ${b.code.length} B (${b.gz} gz) + core.wasm`);
  });

  test("browser: esbuild bundle of 'nostr-agents/single' works with no extra step", TIMEOUT, async (t) => {
    const b = await bundle('app-single.js', 'bundle-single');
    const r = await load(engine, '/bundle-single/');
    assertChecksPass(r.result);
    assertEmbeddedWasm(r);
    record(t, engine, 'esbuild single', r, `; bundle ${b.code.length} B (${b.gz} gz), nothing else`);
  });

});
