// Looks for a secret key where a page could hold it: every string in its JS heap (a V8 heap
// snapshot, so closures and module scopes count, not only globals), the bytes of every WebAssembly
// memory it made (where the package keeps keys), and its localStorage, sessionStorage, IndexedDB
// and cookies. The key is searched as lowercase and uppercase hex, as nsec, and as raw bytes.
// Not covered: raw bytes in plain JS ArrayBuffers (heap snapshots leave their contents out, and
// CDP's Runtime.queryObjects crashed Chromium 156's renderer on the demo page).

/** An init script (page.addInitScript) that records every WebAssembly.Memory the page makes or instantiates. */
export const MEMORY_PROBE = `(() => {
  const list = [];
  Object.defineProperty(window, Symbol.for('nostr-agents.test.memories'), { value: list });
  const W = WebAssembly;
  const keep = (r) => {
    const inst = r && (r.instance || r);
    if (inst && inst.exports) for (const v of Object.values(inst.exports)) if (v instanceof W.Memory && !list.includes(v)) list.push(v);
    return r;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const f = W[name];
    if (typeof f === 'function') W[name] = function (...args) { return f.apply(W, args).then(keep); };
  }
  const M = W.Memory;
  W.Memory = new Proxy(M, { construct(t, args) { const m = Reflect.construct(t, args); list.push(m); return m; } });
})();`;

/** Resolves { heapStrings: [forms found], buffers: count, storage: [where found] }. */
export async function scanPageForSecret(page, sk, { nsec }) {
  const hex = Buffer.from(sk).toString('hex');
  const forms = { hex, HEX: hex.toUpperCase(), nsec };
  const cdp = await page.context().newCDPSession(page);
  try {
    // 1. Every string in the heap.
    const chunks = [];
    cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    await cdp.send('HeapProfiler.disable');
    const snapshot = chunks.join('');
    if (snapshot.length < 100_000) throw new Error(`the heap snapshot looks empty (${snapshot.length} bytes)`);
    const heapStrings = Object.entries(forms)
      .filter(([, v]) => snapshot.includes(v))
      .map(([k]) => k);

    // 2. Raw bytes in every WebAssembly memory the page made (recorded by MEMORY_PROBE).
    const memories = await page.evaluate((h) => {
      const needle = new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
      const list = window[Symbol.for('nostr-agents.test.memories')];
      if (!Array.isArray(list)) return null;
      let found = 0;
      for (const m of list) {
        const bytes = new Uint8Array(m.buffer);
        outer: for (let i = bytes.indexOf(needle[0]); i !== -1 && i + needle.length <= bytes.length; i = bytes.indexOf(needle[0], i + 1)) {
          for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
          found++;
          break;
        }
      }
      return { count: list.length, found };
    }, hex);
    if (memories === null) throw new Error('the page was opened without MEMORY_PROBE');
    const buffers = memories.found;
    const scanned = { memories: memories.count };

    // 3. Storage the page can read.
    const storage = await page.evaluate(async (needles) => {
      const where = [];
      const toText = (v) =>
        JSON.stringify(v, (k, x) =>
          ArrayBuffer.isView(x) ? Array.from(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), (b) => b.toString(16).padStart(2, '0')).join('') : x,
        );
      const check = (label, text) => {
        if (needles.some((n) => text.includes(n))) where.push(label);
      };
      for (const [name, s] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]])
        for (let i = 0; i < s.length; i++) check(`${name}:${s.key(i)}`, `${s.key(i)}=${s.getItem(s.key(i))}`);
      for (const { name } of await indexedDB.databases()) {
        const db = await new Promise((res, rej) => {
          const r = indexedDB.open(name);
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        for (const store of db.objectStoreNames) {
          const all = await new Promise((res, rej) => {
            const r = db.transaction(store).objectStore(store).getAll();
            r.onsuccess = () => res(r.result);
            r.onerror = () => rej(r.error);
          });
          check(`indexedDB:${name}/${store}`, toText(all));
        }
        db.close();
      }
      check('document.cookie', document.cookie);
      return where;
    }, Object.values(forms));
    return { heapStrings, buffers, storage, scanned, snapshotBytes: snapshot.length };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
