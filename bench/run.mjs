// `npm run bench`: nostr-agents against nostr-tools, nostr-wasm and @rust-nostr/nostr-sdk.
//
// One Node process. Every row runs each library for several rounds, round-robin (the starting
// library rotates), so machine noise hits all of them alike; each cell is the median over rounds
// of that round's throughput. Inputs are prepared outside the timed region. Ratios are
// "ours / peer" speedups (> 1 = we are faster). Init-to-ready runs one fresh child process per
// library and run. The table is printed and written to build/bench-results.md.
//
//   node bench/run.mjs                    full run (~2-3 min on 2 cores)
//   node bench/run.mjs --quick            smoke run (a few ops per cell)
//   node bench/run.mjs --only sign,verify rows whose key starts with one of the names
//   node bench/run.mjs --rounds 7 --budget 0.5   rounds per row, seconds per library per round
//   node bench/run.mjs --json FILE        also write the raw numbers as JSON
//   node bench/run.mjs --ours DIR         benchmark another copy of the package (DIR/js, DIR/dist),
//                                         e.g. a patched build, against the same peers
//   node bench/run.mjs --clock cpu        time by process CPU time instead of wall time (steadier
//                                         on a busy machine; counts GC and compiler threads too)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import os from 'node:os';

import { LIBS, PEERS, loadLibraries } from './libs.mjs';
import { makeCases } from './cases.mjs';
import { measureBundleSizes, renderBundleRows } from './bundle-size.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = { quick: false, only: null, rounds: null, budget: null, json: null, initRuns: null, clock: 'wall', ours: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (a.includes('=')) return a.slice(a.indexOf('=') + 1);
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--quick') o.quick = true;
    else if (a.startsWith('--only')) o.only = val().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a.startsWith('--rounds')) o.rounds = Number(val());
    else if (a.startsWith('--budget')) o.budget = Number(val());
    else if (a.startsWith('--init-runs')) o.initRuns = Number(val());
    else if (a.startsWith('--json')) o.json = val();
    else if (a.startsWith('--ours')) o.ours = val();
    else if (a.startsWith('--clock')) {
      o.clock = val();
      if (o.clock !== 'wall' && o.clock !== 'cpu') throw new Error('--clock is wall or cpu');
    }
    else if (a === '--help' || a === '-h') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(0, 14).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  o.rounds ??= o.quick ? 3 : 7;
  o.budget ??= o.quick ? 0.03 : 0.2; // seconds per library per round (scaled per row)
  o.initRuns ??= o.quick ? 2 : 5;
  return o;
}
const opts = parseArgs(process.argv.slice(2));
const OURS = resolve(opts.ours ?? ROOT);
const selected = (key) => !opts.only || opts.only.some((p) => key === p || key.startsWith(p));

// ---------------------------------------------------------------- timing
const wallNow = () => performance.now();
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const now = opts.clock === 'cpu' ? cpuNow : wallNow;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times one batch of n ops: build(n) prepares inputs (untimed) and returns the timed closure.
 * Returns seconds; with `withUnits`, [seconds, units] where units is what the closure returned
 * (a work count, e.g. PoW attempts) or n.
 */
async function timeBatch(build, n, withUnits = false) {
  const run = build(n);
  const t0 = now();
  let r = run();
  if (r && typeof r.then === 'function') r = await r;
  const t = (now() - t0) / 1000;
  return withUnits ? [t, typeof r === 'number' ? r : n] : t;
}

/** Warm-up and calibration: ops per round such that one round takes about `seconds`. */
async function calibrate(build, seconds, maxOps) {
  let n = 1;
  let t = await timeBatch(build, n); // first call: JIT warm-up, lazy tables
  const target = Math.min(0.05, seconds / 3);
  while (t < target && n < maxOps) {
    n = Math.min(maxOps, n * (t < target / 8 ? 8 : 2));
    t = await timeBatch(build, n);
  }
  const perOp = t / n;
  return Math.max(1, Math.min(maxOps, Math.round(seconds / perOp)));
}

