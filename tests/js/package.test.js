// The published package, as a user installs it: `npm pack`, the tarball's exact contents, an
// offline install into a scratch project, both entry points imported in a fresh Node process, and
// the declarations type-checked there. Needs the WASM build in dist/ (fails with a clear message
// if it is missing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as tools from 'nostr-tools/pure';
import {
  DIST_FILES,
  exportTargets,
  gzipSize,
  packAndInstall,
  readJson,
  repoRoot,
  run,
  staleSources,
  tempDir,
} from '../support/package.js';

const consumerDir = fileURLToPath(new URL('../support/consumer/', import.meta.url));
const TIMEOUT = { timeout: 60_000 };

const work = tempDir('package');
after(() => work.remove());

let pkg; // { tarball, files, size, unpackedSize, scratch, pkgDir, installMs }
before(
  async () => {
    pkg = await packAndInstall(work.dir);
    for (const f of ['checks.js', 'node-check.js', 'usage.ts']) {
      await copyFile(path.join(consumerDir, f), path.join(pkg.scratch, f));
    }
  },
  { timeout: 120_000 },
);

/** The files the tarball must hold: computed from the repository, so a new js/ module is expected. */
function expectedFiles() {
  const out = ['package.json', ...DIST_FILES];
  const walk = (dir) => {
    for (const ent of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = `${dir}/${ent.name}`;
      if (ent.isDirectory()) walk(rel);
      else if (/\.(test|spec)\.[cm]?[jt]s$/.test(ent.name)) continue;
      else if (/\.(js|d\.ts)$/.test(ent.name)) out.push(rel);
    }
  };
  walk('js');
  // The guides README links to (docs/*.md): shipped, so the links work wherever the package is read.
  for (const f of readdirSync(path.join(repoRoot, 'docs'))) if (f.endsWith('.md')) out.push(`docs/${f}`);
  // npm always ships these when they exist.
  for (const f of readdirSync(repoRoot)) if (/^(README|LICEN[CS]E)(\.|$)/i.test(f)) out.push(f);
  return out.sort();
}

test("every relative link of the shipped README and docs/ leads to a file in the tarball (README's docs/ links work on npm)", TIMEOUT, async () => {
  const docs = pkg.files.filter((f) => /^(README\.md|docs\/[^/]+\.md)$/.test(f));
  assert.ok(docs.includes('README.md') && docs.some((f) => f.startsWith('docs/')), JSON.stringify(docs));
  const links = [];
  for (const f of docs) {
    const text = await readFile(path.join(pkg.pkgDir, f), 'utf8');
    // Markdown links and images, [text](target) and reference definitions [x]: target.
    for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm)) {
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // a URL or an anchor on the page
      links.push([f, target, path.posix.normalize(path.posix.join(path.posix.dirname(f), decodeURIComponent(target.split('#')[0])))]);
    }
  }
  assert.ok(links.some(([f, , to]) => f === 'README.md' && to.startsWith('docs/')), 'README links to docs/');
  const broken = links.filter(([, , to]) => !pkg.files.includes(to));
  assert.deepEqual(broken.map(([f, target]) => `${f} -> ${target}`), []);
});

