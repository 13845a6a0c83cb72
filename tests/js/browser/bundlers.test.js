// The installed tarball through each bundler a web app uses, built as its docs say with no step of
// ours (no .wasm copied by hand), and run in headless Chromium: Vite (build), webpack 5, Rollup
// with @rollup/plugin-node-resolve and @web/rollup-plugin-import-meta-assets, esbuild with
// `nostr-agents/single`. Each build must print no warning (webpack's "Critical dependency" ones
// included). Where a bundler leaves the .wasm behind (Rollup without the assets plugin, esbuild's
// split entry), init() must fail with INIT_FAILED naming the URL it tried.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tools from 'nostr-tools/pure';
import { CHROMIUM_PATH, launchChromium, runPage } from '../../support/chromium.js';
import { packAndInstall, tempDir } from '../../support/package.js';
import { startStaticServer } from '../../support/static-server.js';

const consumerDir = fileURLToPath(new URL('../../support/consumer/', import.meta.url));
const TIMEOUT = { timeout: 240_000 };

const work = tempDir('bundlers');
let pkg; // packAndInstall() result
let server; // serves the scratch project
let browser;

after(async () => {
  try {
    await browser?.close();
  } finally {
    try {
      await server?.close();
    } finally {
      work.remove();
    }
  }
});

before(
  async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
    pkg = await packAndInstall(work.dir);
    const src = path.join(pkg.scratch, 'src');
    await mkdir(src);
    for (const f of ['checks.js', 'app-split.js', 'app-single.js']) await copyFile(path.join(consumerDir, f), path.join(src, f));
    server = await startStaticServer(pkg.scratch);
    browser = await launchChromium();
  },
  { timeout: 180_000 },
);

const html = (script, type = 'module') => `<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<title>app</title>\n<script ${type === 'module' ? 'type="module" ' : ''}src="${script}"></script>\n`;

async function load(urlPath) {
  const before = server.requests.length;
  const r = await runPage(browser.context, server.origin + urlPath);
  return { ...r, requests: server.requests.slice(before) };
}

function assertChecksPass(r, label) {
  assert.deepEqual(r.problems, [], `${label}: problems on the page`);
  const x = r.result;
  assert.equal(x.error, undefined, `${label}: ${x.error}`);
  assert.equal(x.isReady && x.secretKeyIsBytes && x.randomKeysDiffer && x.vectorPublicKeyOk && x.pubkeyMatches && x.verified, true, JSON.stringify(x));
  assert.equal(x.tamperedContent || x.tamperedSig, false);
  assert.equal(tools.verifyEvent({ ...x.event }), true, `${label}: nostr-tools rejects the event signed in the page`);
}

/** The page fetched one .wasm, the one the bundler emitted, as application/wasm, and streamed it. */
function assertStreamedWasm(r, label) {
  const wasm = r.requests.filter((q) => q.path.split('?')[0].endsWith('.wasm'));
  assert.equal(wasm.length, 1, `${label}: .wasm requests ${JSON.stringify(wasm)}`);
  assert.deepEqual([wasm[0].status, wasm[0].contentType], [200, 'application/wasm'], label);
  assert.equal(r.wasmProbe.streamingOk, 1, `${label}: not compiled while streaming`);
}

/** init() failed with INIT_FAILED naming the .wasm URL the page asked for (a 404 here). */
function assertNamesUrl(r, expectedPath, label) {
  const url = `${server.origin}${expectedPath}`;
  assert.match(r.result.error ?? '', /INIT_FAILED/, `${label}: ${JSON.stringify(r.result).slice(0, 300)}`);
  assert.ok(r.result.error.includes(url), `${label}: the error does not name ${url}:\n${r.result.error}`);
  assert.match(r.result.error, /HTTP 404/);
  assert.match(r.result.error, /nostr-agents\/single/, 'the error says what to do');
  // Chromium's console line for the 404 names no URL.
  const expected = (p) => p.includes(expectedPath) || /Failed to load resource: the server responded with a status of 404/.test(p);
  assert.deepEqual(r.problems.filter((p) => !expected(p)), [], `${label}: other problems`);
}

test('Vite build: no warning, the .wasm emitted as an asset and streamed, the checks pass', TIMEOUT, async (t) => {
  const { build } = await import('vite');
  const root = path.join(pkg.scratch, 'vite-app');
  await mkdir(root);
  await copyFile(path.join(pkg.scratch, 'src/checks.js'), path.join(root, 'checks.js'));
  await copyFile(path.join(pkg.scratch, 'src/app-split.js'), path.join(root, 'main.js'));
  await writeFile(path.join(root, 'index.html'), html('./main.js'));
  const warnings = [];
  // Rolldown's note on slow plugins says how busy the machine is, nothing about the package.
  const warn = (m) => (/^\[PLUGIN_TIMINGS\]/.test(m) ? undefined : warnings.push(m));
  const customLogger = { info() {}, warn, warnOnce: warn, error: (m) => warnings.push(m), clearScreen() {}, hasErrorLogged: () => false, hasWarned: false };
  await build({ root, configFile: false, customLogger, base: './', build: { outDir: path.join(pkg.scratch, 'out-vite'), emptyOutDir: true, target: 'es2022' } });
  assert.deepEqual(warnings, [], 'Vite warned');
  const r = await load('/out-vite/');
  assertChecksPass(r, 'vite');
  assertStreamedWasm(r, 'vite');
  t.diagnostic(`vite: init() ${r.result.initMs.toFixed(1)} ms`);
});

