#!/usr/bin/env node
// `npm run build:demo`: the demo page as a static folder any host serves as it is, from its root
// or a sub-path: index.html, app.js (the page and the package's browser build in one minified ES
// module, the Emscripten loader included), core.wasm (fetched next to app.js and compiled while
// it streams; serve it as application/wasm) and style.css. Relative URLs only; no server code.
// The page's core.wasm is dist/core-web.wasm: the package's core without the bindings the page
// never calls (cmake/wasm.cmake), checked here against the page's bundle. Two more files are
// fetched only when the user remembers a key or unlocks a remembered one: nip49.js and nip49.wasm
// (web-demo/nip49-lazy.js and dist/core-nip49.wasm: NIP-49's scrypt and XChaCha20-Poly1305).
//
//   node scripts/build-demo.mjs [--out build/demo-site] [--analyze]   (--analyze: what app.js is made of)
//
// Reads dist/core-web.{wasm,mjs} and dist/core.{wasm,mjs} (`npm run build` makes them). Prints
// each file's size, raw and gzip -9.
import { analyzeMetafile, build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { out: { type: 'string', default: 'build/demo-site' }, quiet: { type: 'boolean', default: false }, analyze: { type: 'boolean', default: false } } });
const out = resolve(args.out);

for (const f of ['dist/core.wasm', 'dist/core.mjs', 'dist/core-web.wasm', 'dist/core-web.mjs', 'dist/core-nip49.wasm', 'dist/core-nip49.mjs'])
  if (!existsSync(join(root, f))) {
    process.stderr.write(`build-demo: ${f} is missing: run \`npm run build\` first\n`);
    process.exit(1);
  }
mkdirSync(out, { recursive: true });

