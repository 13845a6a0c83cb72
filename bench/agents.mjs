// NIP-XX benchmark through a real local dev relay: prompt-to-first-delta and prompt-to-terminal
// latency, runs per second one runtime (serveAgent) sustains with 50 concurrent clients, and the
// runtime's memory per active run. The relay and the agent each run in their own child process,
// so the clients' work is not counted against the agent's and the agent's memory is its own.
//
//   import { benchAgents } from './agents.mjs';   // markdown rows (bench/run.mjs calls it)
//   node bench/agents.mjs [--quick] [--json]
//
// How: latency: one client, prompts sent one after another (each its own run: sign, encrypt,
// subscribe and wait for EOSE, publish; the agent decrypts, admits, answers 3 deltas and a
// response), median and p95. Throughput: 50 clients, each with its own key and connection, each
// sending its next prompt as soon as the previous one ends, for a fixed time. Memory: the agent
// holds N runs open (after their first delta), and its JS heap plus WASM memory growth after
// forced GCs is divided by N.
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
  const relay = await startRelay({ port: 0, rateLimit: false, maxSubscriptions: 1000 });
  process.send({ url: relay.url });
}

async function serveBenchAgent(url) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const nostr = await load();
  const { core } = await import(pathToFileURL(`${ROOT}js/core.js`).href);
  let release;
  let held = new Promise((r) => (release = r));
  const signer = nostr.LocalSigner.generate();
  const agent = await nostr.serveAgent({
    // A load test: the default abuse limits (20 prompts a minute per sender, 8 runs at once) off.
    policy: { promptsPerMinute: 0, maxConcurrent: 0 },
    signer,
    relays: [url],
    info: { tool_names: [] },
    async *handler({ message }) {
      yield 'one ';
      if (message === 'hold') await held;
      yield 'two ';
      yield 'three';
    },
  });
  const memory = async () => {
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    const wasm = core().HEAPU8?.buffer.byteLength ?? 0;
    return { heap: process.memoryUsage().heapUsed, wasm, active: agent.active };
  };
  process.on('message', async (m) => {
    if (m === 'memory') process.send(await memory());
    else if (m === 'release') {
      release();
      held = new Promise((r) => (release = r));
      process.send('ok');
    }
  });
  process.send({ pubkey: agent.pubkey });
}

// --- measurements

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
};
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : NaN;
};

async function timedRun(nostr, pool, signer, agent, message = 'hi') {
  const t0 = performance.now();
  let first = null;
  // terminalGrace 0: the default grace (waiting for a newer terminal) is a wait, not work.
  const run = nostr.prompt({ pool, signer, agent, message, terminalGrace: 0 });
  for await (const u of run) if (u.type === 'delta' && first === null) first = performance.now() - t0;
  await run.result;
  return { first, terminal: performance.now() - t0 };
}

