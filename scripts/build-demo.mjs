#!/usr/bin/env node
// `npm run build:demo`: the demo page as a static folder any host serves as it is, from its root
// or a sub-path: index.html, app.js (the page and the package's browser build in one minified ES
// module, the Emscripten loader included), core.wasm (fetched next to app.js and compiled while
// it streams; serve it as application/wasm) and style.css. Relative URLs only; no server code.
//
//   node scripts/build-demo.mjs [--out build/demo-site]
//
// Reads dist/core.wasm and dist/core.mjs (`npm run build` makes them). Prints each file's size,
// raw and gzip -9.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { out: { type: 'string', default: 'build/demo-site' }, quiet: { type: 'boolean', default: false } } });
const out = resolve(args.out);

for (const f of ['dist/core.wasm', 'dist/core.mjs'])
  if (!existsSync(join(root, f))) {
    process.stderr.write(`build-demo: ${f} is missing: run \`npm run build\` first\n`);
    process.exit(1);
  }
mkdirSync(out, { recursive: true });

// The page: web-demo/app.js with everything it imports. The page imports the package's browser
// bundle (dist/index.browser.js); here it is built from that bundle's sources (js/), which
// tree-shake and minify further than the bundle can (its modules are wrapped for lazy init).
// Full minification is safe here: the Node-only dynamic imports (ws, node:fs for FileRunStore)
// are never reached in a browser and stay external.
const fromSources = {
  name: 'package-from-sources',
  setup(b) {
    b.onResolve({ filter: /\/dist\/index\.browser\.js$/ }, () => ({ path: join(root, 'js/index.browser.js') }));
  },
};
const js = await build({
  plugins: [fromSources],
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
  outfile: join(out, 'app.js'),
});
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

const files = [
  ['index.html', Buffer.from(html)],
  ['app.js', Buffer.from(js.outputFiles[0].contents)],
  ['style.css', Buffer.from(css.outputFiles[0].contents)],
  ['core.wasm', readFileSync(join(root, 'dist/core.wasm'))],
];
let raw = 0;
let gz = 0;
for (const [name, body] of files) {
  writeFileSync(join(out, name), body);
  const z = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += z;
  if (!args.quiet) process.stdout.write(`${name.padEnd(11)} ${(body.length / 1000).toFixed(1).padStart(7)} KB  ${(z / 1000).toFixed(1).padStart(6)} KB gz\n`);
}
if (!args.quiet) {
  process.stdout.write(`${'total'.padEnd(11)} ${(raw / 1000).toFixed(1).padStart(7)} KB  ${(gz / 1000).toFixed(1).padStart(6)} KB gz\n`);
  process.stdout.write(`wrote ${relative(process.cwd(), out) || '.'}/ (serve it from any path; .wasm as application/wasm)\n`);
}