/** Runs tests/support/consumer/node-check.js in the scratch project; returns its JSON report. */
async function nodeCheck(specifier) {
  const res = await run(process.execPath, ['node-check.js', specifier], { cwd: pkg.scratch, timeoutMs: 30_000 });
  const line = res.stdout.trim().split('\n').pop() || '{}';
  let report;
  try {
    report = JSON.parse(line);
  } catch {
    assert.fail(`node-check printed no JSON (exit ${res.code})\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  }
  assert.equal(report.error, undefined, `import '${specifier}' failed in Node:\n${report.error}\n${res.stderr}`);
  assert.equal(res.code, 0, res.stderr);
  return { ...report, processMs: res.ms, stderr: res.stderr };
}

function assertChecksPass(r) {
  assert.equal(r.isReady, true, 'isReady() after init()');
  assert.equal(r.secretKeyIsBytes, true, 'generateSecretKey() gives 32 bytes');
  assert.equal(r.randomKeysDiffer, true, 'two generated keys are equal: no randomness');
  assert.equal(r.vectorPublicKeyOk, true, 'BIP-340 vector 0 public key');
  assert.equal(r.pubkeyMatches, true, 'event.pubkey is the signer');
  assert.equal(r.verified, true, 'verifyEvent(signed event)');
  assert.equal(r.tamperedContent, false, 'verifyEvent(tampered content)');
  assert.equal(r.tamperedSig, false, 'verifyEvent(tampered sig)');
  // An independent implementation must accept what the package signed.
  assert.equal(tools.verifyEvent({ ...r.event }), true, 'nostr-tools rejects the signed event');
  assert.ok(r.initMs >= 0 && r.initMs < 10_000, `init took ${r.initMs} ms`);
}

test('the tarball holds exactly the JS entry points, their types and the built module', TIMEOUT, async (t) => {
  assert.deepEqual(pkg.files, expectedFiles());
  for (const f of pkg.files) {
    assert.doesNotMatch(f, /^(src|tests|build|bindings|cmake|scripts|third_party|node_modules|bench|\.ci)\//, f);
  }

  // Everything package.json points at is shipped.
  const manifest = await readJson(path.join(pkg.pkgDir, 'package.json'));
  const targets = [manifest.main, manifest.types, ...exportTargets(manifest.exports)].filter(Boolean);
  assert.ok(targets.length >= 5, `too few entry points: ${targets}`);
  for (const target of targets) {
    assert.ok(pkg.files.includes(path.posix.normalize(target)), `package.json points at ${target}, not in the tarball`);
  }

  // Every relative import in a shipped module or declaration resolves to a shipped file.
  for (const f of pkg.files.filter((x) => /\.(m?js|d\.ts)$/.test(x) && !x.startsWith('dist/'))) {
    const text = await readFile(path.join(pkg.pkgDir, f), 'utf8');
    for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), spec));
      const candidates = f.endsWith('.d.ts') ? [target, target.replace(/\.js$/, '.d.ts')] : [target];
      assert.ok(
        candidates.some((c) => pkg.files.includes(c)),
        `${f} imports '${spec}', which the tarball does not have`,
      );
    }
  }

  // The shipped build is the repository's build, and the single-file twin embeds the same .wasm.
  for (const f of DIST_FILES) {
    assert.ok(
      readFileSync(path.join(pkg.pkgDir, f)).equals(readFileSync(path.join(repoRoot, f))),
      `${f} differs from the repository's`,
    );
  }
  const wasm = readFileSync(path.join(pkg.pkgDir, 'dist/core.wasm'));
  assert.deepEqual([...wasm.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'dist/core.wasm is not a wasm module');
  const single = readFileSync(path.join(pkg.pkgDir, 'dist/core-single.mjs'), 'utf8');
  // The base64 module: one string per line at the end of the file (scripts/bundle.mjs), joined.
  const prefix = 'data:application/octet-stream;base64,';
  const at = single.lastIndexOf(prefix); // the loader names the prefix itself first
  assert.ok(at >= 0, 'dist/core-single.mjs embeds no base64 wasm');
  const embedded = single.slice(at + prefix.length, single.indexOf(']', at)).replace(/"\s*,\s*"/g, '').replace(/"[\s\S]*$/, '');
  assert.match(embedded, /^[A-Za-z0-9+/=]+$/);
  assert.ok(
    Buffer.from(embedded, 'base64').equals(wasm),
    'dist/core-single.mjs embeds a different .wasm than dist/core.wasm: rebuild both (a mixed or stale dist/)',
  );

  const stale = staleSources();
  if (stale.length) t.diagnostic(`WARNING: newer than dist/core.wasm (stale build?): ${stale.slice(0, 5).join(', ')}`);
  t.diagnostic(
    `tarball ${pkg.size} B (${pkg.files.length} files, ${pkg.unpackedSize} B unpacked); ` +
      `core.wasm ${wasm.length} B (${await gzipSize(wasm)} gz); ` +
      `core.mjs ${readFileSync(path.join(pkg.pkgDir, 'dist/core.mjs')).length} B; ` +
      `core-single.mjs ${single.length} B (${await gzipSize(Buffer.from(single))} gz); ` +
      `npm install --offline ${Math.round(pkg.installMs)} ms`,
  );
});

test("node: import 'nostr-agents' from the installed tarball signs and verifies", TIMEOUT, async (t) => {
  const r = await nodeCheck('nostr-agents');
  assert.equal(r.resolved, pathToFileURL(path.join(pkg.pkgDir, 'dist/index.node.js')).href, 'resolved entry');
  assertChecksPass(r);
  assert.equal(r.stderr, '', 'the import printed to stderr');
  t.diagnostic(`node split: import ${r.importMs.toFixed(1)} ms, init ${r.initMs.toFixed(1)} ms, process ${Math.round(r.processMs)} ms`);
});

test("node: import 'nostr-agents/single' from the installed tarball signs and verifies", TIMEOUT, async (t) => {
  const r = await nodeCheck('nostr-agents/single');
  assert.equal(r.resolved, pathToFileURL(path.join(pkg.pkgDir, 'dist/index.single.js')).href, 'resolved entry');
  assertChecksPass(r);
  assert.equal(r.stderr, '', 'the import printed to stderr');
  t.diagnostic(`node single: import ${r.importMs.toFixed(1)} ms, init ${r.initMs.toFixed(1)} ms, process ${Math.round(r.processMs)} ms`);
});

test("node: import 'nostr-agents/lite' from the installed tarball signs, verifies and leaves the protocol layers out", TIMEOUT, async (t) => {
  const r = await nodeCheck('nostr-agents/lite');
  assert.equal(r.resolved, pathToFileURL(path.join(pkg.pkgDir, 'dist/lite.node.js')).href, 'resolved entry');
  assertChecksPass(r);
  assert.equal(r.stderr, '', 'the import printed to stderr');
  const check = await run(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('nostr-agents/lite'); console.log(JSON.stringify(['RelayPool', 'agx', 'nipxx', 'serveAgent', 'LocalSigner', 'nip59'].map((k) => k in m)))"],
    { cwd: pkg.scratch, timeoutMs: 30_000 },
  );
  assert.equal(check.code, 0, check.stderr);
  assert.deepEqual(JSON.parse(check.stdout.trim()), [false, false, false, false, true, true]);
  const lite = readFileSync(path.join(pkg.pkgDir, 'dist/core-lite.wasm'));
  const full = readFileSync(path.join(pkg.pkgDir, 'dist/core.wasm'));
  assert.ok(lite.length < full.length, `core-lite.wasm (${lite.length} B) is not smaller than core.wasm (${full.length} B)`);
  t.diagnostic(`node lite: import ${r.importMs.toFixed(1)} ms, init ${r.initMs.toFixed(1)} ms; core-lite.wasm ${lite.length} B (${await gzipSize(lite)} gz)`);
});

test('TypeScript (module nodenext) type-checks a consumer against the installed declarations', TIMEOUT, async () => {
  const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
  assert.ok(existsSync(tsc), `${tsc} is missing: run npm ci`);
  const tsconfig = (files) =>
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        // No @types/node and no DOM: the declarations must stand on their own.
        lib: ['es2022'],
        types: [],
        skipLibCheck: false,
      },
      files,
    });
  await writeFile(path.join(pkg.scratch, 'tsconfig.json'), tsconfig(['usage.ts']));
  const ok = await run(tsc, ['-p', 'tsconfig.json'], { cwd: pkg.scratch, timeoutMs: 50_000 });
  assert.equal(ok.code, 0, `tsc failed on the installed package:\n${ok.stdout}${ok.stderr}`);

  // And the check can fail: a wrong call is reported against the installed declarations.
  await writeFile(
    path.join(pkg.scratch, 'bad.ts'),
    "import { finalizeEvent } from 'nostr-agents';\nfinalizeEvent({ kind: '1' }, 'not bytes');\n",
  );
  await writeFile(path.join(pkg.scratch, 'tsconfig.bad.json'), tsconfig(['bad.ts']));
  const bad = await run(tsc, ['-p', 'tsconfig.bad.json'], { cwd: pkg.scratch, timeoutMs: 50_000 });
  assert.notEqual(bad.code, 0, 'tsc accepted an ill-typed call');
  assert.match(bad.stdout + bad.stderr, /bad\.ts\(2,\d+\): error TS2/);
});
