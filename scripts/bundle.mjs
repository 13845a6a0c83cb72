// Bundles each package entry (js/index.{node,browser,single}.js, js/index.lite.{node,browser}.js and everything they import) into
// one minified ES module in dist/, next to the WASM loader it imports. js/ stays the source of
// truth (tests import it directly); package.json "exports" point at these bundles, so an app loads
// one JS module plus the loader instead of ~40 modules (fewer bytes, faster start-up).
//
//   node scripts/bundle.mjs          (run by scripts/build.sh and by `npm pack`)
import { build, transform } from 'esbuild';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The Emscripten loaders stay separate files: the bundle imports them from its own directory.
const keepLoaders = {
  name: 'keep-wasm-loaders',
  setup(b) {
    b.onResolve({ filter: /\/dist\/core(-single|-lite)?\.mjs$/ }, (args) => ({
      path: `./${args.path.split('/').pop()}`,
      external: true,
    }));
  },
};

// The main entries share js/core.js (the one WASM instance and its loader) and js/errors.js (the
// NostrError class) with the unbundled sources instead of inlining copies: code that imports
// js/ modules directly (nostr-agents/relay-server, the CLI, tests of internals) then uses the same
// instance as an app that imported the package. The lite entries inline them: they load another
// module and must not replace the main entry's loader.
const shareCoreState = {
  name: 'share-core-state',
  setup(b) {
    b.onResolve({ filter: /^\.\/(core|errors)\.js$/ }, (args) =>
      args.importer.startsWith(resolve(root, 'js')) && dirname(args.importer) === resolve(root, 'js')
        ? { path: `../js/${args.path.slice(2)}`, external: true }
        : undefined,
    );
    b.onResolve({ filter: /^\.\.\/(core|errors)\.js$/ }, (args) =>
      dirname(dirname(args.importer)) === resolve(root, 'js') || dirname(args.importer).startsWith(resolve(root, 'js') + '/')
        ? { path: `../js/${args.path.slice(3)}`, external: true }
        : undefined,
    );
  },
};

const common = {
  bundle: true,
  format: 'esm',
  // Whitespace and identifiers only: syntax minification would fold the `ws` specifier that
  // js/relay/websocket.js keeps in a variable (so bundlers do not follow it) into import("ws").
  minifyWhitespace: true,
  minifyIdentifiers: true,
  keepNames: true, // class and function names stay readable in errors and stack traces
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [keepLoaders],
  absWorkingDir: root,
  write: false,
};

const shared = { ...common, plugins: [keepLoaders, shareCoreState] };

// Written only when changed, through a rename: test files running in parallel each rebundle
// before `npm pack` and must never read a half-written file.
function save(result) {
  for (const out of result.outputFiles) {
    if (existsSync(out.path) && readFileSync(out.path).equals(out.contents)) continue;
    const tmp = `${out.path}.${process.pid}.tmp`;
    writeFileSync(tmp, out.contents);
    renameSync(tmp, out.path);
  }
}

const results = await Promise.all([
  // Node: dependencies (ws) stay imports; node: built-ins are external on platform node.
  build({ ...shared, entryPoints: ['js/index.node.js'], outfile: 'dist/index.node.js', platform: 'node', packages: 'external' }),
  build({ ...shared, entryPoints: ['js/index.browser.js'], outfile: 'dist/index.browser.js', platform: 'browser', packages: 'external' }),
  build({ ...shared, entryPoints: ['js/index.single.js'], outfile: 'dist/index.single.js', platform: 'neutral', packages: 'external' }),
  // `nostr-agents/lite`: without the relay pool and the protocol layers, on dist/core-lite.wasm.
  build({ ...common, entryPoints: ['js/index.lite.node.js'], outfile: 'dist/lite.node.js', platform: 'node', packages: 'external' }),
  build({ ...common, entryPoints: ['js/index.lite.browser.js'], outfile: 'dist/lite.browser.js', platform: 'browser', packages: 'external' }),
]);
results.forEach(save);

// The Emscripten loaders (dist/core*.mjs; core-web.mjs is the built demo page's) come out of emcc with whitespace removed but long local
// names (no closure compiler here: TOOLCHAIN.md): a full esbuild minification takes a quarter off
// their gzip size. Identifiers and syntax only change inside the file; the module's export, the
// `Module["..."]` property names, the wasm import/export names and `new URL("core.wasm",
// import.meta.url)` (which bundlers follow) stay as they are. Only emcc's own output is minified
// (it still has the `_scriptDir` name; esbuild renames differ from run to run), so a second run, or
// a run with no relink in between, leaves the files alone.
for (const name of ['core.mjs', 'core-single.mjs', 'core-lite.mjs', 'core-web.mjs']) {
  const file = resolve(root, 'dist', name);
  if (!existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  if (!text.includes('var _scriptDir = import.meta.url')) continue;
  const out = await transform(text, { minify: true, format: 'esm', target: 'es2022', legalComments: 'none', logLevel: 'warning' });
  save({ outputFiles: [{ path: file, contents: Buffer.from(out.code) }] });
}