test('webpack 5: no warning (no "Critical dependency"), the .wasm emitted as an asset and streamed, the checks pass', TIMEOUT, async (t) => {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack(
      {
        mode: 'production',
        context: pkg.scratch,
        entry: './src/app-split.js',
        output: { path: path.join(pkg.scratch, 'out-webpack'), filename: 'main.js', clean: true },
        resolve: { modules: [path.join(pkg.scratch, 'node_modules')] },
        infrastructureLogging: { level: 'none' },
        performance: { hints: false },
      },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  assert.deepEqual(info.errors.map((e) => e.message), [], 'webpack errors');
  assert.deepEqual(info.warnings.map((w) => w.message), [], 'webpack warnings');
  await writeFile(path.join(pkg.scratch, 'out-webpack/index.html'), html('main.js', 'classic'));
  const r = await load('/out-webpack/');
  assertChecksPass(r, 'webpack');
  assertStreamedWasm(r, 'webpack');
  t.diagnostic(`webpack: init() ${r.result.initMs.toFixed(1)} ms`);
});

async function rollupBuild(outDir, withAssets) {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const { importMetaAssets } = await import('@web/rollup-plugin-import-meta-assets');
  const warnings = [];
  const b = await rollup({
    input: path.join(pkg.scratch, 'src/app-split.js'),
    plugins: [nodeResolve({ browser: true, rootDir: pkg.scratch }), ...(withAssets ? [importMetaAssets()] : [])],
    onwarn: (w) => warnings.push(w.message),
  });
  await b.write({ dir: path.join(pkg.scratch, outDir), format: 'es' });
  await b.close();
  await writeFile(path.join(pkg.scratch, outDir, 'index.html'), html('app-split.js'));
  return warnings;
}

test('Rollup + node-resolve + import-meta-assets: no warning, the .wasm emitted and streamed, the checks pass', TIMEOUT, async () => {
  assert.deepEqual(await rollupBuild('out-rollup', true), [], 'Rollup warned');
  const r = await load('/out-rollup/');
  assertChecksPass(r, 'rollup');
  assertStreamedWasm(r, 'rollup');
});

test('Rollup + node-resolve alone leaves the .wasm behind: INIT_FAILED names the URL and the way out', TIMEOUT, async () => {
  await rollupBuild('out-rollup-plain', false);
  const r = await load('/out-rollup-plain/');
  assertNamesUrl(r, '/out-rollup-plain/core.wasm', 'rollup without assets plugin');
});

test("esbuild: 'nostr-agents/single' works with no step; the split entry without the .wasm names the URL", TIMEOUT, async () => {
  const { build } = await import('esbuild');
  for (const [entry, out] of [['app-single.js', 'out-esbuild-single'], ['app-split.js', 'out-esbuild-split']]) {
    const r = await build({ entryPoints: [path.join(pkg.scratch, 'src', entry)], absWorkingDir: pkg.scratch, bundle: true, minify: true, format: 'esm', platform: 'browser', outfile: path.join(pkg.scratch, out, 'app.js'), logLevel: 'silent' });
    assert.deepEqual(r.warnings.map((w) => w.text), [], `esbuild warned (${entry})`);
    await writeFile(path.join(pkg.scratch, out, 'index.html'), html('app.js'));
  }
  assertChecksPass(await load('/out-esbuild-single/'), 'esbuild single');
  assertNamesUrl(await load('/out-esbuild-split/'), '/out-esbuild-split/core.wasm', 'esbuild split without a copy');
});

test('a .wasm URL that answers with an HTML page (an SPA fallback) fails naming the URL, not with a WebAssembly parse error', TIMEOUT, async () => {
  // An HTML page where the .wasm should be (served as application/wasm: the server goes by extension).
  await writeFile(path.join(pkg.scratch, 'out-esbuild-split', 'core.wasm'), '<!doctype html><title>app</title>\n');
  const r = await load('/out-esbuild-split/');
  assert.match(r.result.error ?? '', /INIT_FAILED/);
  assert.ok(r.result.error.includes(`${server.origin}/out-esbuild-split/core.wasm is not a WebAssembly module`), r.result.error);
});
