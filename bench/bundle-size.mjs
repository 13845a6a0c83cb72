// What an app pays for: the four apps of bench/apps/ (crypto only from the main entry and from
// nostr-agents/lite, a NIP-XX chat client, an AGX requester) built for production by Vite and by
// esbuild against this package, as an app would install it (a scratch project whose
// node_modules/nostr-agents links to the package). Counted per app: the JS it ships (raw and
// gzip -9 per file, summed) and, apart, the .wasm it loads.
//   node bench/bundle-size.mjs [--ours DIR]     (npm run bench prints the same rows)
import { build as esbuild } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const HERE = dirname(fileURLToPath(import.meta.url));
export const APPS = {
  'crypto-main': { file: 'crypto.js', label: 'crypto only (init, generateSecretKey, finalizeEvent, verifyEvent) from `nostr-agents`' },
  'crypto-lite': { file: 'crypto-lite.js', label: 'crypto only, the same four from `nostr-agents/lite`' },
  chat: { file: 'chat.js', label: 'NIP-XX chat client (RelayPool, LocalSigner, prompt, nip19)' },
  'agx-requester': { file: 'agx-requester.js', label: 'AGX requester (agx.AgxRequester, LocalSigner)' },
};
export const JS_GOAL = 15_000; // crypto only: at most 15 KB gz of JS

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

/** A scratch app project: its node_modules/nostr-agents links to `pkgRoot`; the apps copied in. */
export function scratchProject(pkgRoot) {
  const dir = mkdtempSync(join(tmpdir(), 'nostr-agents-sizes-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(resolve(pkgRoot), join(dir, 'node_modules', 'nostr-agents'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'size-app', private: true, type: 'module' }));
  for (const { file } of Object.values(APPS)) copyFileSync(join(HERE, 'apps', file), join(dir, file));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// A chunk that another chunk starts as a worker (`new Worker(new URL(<its name>, …))`) is loaded
// only when the app uses that worker (the pool's `verifyWorkers`): counted apart, not in jsGz.
function tally(outDir) {
  const files = readdirSync(outDir, { recursive: true }).map((f) => join(outDir, f)).filter((f) => /\.(m?js|wasm)$/.test(f));
  const js = files.filter((f) => !f.endsWith('.wasm')).map((f) => ({ f, buf: readFileSync(f) }));
  const texts = js.map(({ buf }) => buf.toString('utf8'));
  const isWorker = ({ f }) => {
    const name = basename(f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const started = new RegExp(`new Worker\\(new URL\\([\`'"][^\`'"]*${name}[\`'"]`);
    return texts.some((t) => started.test(t));
  };
  const workers = js.filter(isWorker);
  const main = js.filter((x) => !workers.includes(x));
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  return {
    jsRaw: main.reduce((a, { buf }) => a + buf.length, 0),
    jsGz: main.reduce((a, { buf }) => a + gz(buf), 0),
    jsFiles: main.length,
    workerGz: workers.reduce((a, { buf }) => a + gz(buf), 0),
    wasm: wasm.map((f) => ({ file: relative(outDir, f), raw: readFileSync(f).length, gz: gz(readFileSync(f)) })),
  };
}

/** esbuild --bundle --minify --format=esm --platform=browser of one app. */
export async function buildEsbuild(dir, app, outDir = join(dir, 'out-esbuild', app)) {
  const r = await esbuild({
    entryPoints: [join(dir, APPS[app].file)],
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: outDir,
    logLevel: 'silent',
    metafile: true,
  });
  const inputs = Object.keys(r.metafile.inputs);
  const result = { ...tally(outDir), warnings: r.warnings.map((w) => w.text), inputs };
  // esbuild copies no `new URL(…, import.meta.url)` asset: the app copies the loader's .wasm.
  for (const loader of inputs.filter((i) => /(^|\/)dist\/core(-lite)?\.mjs$/.test(i))) {
    const buf = readFileSync(join(dir, loader.replace(/\.mjs$/, '.wasm')));
    result.wasm.push({ file: `${loader.split('/').pop().replace(/\.mjs$/, '.wasm')} (copied)`, raw: buf.length, gz: gz(buf) });
  }
  return result;
}

/** `vite build` (production, its defaults) of a page whose one script is the app. */
export async function buildVite(dir, app, outDir = join(dir, 'out-vite', app)) {
  const { build } = await import('vite');
  const root = join(dir, `vite-${app}`);
  mkdirSync(root, { recursive: true });
  copyFileSync(join(dir, APPS[app].file), join(root, 'main.js'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>\n<meta charset="utf-8">\n<title>app</title>\n<script type="module" src="./main.js"></script>\n');
  const warnings = [];
  const logger = {
    info() {},
    warn: (m) => warnings.push(m),
    warnOnce: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
    clearScreen() {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    customLogger: logger,
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  return { ...tally(outDir), warnings };
}

/** Every app with both bundlers: { [app]: { vite, esbuild } } (or { error }). */
export async function measureBundleSizes(pkgRoot) {
  const project = scratchProject(pkgRoot);
  const out = {};
  try {
    for (const app of Object.keys(APPS)) {
      out[app] = {};
      for (const [name, fn] of [['vite', buildVite], ['esbuild', buildEsbuild]]) {
        try {
          out[app][name] = await fn(project.dir, app);
        } catch (err) {
          out[app][name] = { error: err.message.split('\n')[0] };
        }
      }
    }
  } finally {
    project.remove();
  }
  return out;
}

const kb = (b) => `${(b / 1000).toFixed(1)} KB`;

/** Markdown rows for bench/run.mjs's table (same columns). */
export function renderBundleRows(sizes) {
  const rows = [];
  for (const [app, { label }] of Object.entries(APPS)) {
    const cell = (r) => {
      if (!r) return 'n/a';
      if (r.error) return `FAIL: ${r.error}`;
      const wasm = r.wasm.map((w) => `${w.file.split('/').pop().replace(/-[\w-]{8}\.wasm$/, '.wasm')} ${kb(w.gz)} gz`).join(' + ');
      const worker = r.workerGz ? ` (+ ${kb(r.workerGz)} gz worker chunk, fetched only with verifyWorkers)` : '';
      return `JS **${kb(r.jsGz)} gz** (${kb(r.jsRaw)} raw)${worker}${wasm ? ` + ${wasm}` : ''}`;
    };
    const { vite, esbuild: es } = sizes[app] ?? {};
    let target = '';
    if (app.startsWith('crypto')) {
      const worst = Math.max(...[vite, es].map((r) => (r && !r.error ? r.jsGz : Infinity)));
      target = `≤ 15 KB gz JS: ${worst <= JS_GOAL ? '✅' : '❌'} ${Number.isFinite(worst) ? kb(worst) : '—'}`;
    }
    rows.push(`| app bytes, ${label}: Vite · esbuild | Vite: ${cell(vite)} · esbuild: ${cell(es)} | | | | | | | ${target} |`);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--ours');
  const sizes = await measureBundleSizes(i > 0 ? process.argv[i + 1] : resolve(HERE, '..'));
  console.log(renderBundleRows(sizes).join('\n'));
  for (const [app, r] of Object.entries(sizes))
    for (const [b, x] of Object.entries(r)) if (x.warnings?.length) console.error(`${app} ${b} warnings:\n${x.warnings.join('\n')}`);
}
