// Bundles each package entry (js/index.{node,browser,single}.js, js/index.lite.{node,browser}.js and everything they import) into
// one minified ES module in dist/, next to the WASM loader it imports. js/ stays the source of
// truth (tests import it directly); package.json "exports" point at these bundles, so an app loads
// one JS module plus the loader instead of ~40 modules (fewer bytes, faster start-up).
//
//   node scripts/bundle.mjs          (run by scripts/build.sh and by `npm pack`)
import { build } from 'esbuild';
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
  build({ ...common, entryPoints: ['js/index.node.js'], outfile: 'dist/index.node.js', platform: 'node', packages: 'external' }),
  build({ ...common, entryPoints: ['js/index.browser.js'], outfile: 'dist/index.browser.js', platform: 'browser', packages: 'external' }),
  build({ ...common, entryPoints: ['js/index.single.js'], outfile: 'dist/index.single.js', platform: 'neutral', packages: 'external' }),
  // `nostr-agents/lite`: without the relay pool and the protocol layers, on dist/core-lite.wasm.
  build({ ...common, entryPoints: ['js/index.lite.node.js'], outfile: 'dist/lite.node.js', platform: 'node', packages: 'external' }),
  build({ ...common, entryPoints: ['js/index.lite.browser.js'], outfile: 'dist/lite.browser.js', platform: 'browser', packages: 'external' }),
]);
results.forEach(save);
