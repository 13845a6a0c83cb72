#!/usr/bin/env node
// `npm run build:demo`: the demo page as a static folder any host serves as it is, from its root
// or a sub-path: index.html, app.js (the page and the package's browser build in one minified ES
// module, the Emscripten loader included), core.wasm (fetched next to app.js and compiled while
// it streams; serve it as application/wasm; fetched once per load in every engine) and style.css. Relative URLs only; no server code.
// The page's core.wasm is dist/core-web.wasm: the package's core without the bindings the page
// never calls (cmake/wasm.cmake), checked here against the page's bundle. Two files are fetched
// only when the AGX panel is first used: agx-lazy.js and agx.wasm (web-demo/agx-lazy.js and
// dist/core-agx.wasm, the AGX bindings, which core-web leaves out); two more only when the user
// remembers a key or unlocks a remembered one: nip49.js and nip49.wasm (web-demo/nip49-lazy.js and
// dist/core-nip49.wasm: NIP-49's scrypt and XChaCha20-Poly1305).
//
//   node scripts/build-demo.mjs [--out build/demo-site] [--analyze] [--json]
//   (--analyze: what the JS is made of; --json: the sizes as one JSON line, for npm run bench)
//
// Reads dist/core-web.{wasm,mjs} and dist/core.{wasm,mjs} (`npm run build` makes them). Prints
// each file's size, raw and gzip -9.
import { analyzeMetafile, build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { minify } from 'terser';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { out: { type: 'string', default: 'build/demo-site' }, quiet: { type: 'boolean', default: false }, analyze: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
const out = resolve(args.out);

for (const f of ['dist/core.wasm', 'dist/core.mjs', 'dist/core-web.wasm', 'dist/core-web.mjs', 'dist/core-agx.wasm', 'dist/core-agx.mjs', 'dist/core-nip49.wasm', 'dist/core-nip49.mjs'])
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
// The AGX panel's package code is imported lazily (web-demo/agx-lazy.js: `import { agx } from`
// the browser entry): its `agx` object comes from a module of its own, which only that chunk
// imports, so the AGX requester, its wrap, unwrap, routes and replay guard stay out of app.js.
const PAGE_API_AGX = 'page-api-agx';
const PAGE_SOURCES = ['app.js', 'identity.js', 'markdown.js'];
const read = (f) => readFileSync(join(root, 'web-demo', f), 'utf8');
/** What `files` import (or re-export) from the package's browser entry, by name. */
function importedNames(files) {
  const names = new Set();
  for (const src of files.map(read))
    for (const m of src.matchAll(/^(?:import|export) \{([^}]*)\} from '[^']*\/dist\/index\.browser\.js';$/gm))
      for (const name of m[1].split(',').map((x) => x.trim())) names.add(name);
  return names;
}
/** `export const ns = { members the page reads }`, the members imported by name. */
function namespaceObject(ns) {
  const members = new Set();
  for (const src of PAGE_SOURCES.map(read)) {
    // Without import lines, line comments, strings' `'ns'` and paths (`./agx-lazy.js`), object keys (`{ agx: null }`) and the
    // local that holds a lazy import's namespace (`let agx;`, `({ agx } = await loadAgx())`).
    const code = src
      .replace(/^import [^;]*;$/gm, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1')
      .replace(new RegExp(`\\{\\s*${ns}\\s*\\}|\\b(?:const|let)\\s+${ns}\\b`, 'g'), '');
    for (const m of code.matchAll(new RegExp(`(?<![.\\w$'"\`/])${ns}\\b(?!\\s*:|-)(\\.([A-Za-z_$][\\w$]*))?`, 'g'))) {
      if (!m[2]) throw new Error(`build-demo: the page uses \`${ns}\` other than as ${ns}.member; import what it needs by name`);
      members.add(m[2]);
    }
  }
  const names = [...members].sort();
  return [
    `import { ${names.map((n) => `${n} as ${ns}_${n}`).join(', ')} } from ${JSON.stringify(join(root, NAMESPACES[ns]))};`,
    `export const ${ns} = Object.freeze({ ${names.map((n) => `${n}: ${ns}_${n}`).join(', ')} });`,
  ];
}
function pageApiSource() {
  // From the browser entry as PAGE_MAIN_ENTRY: with code splitting, a module that both app.js's
  // graph and the AGX chunk's reach goes to the shared chunk app.js loads, so app.js's graph must
  // not reach js/agx/ through the API's `export * as agx`.
  const lines = [`export * from ${JSON.stringify(PAGE_MAIN_ENTRY)};`];
  for (const ns of importedNames(PAGE_SOURCES)) if (ns in NAMESPACES) lines.push(...namespaceObject(ns));
  return lines.join('\n');
}
// js/index.browser.js and js/api.js as the page's main chunk sees them: the same, without `agx`.
const PAGE_MAIN_ENTRY = 'page-main-entry';
const PAGE_MAIN_API = 'page-main-api';
function withoutAgx(file, from, to) {
  const text = readFileSync(join(root, file), 'utf8');
  if (!text.includes(from)) throw new Error(`build-demo: ${file} no longer has \`${from}\``);
  return text.replace(from, to);
}
function pageApiAgxSource() {
  const names = [...importedNames(['agx-lazy.js'])];
  if (names.join() !== 'agx') throw new Error(`build-demo: web-demo/agx-lazy.js should import { agx } alone from the package, not ${names}`);
  // The page itself (already running when this chunk loads: evaluated once), so that the page's
  // code lands in the chunk both parts share (see PAGE_ENTRY).
  return [`import ${JSON.stringify(join(root, 'web-demo/app.js'))};`, ...namespaceObject('agx')].join('\n');
}
// The entry is only `import "./chunk.js"`: the page and the package code it loads at once are in
// the chunk (one file, one gzip stream: split across two files they cost 1.4 KB gz more), which
// is written as app.js, the file agx-lazy.js imports.
const PAGE_ENTRY = 'page-entry';
// The browser entry's loader import (dist/core.mjs) becomes the page module's loader, which then
// fetches `core.wasm` next to app.js (the name the page ships core-web.wasm under).
const webLoader = join(root, 'dist/core-web.mjs');
// The AGX code (js/agx/, in agx-lazy.js alone) runs on a module of its own, dist/core-agx.wasm
// shipped as agx.wasm: its `../core.js` is web-demo/agx-module.js, which loads that module (the
// page's ./agx-core.js, a no-op on the dev page, is it too). core-web links without AGX.
const agxModule = join(root, 'web-demo/agx-module.js');
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
    b.onResolve({ filter: /\/dist\/index\.browser\.js$/ }, (a) =>
      /\/agx-lazy\.js$/.test(a.importer) ? { path: PAGE_API_AGX, namespace: PAGE_API } : { path: PAGE_API, namespace: PAGE_API },
    );
    b.onLoad({ filter: /.*/, namespace: PAGE_API }, (a) => {
      if (a.path === PAGE_MAIN_ENTRY) return { contents: withoutAgx('js/index.browser.js', "export * from './api.js';", `export * from '${PAGE_MAIN_API}';`), resolveDir: join(root, 'js'), loader: 'js' };
      if (a.path === PAGE_ENTRY) return { contents: `import ${JSON.stringify(join(root, 'web-demo/app.js'))};`, resolveDir: root, loader: 'js' };
      if (a.path === PAGE_MAIN_API) return { contents: withoutAgx('js/api.js', "export * as agx from './agx/index.js';", ''), resolveDir: join(root, 'js'), loader: 'js' };
      return { contents: a.path === PAGE_API_AGX ? pageApiAgxSource() : pageApiSource(), resolveDir: root, loader: 'js' };
    });
    b.onResolve({ filter: /^page-(main-entry|main-api|entry)$/ }, (a) => ({ path: a.path, namespace: PAGE_API }));
    // The page module runs the page: a side effect (the package's "sideEffects": false covers web-demo/ too).
    b.onResolve({ filter: /\/web-demo\/app\.js$/ }, (a) => ({ path: a.path, sideEffects: true }));
    b.onResolve({ filter: /\/dist\/core\.mjs$/ }, () => ({ path: webLoader }));
    b.onResolve({ filter: /^\.\.\/core\.js$/ }, (a) => (/\/js\/agx\/[\w-]+\.js$/.test(a.importer) ? { path: agxModule } : undefined));
    b.onResolve({ filter: /^\.\/agx-core\.js$/ }, (a) => (/\/web-demo\/agx-lazy\.js$/.test(a.importer) ? { path: agxModule } : undefined));
    b.onLoad({ filter: /\/dist\/core-agx\.mjs$/ }, () => ({ contents: renamedLoader('core-agx.mjs', './core-agx.wasm', './agx.wasm'), loader: 'js' }));
    b.onLoad({ filter: /\/dist\/core-web\.mjs$/ }, () => ({ contents: renamedLoader('core-web.mjs', './core-web.wasm', './core.wasm'), loader: 'js' }));
  },
};
const js = await build({
  plugins: [lazyNip49, fromSources],
  entryPoints: { app: PAGE_ENTRY },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  external: ['ws', 'node:*'],
  logLevel: 'warning',
  write: false,
  metafile: true,
  // app.js (the entry stub), agx-lazy.js (the page's dynamic import) and chunk.js: the page and
  // what both use (written as app.js below).
  splitting: true,
  outdir: out,
  entryNames: '[name]',
  chunkNames: '[name]',
});
if (args.analyze) process.stdout.write(await analyzeMetafile(js.metafile));
const built = new Map(js.outputFiles.map((f) => [relative(out, f.path), Buffer.from(f.contents)]));
if (built.size !== 3 || built.get('app.js')?.toString() !== 'import"./chunk.js";\n' || !built.has('agx-lazy.js') || !built.has('chunk.js'))
  throw new Error(`build-demo: expected app.js (importing chunk.js alone), agx-lazy.js and chunk.js, got ${[...built.keys()]}`);
// The entry stub goes: the shared chunk is the page's app.js, which agx-lazy.js imports.
const lazyText = built.get('agx-lazy.js').toString('utf8');
if (lazyText.split('"./chunk.js"').length !== 2) throw new Error('build-demo: agx-lazy.js should import ./chunk.js once');
const jsFiles = new Map([
  ['app.js', built.get('chunk.js')],
  ['agx-lazy.js', Buffer.from(lazyText.replace('"./chunk.js"', '"./app.js"'))],
]);
const appText = jsFiles.get('app.js').toString('utf8'); // what a load runs
if (!/\bimport\("\.\/agx-lazy\.js"\)/.test(appText)) throw new Error('build-demo: the page no longer imports ./agx-lazy.js lazily');
const inputsOf = (name) => Object.keys(js.metafile.outputs[relative(root, join(out, name))]?.inputs ?? {});
if (!inputsOf('agx-lazy.js').includes('js/agx/requester.js') || inputsOf('chunk.js').some((f) => f.startsWith('js/agx/')))
  throw new Error('build-demo: the AGX requester and its modules are no longer in agx-lazy.js alone');
if (!inputsOf('agx-lazy.js').includes('web-demo/agx-module.js') || inputsOf('chunk.js').some((f) => /^(web-demo\/agx-|dist\/core-agx)/.test(f)))
  throw new Error('build-demo: the AGX module (web-demo/agx-module.js, agx.wasm) is no longer loaded by agx-lazy.js alone');
// The page module lacks some of the core's functions: the page's bundle must name none of them
// (core functions are called as properties, `core().name(...)`, which minification keeps).
const coreNames = async (name) => {
  const { default: create } = await import(pathToFileURL(join(root, `dist/${name}.mjs`)).href);
  const m = await create({ wasmBinary: readFileSync(join(root, `dist/${name}.wasm`)), getRandomValue: () => 0 });
  return new Set(Object.keys(m));
};
// The AGX part calls its own module (dist/core-agx.wasm) and, for what is not AGX's, the page's.
const webNames = await coreNames('core-web');
const agxNames = await coreNames('core-agx');
const fullNames = [...(await coreNames('core'))];
const lacking = (text, has) => fullNames.filter((n) => !has(n) && new RegExp(`\\b${n}\\b`).test(text));
const missing = lacking(jsFiles.get('app.js').toString('utf8'), (n) => webNames.has(n));
if (missing.length) throw new Error(`build-demo: the page calls ${missing.join(', ')}, which dist/core-web.wasm lacks: add its binding file to core-web in cmake/wasm.cmake`);
const missingAgx = lacking(jsFiles.get('agx-lazy.js').toString('utf8'), (n) => webNames.has(n) || agxNames.has(n));
if (missingAgx.length) throw new Error(`build-demo: the AGX part calls ${missingAgx.join(', ')}, which neither dist/core-web.wasm nor dist/core-agx.wasm has: add its binding file to core-agx in cmake/wasm.cmake`);

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
if (!/\bimport\("\.\/nip49\.js"\)/.test(appText)) throw new Error('build-demo: the page no longer imports ./nip49.js lazily');

const css = await build({
  entryPoints: [join(root, 'web-demo/style.css')],
  bundle: true,
  minify: true,
  logLevel: 'warning',
  write: false,
  outfile: join(out, 'style.css'),
});

// The HTML: the same page without the dev server's module preloads (the bundle is one module).
// core.wasm is not preloaded: WebKit never hands a <link rel=preload as=fetch> to the loader's
// fetch() (with or without crossorigin, whatever the cache headers: tested in WebKitGTK 2.50), so
// every WebKit visitor downloaded it twice; the loader's one fetch starts once app.js runs.
const html = readFileSync(join(root, 'web-demo/index.html'), 'utf8').replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, '');
if (!/src="app\.js"/.test(html) || /\.\.\//.test(html) || /rel="preload"/.test(html)) throw new Error('build-demo: web-demo/index.html no longer has the shape this script expects');
// Leading indentation is for people editing the page: 1 KB raw, ~0.2 KB gz, that no browser needs
// (the page's HTML has no <pre> and no textarea whose text spans lines).
const compactHtml = html.replace(/^[ \t]+/gm, '');
if (/<pre|<textarea[^>]*>[^<]*\n/.test(html)) throw new Error('build-demo: web-demo/index.html has whitespace-sensitive markup now: stop compacting it');

// A second minifier over esbuild's output: terser's compressor (two passes, its safe defaults;
// module scope, so exports and imports keep their names) takes another 4-6 % off the gzip size of
// esbuild's minified JS (app.js 39.4 -> 37.8 KB gz), mostly in the Emscripten loader.
async function compress(buf) {
  const r = await minify(buf.toString('utf8'), { module: true, ecma: 2022, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  return Buffer.from(r.code);
}
for (const [name, buf] of jsFiles) jsFiles.set(name, await compress(buf));
const nip49Out = await compress(Buffer.from(nip49Js.outputFiles[0].contents));

const files = [
  ['index.html', Buffer.from(compactHtml)],
  ['app.js', jsFiles.get('app.js')],
  ['style.css', Buffer.from(css.outputFiles[0].contents)],
  ['core.wasm', readFileSync(join(root, 'dist/core-web.wasm'))],
];
const lazyAgx = [
  ['agx-lazy.js', jsFiles.get('agx-lazy.js')],
  ['agx.wasm', readFileSync(join(root, 'dist/core-agx.wasm'))],
];
const lazy = [
  ['nip49.js', nip49Out],
  ['nip49.wasm', readFileSync(join(root, 'dist/core-nip49.wasm'))],
];
const line = (name, raw, gz) => `${name.padEnd(18)} ${(raw / 1000).toFixed(1).padStart(7)} KB  ${(gz / 1000).toFixed(1).padStart(6)} KB gz\n`;
const say = (text) => args.quiet || args.json || process.stdout.write(text);
function write(list) {
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const [name, body] of list) {
    writeFileSync(join(out, name), body);
    const z = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gz += z;
    rows.push({ file: name, raw: body.length, gz: z });
    say(line(name, body.length, z));
  }
  return { files: rows, raw, gz };
}
const load = write(files);
say(line('total', load.raw, load.gz));
say('loaded only when the AGX panel is first used (a card lookup or a task):\n');
const agxPart = write(lazyAgx);
say('loaded only to remember or unlock a key (NIP-49):\n');
const nip49Part = write(lazy);
say(line('lazy total', agxPart.raw + nip49Part.raw, agxPart.gz + nip49Part.gz));
say(`wrote ${relative(process.cwd(), out) || '.'}/ (serve it from any path; .wasm as application/wasm)\n`);
// --json: the sizes for `npm run bench`'s size table (gzip -9 of each file, summed).
if (args.json) process.stdout.write(`${JSON.stringify({ load, agx: agxPart, nip49: nip49Part })}\n`);
