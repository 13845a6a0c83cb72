// Load: one NIP-XX agent runtime, 100 concurrent clients, 1,000 runs through a real local dev
// relay (issue 8, section 3). Reports lost runs (must be 0), latency prompt → terminal (p50, p99)
// and the runtime's memory over the run, to show it does not grow after warm-up.
//
//   import { benchLoad } from './load.mjs';   // markdown (bench/run.mjs calls it: --only load)
//   node bench/load.mjs [--quick] [--json] [--clients N] [--runs N]
//
// How: the relay and the agent each run in their own child process (the agent's memory is its
// own). The clients share this process: each has its own key and its own connection and sends its
// next prompt as soon as its previous run ends, so 100 runs are in flight at any time. A run is a
// prompt answered with 3 deltas and a response; it is lost if it does not end with the expected
// text (a run hearing nothing for 30 s ends RUN_INCOMPLETE and counts as lost). Memory: after
// every tenth of the runs the agent forces GCs and reports its JS heap, its WASM memory and its
// RSS; the first tenth is the warm-up.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ROOT, forkChild, loadPackage } from './child.mjs';

const SELF = fileURLToPath(import.meta.url);

const load = loadPackage;
const child = (args) => forkChild(SELF, args);

// --- child processes

async function serveRelay() {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  const relay = await startRelay({ port: 0, memory: true, rateLimit: false, maxSubscriptions: 1000 });
  process.send({ url: relay.url });
}

async function serveLoadAgent(url) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const nostr = await load();
  const { core } = await import(pathToFileURL(`${ROOT}js/core.js`).href);
  let handled = 0;
  const agent = await nostr.serveAgent({
    // A load test: the default abuse limits (20 prompts a minute per sender, 8 runs at once) off.
    policy: { promptsPerMinute: 0, maxConcurrent: 0 },
    signer: nostr.LocalSigner.generate(),
    relays: [url],
    info: { tool_names: [] },
    async *handler({ message }) {
      handled++;
      yield 'one ';
      yield 'two ';
      yield message;
    },
  });
  process.on('message', async (m) => {
    if (m !== 'memory') return;
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    const { heapUsed, rss } = process.memoryUsage();
    process.send({ heap: heapUsed, wasm: core().HEAPU8?.buffer.byteLength ?? 0, rss, active: agent.active, handled });
  });
  process.send({ pubkey: agent.pubkey });
}

// --- measurement

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
};

/** Resolves the raw numbers: { clients, runs, lost, seconds, latency (ms array), memory: [{ runs, heap, wasm, rss }] }. */
export async function measureLoad({ clients = 100, runs = 1000, log } = {}) {
  const nostr = await load();
  const relay = await child(['--relay']);
  const agent = await child(['--agent', relay.url]);
  const pools = [];
  const signers = [];
  try {
    const many = Array.from({ length: clients }, () => {
      const pool = new nostr.RelayPool({ relays: [relay.url], relayInfo: false });
      const signer = nostr.LocalSigner.generate();
      pools.push(pool);
      signers.push(signer);
      return { pool, signer };
    });
    await Promise.all(pools.map((p) => p.ensureRelay(relay.url)));
    const memory = [{ runs: 0, ...(await agent.ask('memory')) }];
    const step = Math.max(1, Math.floor(runs / 10));
    const latency = [];
    const lost = [];
    let started = 0;
    let done = 0;
    let sampling = Promise.resolve();
    const t0 = performance.now();
    await Promise.all(
      many.map(async (c) => {
        while (started < runs) {
          const n = started++;
          const message = `run ${n}`;
          const t = performance.now();
          try {
            // terminalGrace 0: the default grace after the terminal is a wait, not the runtime's work.
            const run = nostr.prompt({ pool: c.pool, signer: c.signer, agent: agent.pubkey, message, idleTimeout: 30_000, terminalGrace: 0 });
            const { text } = await run.result;
            if (text !== `one two ${message}`) lost.push({ n, why: `text ${JSON.stringify(text)}` });
            else latency.push(performance.now() - t);
          } catch (err) {
            lost.push({ n, why: err.code ?? String(err) });
          }
          if (++done % step === 0) {
            const at = done;
            sampling = sampling.then(async () => memory.push({ runs: at, ...(await agent.ask('memory')) }));
            log?.(`${done} runs`);
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await sampling;
    const final = await agent.ask('memory');
    return { clients, runs, lost, seconds, latency, memory, handled: final.handled };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    for (const s of signers) s.dispose();
    await agent.stop();
    await relay.stop();
  }
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;

/** The markdown section for `npm run bench`. */
export function renderLoad(r) {
  const ms = (x) => `${x.toFixed(0)} ms`;
  const warm = r.memory[1] ?? r.memory[0];
  const last = r.memory.at(-1);
  const total = (m) => m.heap + m.wasm;
  const L = ['', ''];
  L.push(`### Load: one NIP-XX runtime, ${r.clients} concurrent clients, ${r.runs.toLocaleString('en-US')} runs through a local dev relay`);
  L.push('');
  L.push('| | |');
  L.push('|---|---|');
  L.push(`| runs lost | **${r.lost.length}** of ${r.runs}${r.lost.length ? ` (${r.lost.slice(0, 5).map((l) => `#${l.n}: ${l.why}`).join('; ')})` : ''} |`);
  L.push(`| prompts the handler saw | ${r.handled} |`);
  L.push(`| prompt → terminal, p50 / p99 | ${ms(quantile(r.latency, 0.5))} / ${ms(quantile(r.latency, 0.99))} |`);
  L.push(`| throughput | ${(r.runs / r.seconds).toFixed(1)} runs/s (${r.seconds.toFixed(1)} s) |`);
  L.push(`| runtime memory after warm-up (${warm.runs} runs) → end (JS heap + WASM, after GC) | ${mb(total(warm))} → ${mb(total(last))} (${total(last) >= total(warm) ? '+' : ''}${((total(last) - total(warm)) / 1024).toFixed(0)} KB) |`);
  L.push(`| runtime RSS after warm-up → end | ${mb(warm.rss)} → ${mb(last.rss)} |`);
  L.push('');
  L.push(`Runtime memory over the run (runs done: JS heap + WASM after GC): ${r.memory.map((m) => `${m.runs}: ${mb(total(m))}`).join(', ')}.`);
  L.push('');
  L.push(`Relay, agent and the clients in three processes; the clients share one process and the two shared cores with the others, so latency includes queueing behind ${r.clients - 1} other runs.`);
  return L.join('\n');
}

/** Runs the measurement and returns its markdown (what bench/run.mjs appends). */
export async function benchLoad({ quick = false } = {}) {
  process.stderr.write('bench: load ...');
  const t = performance.now();
  const r = await measureLoad(quick ? { clients: 20, runs: 100 } : {});
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return renderLoad(r);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--relay') await serveRelay();
else if (isMain && process.argv[2] === '--agent') await serveLoadAgent(process.argv[3]);
else if (isMain) {
  const args = process.argv.slice(2);
  const num = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
  const quick = args.includes('--quick');
  const r = await measureLoad({ clients: num('--clients', quick ? 20 : 100), runs: num('--runs', quick ? 100 : 1000), log: (l) => console.error(l) });
  if (args.includes('--json')) console.log(JSON.stringify({ ...r, latency: { p50: quantile(r.latency, 0.5), p99: quantile(r.latency, 0.99) } }, null, 2));
  else console.log(renderLoad(r));
}
