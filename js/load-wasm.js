// Loads a browser entry's WASM module from `url` (the loader's wasmUrl(): beside the loader, or
// wherever a bundler copied it), through Emscripten's instantiateWasm hook: streaming compilation
// when the server sends application/wasm, the bytes otherwise. Every failure names the URL and
// what to do, since the usual cause is a bundler that did not copy the .wasm (a 404, or an HTML
// fallback page served in its place).

/** createCore(options) with the module fetched from `url`; rejects with an Error naming `url`. */
export function loadWasm(createCore, url, options) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const ready = createCore({
    ...options,
    instantiateWasm(imports, receive) {
      instantiate(String(url), imports).then((r) => receive(r.instance, r.module), fail);
      return {};
    },
  });
  return Promise.race([ready, failed]);
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

async function instantiate(url, imports) {
  const hint =
    'the .wasm is not served there: let the bundler copy it (Vite, webpack 5 and Parcel do; Rollup and esbuild need a plugin for ' +
    "`new URL('./…', import.meta.url)` assets), copy it from node_modules/nostr-agents/dist/, or import nostr-agents/single, which embeds it";
  let res;
  try {
    res = await fetch(url, { credentials: 'same-origin' });
  } catch (err) {
    throw new Error(`fetching ${url} failed (${err?.message ?? err}): ${hint}`, { cause: err });
  }
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}: ${hint}`);
  const type = res.headers.get('content-type') ?? '';
  if (type.split(';')[0].trim() === 'application/wasm' && typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return await WebAssembly.instantiateStreaming(res, imports);
    } catch (err) {
      // An HTML page served as application/wasm fails on the magic word; a CSP without
      // 'wasm-unsafe-eval' fails here too, with its own message.
      if (/magic/i.test(err?.message)) throw new Error(`${url} is not a WebAssembly module (${err.message}): ${hint}`, { cause: err });
      throw new Error(`${url}: ${err?.message ?? err}`, { cause: err });
    }
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!WASM_MAGIC.every((b, i) => bytes[i] === b))
    throw new Error(`${url} is not a WebAssembly module (${type || 'no content type'}, ${bytes.length} bytes): ${hint}`);
  return WebAssembly.instantiate(bytes, imports);
}