// The page: web-demo/app.js with everything it imports. The page imports the package's browser
// bundle (dist/index.browser.js); here it is built from that bundle's sources (js/), which
// tree-shake and minify further than the bundle can (its namespaces are whole objects).
// Full minification is safe here: the Node-only dynamic imports (ws, node:fs for FileRunStore)
// are never reached in a browser and stay external.
//
// The package's protocol layers are namespaces (`agx`, `nipxx`, `nip19`…: `export * as agx`), and
// esbuild keeps a namespace whole once it is imported by name. So the page's import resolves to
// the browser entry with each namespace the page uses replaced by an object of only the members
// it reads (`agx.AgxClient`, `agx.fetchAgentCard`…: found in the page's sources), imported by
// name so the rest tree-shakes away. A member the package does not export fails the build, and a
// namespace used any other way than `ns.member` is refused.
const NAMESPACES = {
  nipxx: 'js/nipxx.js',
  agx: 'js/agx/index.js',
  nip19: 'js/nip19.js',
  nip44: 'js/nip44-public.js',
  nip59: 'js/nip59.js',
  nip13: 'js/nip13.js',
  nip40: 'js/nip40.js',
};
const PAGE_API = 'page-api';
function pageApiSource() {
  const sources = ['app.js', 'identity.js', 'markdown.js'].map((f) => readFileSync(join(root, 'web-demo', f), 'utf8'));
  // The namespaces the page imports from the package.
  const imported = new Set();
  for (const src of sources)
    for (const m of src.matchAll(/^import \{([^}]*)\} from '[^']*\/dist\/index\.browser\.js';$/gm))
      for (const name of m[1].split(',').map((s) => s.trim())) if (name in NAMESPACES) imported.add(name);
  const lines = [`export * from ${JSON.stringify(join(root, 'js/index.browser.js'))};`];
  for (const ns of imported) {
    const members = new Set();
    for (const src of sources) {
      // Without import lines, line comments, strings' `'ns'` and object keys (`{ agx: null }`).
      const code = src.replace(/^import [^;]*;$/gm, '').replace(/(^|\s)\/\/.*$/gm, '$1');
      for (const m of code.matchAll(new RegExp(`(?<![.\\w$'"\`])${ns}\\b(?!\\s*:)(\\.([A-Za-z_$][\\w$]*))?`, 'g'))) {
        if (!m[2]) throw new Error(`build-demo: the page uses \`${ns}\` other than as ${ns}.member; import what it needs by name`);
        members.add(m[2]);
      }
    }
    const names = [...members].sort();
    lines.push(`import { ${names.map((n) => `${n} as ${ns}_${n}`).join(', ')} } from ${JSON.stringify(join(root, NAMESPACES[ns]))};`);
    lines.push(`export const ${ns} = Object.freeze({ ${names.map((n) => `${n}: ${ns}_${n}`).join(', ')} });`);
  }
  return lines.join('\n');
}
// The browser entry's loader import (dist/core.mjs) becomes the page module's loader, which then
// fetches `core.wasm` next to app.js (the name the page ships core-web.wasm under).
const webLoader = join(root, 'dist/core-web.mjs');
// The page's NIP-49 is imported lazily (`import('./nip49-lazy.js')` in identity.js): left out of
// app.js, built on its own below as nip49.js next to it.
const lazyNip49 = {
  name: 'lazy-nip49',
  setup(b) {
    b.onResolve({ filter: /\/nip49-lazy\.js$|^\.\/nip49-lazy\.js$/ }, () => ({ path: './nip49.js', external: true }));
  },
};
/** A loader that names its .wasm `from` in dist/, renamed to `to` (the name the folder ships it under). */
function renamedLoader(file, from, to) {
  const text = readFileSync(join(root, 'dist', file), 'utf8');
  const parts = text.split(`"${from}"`);
  if (parts.length < 2) throw new Error(`build-demo: dist/${file} no longer names "${from}"`);
  return parts.join(`"${to}"`);
}
const fromSources = {
  name: 'package-from-sources',
  setup(b) {
    b.onResolve({ filter: /\/dist\/index\.browser\.js$/ }, () => ({ path: PAGE_API, namespace: PAGE_API }));
    b.onLoad({ filter: /.*/, namespace: PAGE_API }, () => ({ contents: pageApiSource(), resolveDir: root, loader: 'js' }));
    b.onResolve({ filter: /\/dist\/core\.mjs$/ }, () => ({ path: webLoader }));
    b.onLoad({ filter: /\/dist\/core-web\.mjs$/ }, () => ({ contents: renamedLoader('core-web.mjs', './core-web.wasm', './core.wasm'), loader: 'js' }));
  },
};
const js = await build({
  plugins: [lazyNip49, fromSources],
  entryPoints: [join(root, 'web-demo/app.js')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  external: ['ws', 'node:*'],
  logLevel: 'warning',
  write: false,
  metafile: args.analyze,
  outfile: join(out, 'app.js'),
});
if (args.analyze) process.stdout.write(await analyzeMetafile(js.metafile));
// The page module lacks some of the core's functions: the page's bundle must name none of them
// (core functions are called as properties, `core().name(...)`, which minification keeps).
const coreNames = async (name) => {
  const { default: create } = await import(pathToFileURL(join(root, `dist/${name}.mjs`)).href);
  const m = await create({ wasmBinary: readFileSync(join(root, `dist/${name}.wasm`)), getRandomValue: () => 0 });
  return new Set(Object.keys(m));
};
const webNames = await coreNames('core-web');
const pageText = Buffer.from(js.outputFiles[0].contents).toString('utf8');
const missing = [...(await coreNames('core'))].filter((n) => !webNames.has(n) && new RegExp(`\\b${n}\\b`).test(pageText));
if (missing.length) throw new Error(`build-demo: the page calls ${missing.join(', ')}, which dist/core-web.wasm lacks: add its binding file to core-web in cmake/wasm.cmake`);

// The lazy part: web-demo/nip49-lazy.js with what it imports (the NIP-49 glue and its module's
// loader), one module that fetches nip49.wasm next to it.
const nip49Js = await build({
  plugins: [
    {
      name: 'nip49-loader',
      setup(b) {
        b.onLoad({ filter: /\/dist\/core-nip49\.mjs$/ }, () => ({ contents: renamedLoader('core-nip49.mjs', 'core-nip49.wasm', 'nip49.wasm'), loader: 'js' }));
      },
    },
  ],
  entryPoints: [join(root, 'web-demo/nip49-lazy.js')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
  outfile: join(out, 'nip49.js'),
});
if (!/\bimport\("\.\/nip49\.js"\)/.test(Buffer.from(js.outputFiles[0].contents).toString('utf8')))
  throw new Error('build-demo: app.js no longer imports ./nip49.js lazily');

const css = await build({
  entryPoints: [join(root, 'web-demo/style.css')],
  bundle: true,
  minify: true,
  logLevel: 'warning',
  write: false,
  outfile: join(out, 'style.css'),
});

// The HTML: the same page without the dev server's module preloads (the bundle is one module),
// and core.wasm preloaded, so its download overlaps app.js's instead of following it (the loader's
// fetch is same-origin, mode cors: the preload matches it).
const html = readFileSync(join(root, 'web-demo/index.html'), 'utf8')
  .replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, '')
  .replace('<script type="module" src="app.js"></script>', '<link rel="preload" href="core.wasm" as="fetch" type="application/wasm" crossorigin>\n<script type="module" src="app.js"></script>');
if (!/src="app\.js"/.test(html) || /\.\.\//.test(html)) throw new Error('build-demo: web-demo/index.html no longer has the shape this script expects');
// Leading indentation is for people editing the page: 1 KB raw, ~0.2 KB gz, that no browser needs
// (the page's HTML has no <pre> and no textarea whose text spans lines).
const compactHtml = html.replace(/^[ \t]+/gm, '');
if (/<pre|<textarea[^>]*>[^<]*\n/.test(html)) throw new Error('build-demo: web-demo/index.html has whitespace-sensitive markup now: stop compacting it');

const files = [
  ['index.html', Buffer.from(compactHtml)],
  ['app.js', Buffer.from(js.outputFiles[0].contents)],
  ['style.css', Buffer.from(css.outputFiles[0].contents)],
  ['core.wasm', readFileSync(join(root, 'dist/core-web.wasm'))],
];
const lazy = [
  ['nip49.js', Buffer.from(nip49Js.outputFiles[0].contents)],
  ['nip49.wasm', readFileSync(join(root, 'dist/core-nip49.wasm'))],
];
const line = (name, raw, gz) => `${name.padEnd(11)} ${(raw / 1000).toFixed(1).padStart(7)} KB  ${(gz / 1000).toFixed(1).padStart(6)} KB gz\n`;
function write(list) {
  let raw = 0;
  let gz = 0;
  for (const [name, body] of list) {
    writeFileSync(join(out, name), body);
    const z = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gz += z;
    if (!args.quiet) process.stdout.write(line(name, body.length, z));
  }
  return [raw, gz];
}
const [raw, gz] = write(files);
if (!args.quiet) process.stdout.write(line('total', raw, gz));
if (!args.quiet) process.stdout.write('loaded only to remember or unlock a key (NIP-49):\n');
const [lazyRaw, lazyGz] = write(lazy);
if (!args.quiet) {
  process.stdout.write(line('lazy total', lazyRaw, lazyGz));
  process.stdout.write(`wrote ${relative(process.cwd(), out) || '.'}/ (serve it from any path; .wasm as application/wasm)\n`);
}