/** Resolves the raw numbers: { latency: {first, terminal} (ms arrays), throughput: {runs, seconds, clients}, memory }. */
export async function measureAgents({ quick = false, clients = 50, log } = {}) {
  const nostr = await load();
  const relay = await child(['--relay']);
  const agent = await child(['--agent', relay.url]);
  const pools = [];
  const signers = [];
  const newClient = () => {
    const pool = new nostr.RelayPool({ relays: [relay.url] });
    const signer = nostr.LocalSigner.generate();
    pools.push(pool);
    signers.push(signer);
    return { pool, signer };
  };
  try {
    // Latency, one client, sequential runs (after a warm-up).
    const one = newClient();
    const n = quick ? 5 : 40;
    for (let i = 0; i < 3; i++) await timedRun(nostr, one.pool, one.signer, agent.pubkey);
    const first = [];
    const terminal = [];
    for (let i = 0; i < n; i++) {
      const r = await timedRun(nostr, one.pool, one.signer, agent.pubkey);
      first.push(r.first);
      terminal.push(r.terminal);
    }
    log?.(`latency: ${n} runs`);

    // Throughput: `clients` clients, each running prompts back to back for `seconds`.
    const many = Array.from({ length: clients }, newClient);
    await Promise.all(many.map((c) => c.pool.ensureRelay(relay.url)));
    const seconds = quick ? 2 : 10;
    let runs = 0;
    let failures = 0;
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    await Promise.all(
      many.map(async (c) => {
        while (performance.now() < deadline) {
          try {
            await timedRun(nostr, c.pool, c.signer, agent.pubkey);
            runs++;
          } catch {
            failures++;
          }
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    log?.(`throughput: ${runs} runs in ${elapsed.toFixed(1)} s (${failures} failed)`);

    // Memory per active run: hold `held` runs open at the agent.
    const held = quick ? 50 : 200;
    const before = await agent.ask('memory');
    const open = [];
    let started = 0;
    let allStarted;
    const startedAll = new Promise((r) => (allStarted = r));
    for (let i = 0; i < held; i++) {
      const c = many[i % many.length];
      const run = nostr.prompt({ pool: c.pool, signer: c.signer, agent: agent.pubkey, message: 'hold', terminalGrace: 0 });
      open.push(run);
      (async () => {
        for await (const u of run)
          if (u.type === 'delta') {
            if (++started === held) allStarted();
            break;
          }
      })();
    }
    await startedAll;
    const during = await agent.ask('memory');
    await agent.ask('release');
    await Promise.all(open.map((r) => r.result.catch(() => {})));
    const perRun = (during.heap + during.wasm - before.heap - before.wasm) / held;
    log?.(`memory: ${during.active} active runs`);
    return {
      latency: { first, terminal },
      throughput: { runs, failures, seconds: elapsed, clients },
      memory: { held, active: during.active, perRunBytes: perRun, heapBytes: during.heap - before.heap, wasmBytes: during.wasm - before.wasm },
    };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    for (const s of signers) s.dispose();
    await agent.stop();
    await relay.stop();
  }
}

/** The markdown rows for `npm run bench`. */
export function renderAgents(r) {
  const ms = (x) => `${x.toFixed(1)} ms`;
  const L = ['', ''];
  L.push('### NIP-XX agent runs through a real local dev relay');
  L.push('');
  L.push('| | |');
  L.push('|---|---|');
  L.push(`| prompt → first delta (median / p95, ${r.latency.first.length} runs) | ${ms(median(r.latency.first))} / ${ms(p95(r.latency.first))} |`);
  L.push(`| prompt → terminal (median / p95) | ${ms(median(r.latency.terminal))} / ${ms(p95(r.latency.terminal))} |`);
  L.push(`| runs/s one runtime sustains, ${r.throughput.clients} concurrent clients | ${(r.throughput.runs / r.throughput.seconds).toFixed(1)} (${r.throughput.runs} runs in ${r.throughput.seconds.toFixed(1)} s${r.throughput.failures ? `, ${r.throughput.failures} failed` : ''}) |`);
  L.push(`| runtime memory per active run (${r.memory.held} held open) | ${(r.memory.perRunBytes / 1024).toFixed(1)} KB |`);
  L.push('');
  L.push('A run: the client signs, encrypts, subscribes (waits for EOSE) and publishes the prompt; the agent (its own process) decrypts, admits and answers 3 deltas and a response, each NIP-44-encrypted and signed; relay in a third process. Memory: the agent\'s JS heap plus WASM memory growth after forced GCs.');
  return L.join('\n');
}

/** Runs the measurement and returns its markdown (what bench/run.mjs appends). */
export async function benchAgents({ quick = false } = {}) {
  process.stderr.write('bench: nipxx agents ...');
  const t = performance.now();
  const r = await measureAgents({ quick });
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return renderAgents(r);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--relay') await serveRelay();
else if (isMain && process.argv[2] === '--agent') await serveBenchAgent(process.argv[3]);
else if (isMain) {
  const args = process.argv.slice(2);
  const r = await measureAgents({ quick: args.includes('--quick'), log: (l) => console.error(l) });
  if (args.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(renderAgents(r));
}
