// Bundles each package entry (js/index.{node,browser,single}.js, js/index.lite.{node,browser}.js and everything they import) into
// one ES module in dist/, next to the WASM loader it imports. js/ stays the source of truth (tests
// import it directly); package.json "exports" point at these bundles, so an app without a bundler
// loads one JS module plus the loader instead of ~40 modules.
//
// The bundles are for bundlers too, which tree-shake them (package.json "sideEffects": false):
// Rollup writes them (namespaces as `/*#__PURE__*/Object.freeze({...})`, no helper calls at the
// top level) and terser minifies them without compressing, keeping the pure annotations, the
// bundlers' `webpackIgnore` / `@vite-ignore` comments on the Node-only dynamic imports, and class
// and function names (readable errors and stack traces). Lines stay short and each file has a
// source map (into js/, which ships).
//
//   node scripts/bundle.mjs          (run by scripts/build.sh and by `npm pack`)
import { transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const js = resolve(root, 'js');
export const MAX_LINE = 500;

// Written only when changed, through a rename: test files running in parallel each rebundle
// before `npm pack` and must never read a half-written file.
function save(path, contents) {
  const buf = Buffer.from(contents);
  if (existsSync(path) && readFileSync(path).equals(buf)) return;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, buf);
  renameSync(tmp, path);
}

/**
 * What stays outside a bundle: packages and node: built-ins; the Emscripten loaders (dist/core*.mjs,
 * imported from beside the bundle); for the main entries also js/core.js (the one WASM instance and
 * its loader) and js/errors.js (the NostrError class), so that code importing js/ modules directly
 * (nostr-agents/relay-server, the CLI, tests of internals) shares them with an app that imported the
 * package. The lite entries inline them: they load another module and must not share its instance.
 */
function externals(shareCoreState) {
  return {
    name: 'nostr-agents-externals',
    resolveId(source, importer) {
      if (!importer) return null;
      if (!source.startsWith('.') && !source.startsWith('/')) return { id: source, external: true };
      const path = resolve(dirname(importer), source);
      if (/\/dist\/core(-single|-lite)?\.mjs$/.test(path)) return { id: path, external: true };
      if (shareCoreState && (path === resolve(js, 'core.js') || path === resolve(js, 'errors.js'))) return { id: path, external: true };
      return null;
    },
  };
}