/** Measures every library of a row, interleaved round-robin. Returns {lib: ops/s | status}. */
async function measureRow(row) {
  const libs = LIBS.filter((l) => typeof row.impl[l] === 'function');
  const status = {};
  for (const l of LIBS) if (typeof row.impl[l] !== 'function') status[l] = row.impl[l] ?? 'n/a';
  const budget = opts.budget * (row.weight ?? 1);
  const counts = {};
  for (const l of libs) {
    try {
      if (row.check) await row.check(l);
      let n = await calibrate(row.impl[l], budget, row.maxOps ?? 1e6);
      if (row.roundTo && n >= row.roundTo) n = Math.round(n / row.roundTo) * row.roundTo;
      counts[l] = n;
    } catch (err) {
      status[l] = 'FAIL';
      console.error(`  ${row.key} / ${l}: ${err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : err}`);
    }
  }
  const live = libs.filter((l) => !(l in status));
  const samples = Object.fromEntries(live.map((l) => [l, []]));
  for (let r = 0; r < opts.rounds; r++) {
    for (let k = 0; k < live.length; k++) {
      const l = live[(r + k) % live.length];
      if (l in status) continue;
      try {
        const [t, units] = await timeBatch(row.impl[l], counts[l], true);
        samples[l].push(units / t);
      } catch (err) {
        status[l] = 'FAIL';
        console.error(`  ${row.key} / ${l}: ${err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : err}`);
      }
    }
  }
  const out = { ...status };
  for (const l of live) if (!(l in status)) out[l] = { opsPerSec: median(samples[l]), samples: samples[l], opsPerRound: counts[l] };
  return out;
}

// ---------------------------------------------------------------- init-to-ready (child processes)
// Ours through what package.json exports (the bundled entries in dist/ when they exist).
const entryFile = (name) => (existsSync(join(OURS, `dist/${name}`)) ? `dist/${name}` : `js/${name}`);
const INIT_SCRIPTS = {
  ours: `const m = await import(${JSON.stringify(pathToFileURL(join(OURS, entryFile('index.node.js'))).href)}); await m.init();`,
  'ours (single-file)': `const m = await import(${JSON.stringify(pathToFileURL(join(OURS, entryFile('index.single.js'))).href)}); await m.init();`,
  ...(existsSync(join(OURS, 'dist/lite.node.js'))
    ? { 'ours (lite)': `const m = await import(${JSON.stringify(pathToFileURL(join(OURS, 'dist/lite.node.js')).href)}); await m.init();` }
    : {}),
  'nostr-tools': `const m = await import('nostr-tools'); m.getPublicKey(m.generateSecretKey());`,
  'nostr-wasm': `const m = await import('nostr-wasm'); const nw = await m.initNostrWasm(); nw.getPublicKey(nw.generateSecretKey());`,
  'rust-nostr': `const m = (await import('@rust-nostr/nostr-sdk')).default; await m.loadWasmAsync(); m.Keys.generate().publicKey;`,
};

