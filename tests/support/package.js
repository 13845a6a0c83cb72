// The package as a user gets it: `npm pack` of the repository, installed offline into a scratch
// project. Also: running child processes with a time limit, and temporary directories that are
// removed even when a test fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const PACKAGE_NAME = 'nostr-agents';

/** The built files the package ships; `npm pack` would silently leave out a missing one. */
export const DIST_FILES = [
  'dist/core.mjs',
  'dist/core.wasm',
  'dist/core-single.mjs',
  // The bundled entries (scripts/bundle.mjs), rebuilt from js/ before every pack.
  'dist/index.browser.js',
  'dist/index.node.js',
  'dist/index.single.js',
  // `nostr-agents/lite`: the module without the protocol layers, and its bundled entries.
  'dist/core-lite.mjs',
  'dist/core-lite.wasm',
  'dist/lite.browser.js',
  'dist/lite.node.js',
  // RelayPool's verifyWorkers: the worker script beside the bundles that start it.
  'dist/verify-worker.js',
];
// Each JS file of dist/ ships its source map (scripts/bundle.mjs).
DIST_FILES.push(...DIST_FILES.filter((f) => /\.m?js$/.test(f)).map((f) => `${f}.map`));

/** Throws a clear message when the WASM build has not been run. */
export function assertDistBuilt() {
  const missing = DIST_FILES.filter((f) => !existsSync(path.join(repoRoot, f)));
  if (missing.length) {
    throw new Error(
      `the WASM build is missing (${missing.join(', ')}): run \`npm run build\` (or ` +
        '`emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release && cmake --build build/wasm`) first',
    );
  }
}

/** Sources newer than dist/core.wasm: a hint that the tests run against a stale build. */
export function staleSources() {
  const built = statSync(path.join(repoRoot, 'dist/core.wasm')).mtimeMs;
  const newer = [];
  const walk = (dir) => {
    for (const ent of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.join(dir, ent.name);
      if (ent.isDirectory()) walk(rel);
      else if (statSync(path.join(repoRoot, rel)).mtimeMs > built) newer.push(rel);
    }
  };
  for (const dir of ['src', 'bindings', 'cmake']) if (existsSync(path.join(repoRoot, dir))) walk(dir);
  return newer;
}

/** A temporary directory and a remove() that never throws. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), `nostr-agents-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs a command without a shell; resolves with { code, signal, stdout, stderr, ms }. The child is
 * killed (SIGKILL) after timeoutMs, and then the promise rejects.
 */
export function run(cmd, args, { cwd = repoRoot, env = {}, timeoutMs = 60_000, input } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    if (input !== undefined) child.stdin.end(input);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const res = { code, signal, stdout, stderr, ms: performance.now() - started };
      if (timedOut) {
        const err = new Error(`${cmd} ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr}`);
        err.result = res;
        reject(err);
      } else resolve(res);
    });
  });
}

/** Like run(), but rejects unless the command exits 0. */
export async function runOk(cmd, args, opts) {
  const res = await run(cmd, args, opts);
  if (res.code !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${res.code ?? res.signal}\n${res.stdout}\n${res.stderr}`);
  }
  return res;
}

// npm with its own cache in the work dir, so that parallel test runs share nothing and the user's
// ~/.npm stays untouched; no network, no update check.
function npmEnv(workDir) {
  return {
    npm_config_cache: path.join(workDir, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_loglevel: 'error',
  };
}

/** `npm pack` of the repository into workDir; returns { tarball, files, size, unpackedSize }. */
export async function packRepo(workDir) {
  assertDistBuilt();
  // The entry bundles must match js/ as it is now: remade when js/ changed since the last build
  // (seconds of CPU; otherwise the script only checks a sum).
  await runOk(process.execPath, [path.join(repoRoot, 'scripts/bundle.mjs')], { cwd: repoRoot, timeoutMs: 180_000 });
  const dest = path.join(workDir, 'pack');
  await mkdir(dest, { recursive: true });
  // --ignore-scripts: the tests check what is on disk, and must never start a build.
  const { stdout } = await runOk('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    env: npmEnv(workDir),
  });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  const tarball = path.join(dest, info.filename);
  // Trust the tarball itself, not npm's report of it.
  const { stdout: listing } = await runOk('tar', ['-tzf', tarball]);
  const files = listing
    .split('\n')
    .filter((l) => l && !l.endsWith('/'))
    .map((l) => l.replace(/^package\//, ''))
    .sort();
  return { tarball, files, size: statSync(tarball).size, unpackedSize: info.unpackedSize };
}

/**
 * Creates a scratch ESM project in workDir/scratch and installs the tarball into it offline.
 * Returns { scratch, pkgDir, installMs }.
 */
export async function installTarball(workDir, tarball) {
  const scratch = path.join(workDir, 'scratch');
  await mkdir(scratch, { recursive: true });
  await writeFile(
    path.join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch-app', version: '0.0.0', private: true, type: 'module' }, null, 2),
  );
  // Runtime dependencies (ws) come from the repo's own node_modules, packed, so the install
  // stays offline.
  const deps = Object.keys((await readJson(path.join(repoRoot, 'package.json'))).dependencies ?? {});
  const depTarballs = [];
  for (const dep of deps) {
    const { stdout } = await runOk('npm', ['pack', '--silent', '--pack-destination', workDir, path.join(repoRoot, 'node_modules', dep)], {
      env: npmEnv(workDir),
    });
    depTarballs.push(path.join(workDir, stdout.trim().split('\n').pop()));
  }
  const { ms } = await runOk('npm', ['install', '--offline', '--no-audit', '--no-fund', ...depTarballs, tarball], {
    cwd: scratch,
    env: npmEnv(workDir),
  });
  const pkgDir = path.join(scratch, 'node_modules', PACKAGE_NAME);
  if (!existsSync(path.join(pkgDir, 'package.json'))) throw new Error(`npm install did not create ${pkgDir}`);
  return { scratch, pkgDir, installMs: ms };
}

/** packRepo + installTarball. */
export async function packAndInstall(workDir) {
  const pack = await packRepo(workDir);
  const install = await installTarball(workDir, pack.tarball);
  return { ...pack, ...install };
}

export async function readJson(file) {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** Every file path an `exports` map (or a part of it) points at. */
export function exportTargets(exp) {
  if (typeof exp === 'string') return [exp];
  if (exp && typeof exp === 'object') return Object.values(exp).flatMap(exportTargets);
  return [];
}

/** gzip -9 size in bytes. */
export async function gzipSize(buf) {
  const { gzipSync, constants } = await import('node:zlib');
  return gzipSync(buf, { level: constants.Z_BEST_COMPRESSION }).length;
}