const TERSER = {
  module: true,
  compress: false,
  mangle: { keep_classnames: true, keep_fnames: true },
  format: { comments: /webpackIgnore|@vite-ignore|[@#]__PURE__|[@#]__NO_SIDE_EFFECTS__/, preserve_annotations: true, max_line_len: MAX_LINE },
};

const terser = {
  name: 'terser',
  async renderChunk(code) {
    const { minify } = await import('terser');
    const out = await minify(code, { ...TERSER, sourceMap: true });
    // terser does not break an export list: a long one gets a line per name (the last line, so
    // no mapping of any other line moves).
    const code2 = out.code.replace(/^export\{[^\n]*\};?$/m, (l) => (l.length > MAX_LINE ? l.replace(/,/g, ',\n') : l));
    return { code: code2, map: out.map };
  },
};

async function bundle(input, output, shareCoreState) {
  const warnings = [];
  const { rollup } = await import('rollup');
  const b = await rollup({
    input: resolve(root, input),
    plugins: [externals(shareCoreState)],
    onwarn: (w) => warnings.push(w),
  });
  const { output: [chunk] } = await b.generate({
    format: 'es',
    // The bundles sit in dist/: the loaders beside them, the shared js/ modules one folder up.
    paths: (id) => (id.startsWith(`${root}/dist/`) ? `./${basename(id)}` : id.startsWith(`${js}/`) ? `../js/${id.slice(js.length + 1)}` : id),
    file: resolve(root, output),
    sourcemap: true,
    sourcemapExcludeSources: true, // js/ ships beside dist/
    generatedCode: 'es2015',
    plugins: [terser],
  });
  await b.close();
  const unexpected = warnings.filter((w) => w.code !== 'CIRCULAR_DEPENDENCY');
  if (unexpected.length) throw new Error(`bundle ${input}: ${unexpected.map((w) => w.message).join('\n')}`);
  save(resolve(root, output), `${chunk.code}//# sourceMappingURL=${basename(output)}.map\n`);
  save(resolve(root, `${output}.map`), chunk.map.toString());
}

const ENTRIES = [
  ['js/index.node.js', 'dist/index.node.js', true],
  ['js/index.browser.js', 'dist/index.browser.js', true],
  ['js/index.single.js', 'dist/index.single.js', true],
  // `nostr-agents/lite`: without the relay pool and the protocol layers, on dist/core-lite.wasm.
  ['js/index.lite.node.js', 'dist/lite.node.js', false],
  ['js/index.lite.browser.js', 'dist/lite.browser.js', false],
  // RelayPool's verifyWorkers: the worker script, beside the bundles that start it (`new URL('./verify-worker.js',
  // import.meta.url)`), with its own instance of dist/core.mjs.
  ['js/relay/verify-worker.js', 'dist/verify-worker.js', false],
];

// Bundling takes seconds of CPU (terser), and every test that packs the package runs this script:
// the bundles are made again only when js/, this script or the bundlers changed.
const hash = createHash('sha256');
for (const f of readdirSync(js, { recursive: true }).filter((f) => f.endsWith('.js')).sort()) hash.update(f).update(readFileSync(resolve(js, f)));
hash.update(readFileSync(fileURLToPath(import.meta.url)));
for (const p of ['rollup', 'terser']) hash.update(readFileSync(resolve(root, 'node_modules', p, 'package.json')));
const inputsSum = hash.digest('hex');
const sumFile = resolve(root, 'dist/.bundles.sha256');
const outputs = ENTRIES.flatMap(([, out]) => [out, `${out}.map`]);
if (!(existsSync(sumFile) && readFileSync(sumFile, 'utf8') === inputsSum && outputs.every((f) => existsSync(resolve(root, f))))) {
  await Promise.all(ENTRIES.map(([input, output, share]) => bundle(input, output, share)));
  save(sumFile, inputsSum);
}

// The Emscripten loaders (dist/core*.mjs; core-web.mjs and core-agx.mjs are the built demo page's) come out of emcc with whitespace removed but long local
// names (no closure compiler here: TOOLCHAIN.md): a full esbuild minification takes a quarter off
// their gzip size. Identifiers and syntax only change inside the file; the module's exports, the
// `Module["..."]` property names, the wasm import/export names and wasmUrl()'s
// `new URL("./core.wasm", import.meta.url)` (which bundlers follow) stay as they are. Lines are cut
// at MAX_LINE characters, and a source map leads back to emcc's output (embedded: it does not ship).
// The single-file loader's base64 module moves to the end of the file, 900 characters a line. Only
// emcc's own output is processed (it still has the `_scriptDir` name; esbuild renames differ from
// run to run), so a second run, or a run with no relink in between, leaves the files alone.
const DATA_URI = /"(data:application\/octet-stream;base64,[A-Za-z0-9+/=]+)"/;
for (const name of ['core.mjs', 'core-single.mjs', 'core-lite.mjs', 'core-web.mjs', 'core-agx.mjs']) {
  const file = resolve(root, 'dist', name);
  if (!existsSync(file)) continue;
  let text = readFileSync(file, 'utf8');
  if (!text.includes('var _scriptDir')) continue;
  const embedded = text.match(DATA_URI);
  if (embedded) text = text.replace(DATA_URI, 'NOSTR_WASM_DATA_URI');
  const out = await transform(text, {
    minify: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    lineLimit: MAX_LINE,
    sourcemap: 'external',
    sourcefile: `${name} (emcc output)`,
  });
  let code = out.code;
  if (embedded) {
    const parts = embedded[1].match(/.{1,900}/g).map((p) => JSON.stringify(p));
    code += `var NOSTR_WASM_DATA_URI=/* @__PURE__ */[\n${parts.join(',\n')}\n].join("");\n`;
  }
  save(`${file}.map`, out.map);
  save(file, `${code}//# sourceMappingURL=${name}.map\n`);
}