function initOnce(name) {
  const body = `const t0 = performance.now(); ${INIT_SCRIPTS[name]} process.stdout.write('INIT ' + (performance.now() - t0));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', body], { cwd: ROOT, encoding: 'utf8' });
  const m = /INIT ([\d.]+)/.exec(r.stdout || '');
  if (r.status !== 0 || !m) throw new Error(`${name}: ${(r.stderr || '').split('\n').slice(0, 4).join(' | ')}`);
  return Number(m[1]);
}

async function measureInit() {
  const names = Object.keys(INIT_SCRIPTS);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  const failed = {};
  for (let r = 0; r < opts.initRuns; r++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(r + k) % names.length];
      if (failed[n]) continue;
      try {
        samples[n].push(initOnce(n));
      } catch (err) {
        failed[n] = String(err.message || err);
        console.error(`  init / ${failed[n]}`);
      }
    }
  }
  const out = {};
  for (const n of names) out[n] = failed[n] ? 'FAIL' : { ms: median(samples[n]), samples: samples[n] };
  return out;
}

// ---------------------------------------------------------------- bytes a browser loads
/** The relative-import graph of an entry file (static imports and re-exports only). */
function importGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const re = /(?:^|[\s;])(?:import|export)\s*(?:[\w*${}\s,]*?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;
    for (const m of text.matchAll(re)) visit(resolve(dirname(file), m[1]));
  };
  visit(entry);
  return [...seen];
}

function measureSizes() {
  const gz = (buf) => gzipSync(buf, { level: 9 }).length;
  const bundle = (entry, extra) => {
    const files = [...importGraph(join(OURS, entry)), ...extra.map((f) => join(OURS, f))];
    const rows = files.map((f) => {
      const buf = readFileSync(f);
      return { file: relative(OURS, f), raw: buf.length, gz: gz(buf) };
    });
    const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
    return { files: rows, raw: sum('raw'), gz: sum('gz') };
  };
  const tryBundle = (entry, extra) => {
    try {
      return bundle(entry, extra);
    } catch (err) {
      console.error(`  size: ${entry}: ${err.message}`);
      return null;
    }
  };
  return {
    split: tryBundle(entryFile('index.browser.js'), ['dist/core.wasm']),
    single: tryBundle(entryFile('index.single.js'), []),
    ...(existsSync(join(OURS, 'dist/lite.browser.js')) ? { lite: tryBundle('dist/lite.browser.js', ['dist/core-lite.wasm']) } : {}),
    ...(existsSync(join(OURS, 'scripts/build-demo.mjs')) ? { demo: measureDemoPage() } : {}),
  };
}

/** The built demo page (`npm run build:demo` into a scratch folder): the files one load fetches, gzip -9 each. */
function measureDemoPage() {
  const out = mkdtempSync(join(os.tmpdir(), 'nostr-agents-demo-site-'));
  try {
    const r = spawnSync(process.execPath, [join(OURS, 'scripts/build-demo.mjs'), '--out', out, '--json'], { cwd: OURS, encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`  size: build:demo: ${(r.stderr || r.stdout).trim().split('\n').pop()}`);
      return null;
    }
    const { load, agx, nip49 } = JSON.parse(r.stdout.trim().split('\n').pop());
    return { ...load, lazyGz: (agx?.gz ?? 0) + (nip49?.gz ?? 0) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- formatting
const fmtNum = (x) => {
  if (x >= 1e6) return `${(x / 1e6).toPrecision(3)}M`;
  if (x >= 1e3) return `${(x / 1e3).toPrecision(3)}k`;
  return x >= 100 ? x.toFixed(0) : x.toPrecision(3);
};
const fmtTime = (s) => {
  if (s >= 1) return `${s.toPrecision(3)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`;
  if (s >= 1e-6) return `${(s * 1e6).toPrecision(3)} µs`;
  return `${(s * 1e9).toPrecision(3)} ns`;
};
const fmtCell = (c, row) => {
  if (typeof c !== 'object') return c;
  if (row.perUnit) return `${fmtTime(row.perUnit / c.opsPerSec)}/${row.unit} · ${fmtNum(c.opsPerSec)} ${row.rateLabel}`;
  return `${fmtTime(1 / c.opsPerSec)} · ${fmtNum(c.opsPerSec)} ${row.unit ?? 'op'}/s`;
};
/**
 * ours / peer: the median over rounds of the per-round ratio (both ran in the same round, close
 * in time, so slow drifts in machine load cancel out).
 */
const ratioOf = (ours, peer) => {
  if (typeof ours !== 'object' || typeof peer !== 'object') return null;
  const n = Math.min(ours.samples.length, peer.samples.length);
  if (n === 0) return ours.opsPerSec / peer.opsPerSec;
  return median(Array.from({ length: n }, (_, i) => ours.samples[i] / peer.samples[i]));
};
const fmtRatio = (ours, peer) => {
  const r = ratioOf(ours, peer);
  if (r !== null) return `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`;
  if (ours === 'pending' && typeof peer === 'object') return 'pending';
  return typeof peer === 'object' ? String(ours) : 'n/a';
};
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
const describe = (b) => {
  const js = b.files.filter((f) => f.file.startsWith('js/')).length;
  const dist = b.files.filter((f) => !f.file.startsWith('js/')).map((f) => f.file);
  return `${dist.join(' + ')}${js ? ` + ${js} js/*.js` : ''}; gzip -9 per file`;
};

function targetCell(row, res) {
  const t = row.target;
  if (!t) return '';
  const ours = res.ours;
  if (typeof ours !== 'object') return `${t.label}: ${ours === 'pending' ? 'pending' : '—'}`;
  let r;
  if (t.peer === 'best') {
    const peers = PEERS.filter((p) => typeof res[p] === 'object');
    const best = peers.sort((a, b) => res[b].opsPerSec - res[a].opsPerSec)[0];
    r = best ? ratioOf(ours, res[best]) : null;
  } else r = ratioOf(ours, res[t.peer]);
  if (r === null) return `${t.label}: —`;
  return `${t.label}: ${r >= t.min ? '✅' : '❌'} ${r.toFixed(2)}×`;
}

function renderTable(rows, results, init, sizes, meta, bundles) {
  const L = [];
  L.push(`### nostr-agents benchmark`);
  L.push('');
  L.push(meta);
  L.push('');
  const head = ['operation', 'ours', 'nostr-tools', 'nostr-wasm', '@rust-nostr/nostr-sdk', 'vs nostr-tools', 'vs nostr-wasm', 'vs rust-nostr', 'target'];
  L.push(`| ${head.join(' | ')} |`);
  L.push(`|${head.map((h, i) => (i === 0 ? ':--' : i >= 5 && i < 8 ? '--:' : '--')).join('|')}|`);
  for (const row of rows) {
    const res = results[row.key];
    if (!res) continue;
    const cells = [
      row.title,
      ...LIBS.map((l) => fmtCell(res[l], row) + (row.notes?.[l] ? ` ${row.notes[l].mark}` : '')),
      ...PEERS.map((p) => fmtRatio(res.ours, res[p])),
      targetCell(row, res),
    ];
    L.push(`| ${cells.join(' | ')} |`);
  }
  if (init) {
    const c = (n) => (typeof init[n] === 'object' ? `${init[n].ms.toFixed(1)} ms` : init[n] ?? 'n/a');
    const r = (p) => (typeof init.ours === 'object' && typeof init[p] === 'object' ? `${(init[p].ms / init.ours.ms).toFixed(2)}×` : 'n/a');
    const pass = typeof init.ours === 'object' ? (init.ours.ms <= 60 ? '✅' : '❌') + ` ${init.ours.ms.toFixed(1)} ms` : '—';
    L.push(
      `| init to ready (fresh process, median of ${opts.initRuns}) | ${c('ours')} (single-file: ${c('ours (single-file)')}${init['ours (lite)'] ? `; lite: ${c('ours (lite)')}` : ''}) | ${c('nostr-tools')} | ${c('nostr-wasm')} | ${c('rust-nostr')} | ${r('nostr-tools')} | ${r('nostr-wasm')} | ${r('rust-nostr')} | ≤ 60 ms: ${pass} |`,
    );
  }
  if (sizes?.split) {
    const s = sizes.split;
    const pass = s.gz <= 120000 ? '✅' : '❌';
    L.push(
      `| browser bytes, split build (${describe(s)}) | ${kb(s.raw)} raw · **${kb(s.gz)} gz** | | | | | | | ≤ 120 KB gz: ${pass} ${kb(s.gz)} |`,
    );
  }
  if (sizes?.lite) {
    const s = sizes.lite;
    const pass = s.gz <= 120000 ? '✅' : '❌';
    L.push(
      `| browser bytes, \`nostr-agents/lite\` (sign/verify/encrypt/wrap, no relay pool or protocols; ${describe(s)}) | ${kb(s.raw)} raw · **${kb(s.gz)} gz** | | | | | | | ≤ 120 KB gz: ${pass} ${kb(s.gz)} |`,
    );
  }
  if (sizes?.demo) {
    const s = sizes.demo;
    const pass = s.gz <= 200000 ? '✅' : '❌';
    L.push(
      `| browser bytes, the built demo page (\`npm run build:demo\`: ${s.files.map((f) => f.file).join(' + ')}; gzip -9 per file; ${kb(s.lazyGz)} gz more only on demand: the AGX panel, NIP-49) | ${kb(s.raw)} raw · **${kb(s.gz)} gz** | | | | | | | ≤ 200 KB gz: ${pass} ${kb(s.gz)} |`,
    );
  }
  if (sizes?.single) {
    const g = sizes.single;
    L.push(`| browser bytes, single-file build (${describe(g)}) | ${kb(g.raw)} raw · ${kb(g.gz)} gz | | | | | | | |`);
  }
  if (bundles) L.push(...renderBundleRows(bundles));
  L.push('');
  L.push('Cells: time per op · throughput (median over rounds). Ratios: ours / peer throughput (median of the per-round ratios), > 1 = we are faster.');
  const notes = new Map();
  for (const row of rows) {
    if (!results[row.key]) continue;
    for (const [lib, n] of Object.entries(row.notes ?? {})) if (typeof results[row.key][lib] === 'object') notes.set(n.mark, n.text);
  }
  for (const [mark, text] of notes) L.push(`${mark} ${text}`);
  if (sizes) {
    L.push('');
    L.push('Browser bytes per file (KB = 1000 B; gzip -9 each, summed):');
    for (const [name, b] of Object.entries(sizes))
      for (const f of b?.files ?? []) L.push(`- ${name}: \`${f.file}\` ${f.raw} B raw, ${f.gz} B gz`);
  }
  return L.join('\n');
}

// ---------------------------------------------------------------- main
async function main() {
  const t0 = wallNow();
  const load0 = os.loadavg()[0];
  const libs = await loadLibraries(OURS);
  const fixtures = await import('./fixtures.mjs').then((m) => m.makeFixtures(libs, { quick: opts.quick }));
  const rows = makeCases(libs, fixtures);
  const results = {};
  for (const row of rows) {
    if (!selected(row.key)) continue;
    const tr = wallNow();
    process.stderr.write(`bench: ${row.key} ...`);
    results[row.key] = await measureRow(row);
    process.stderr.write(` ${((wallNow() - tr) / 1000).toFixed(1)} s\n`);
  }
  let init = null;
  if (selected('init')) {
    const tr = wallNow();
    process.stderr.write('bench: init ...');
    init = await measureInit();
    process.stderr.write(` ${((wallNow() - tr) / 1000).toFixed(1)} s\n`);
  }
  const sizes = selected('size') ? measureSizes() : null;
  let bundles = null;
  if (selected('bundles')) {
    process.stderr.write('bench: bundles (Vite, esbuild) ...');
    const tr = wallNow();
    bundles = await measureBundleSizes(OURS);
    process.stderr.write(` ${((wallNow() - tr) / 1000).toFixed(1)} s\n`);
  }
  let agxMd = '';
  if (selected('agx')) {
    process.stderr.write('bench: agx ...');
    const tr = wallNow();
    agxMd = `\n\n${await (await import('./agx.mjs')).measureAgx({ ours: OURS, quick: opts.quick })}`;
    process.stderr.write(` ${((wallNow() - tr) / 1000).toFixed(1)} s\n`);
  }

  let commit = '';
  try {
    commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  } catch {}
  const versions = libs.versions;
  const meta = [
    `Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}, commit ${commit || '?'}` +
      `${opts.quick ? ', **--quick (not representative)**' : ''}; ${opts.rounds} rounds, ~${opts.budget} s per library per round, ${opts.clock} clock;` +
      ` load average ${load0.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end.`,
    `${OURS === ROOT ? '' : `Ours from ${OURS}. `}Peers: ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
  ].join('\n');
  const agents = selected('nipxx') ? await import('./agents.mjs').then((m) => m.benchAgents({ quick: opts.quick })) : '';
  const stream = selected('nipxx-stream') || selected('nipxx') ? await import('./nipxx-stream.mjs').then((m) => m.benchNipxxStream({ quick: opts.quick })) : '';
  const load = selected('load') ? await import('./load.mjs').then((m) => m.benchLoad({ quick: opts.quick })) : '';
  const md = renderTable(rows, results, init, sizes, meta, bundles) + agents + stream + agxMd + load;
  console.log(md);
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  writeFileSync(join(ROOT, 'build/bench-results.md'), md + '\n');
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ results, init, sizes, bundles }, null, 2));
  process.stderr.write(`bench: wrote build/bench-results.md (${((wallNow() - t0) / 1000).toFixed(1)} s)\n`);
}

await main();
