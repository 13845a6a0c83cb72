// Relay feed benchmark: events per second delivered *verified* to the app through a real local
// dev relay (our `nostr-agents relay`, in a child process so its work is not counted), and the
// memory held per 10,000 received events and per 1,000 open subscriptions.
//
//   import { measureRelayFeed } from './relay-feed.mjs';
//   const r = await measureRelayFeed({ events: 10_000, subscriptions: 1_000 });
//
// or `node bench/relay-feed.mjs [--events N] [--subscriptions N] [--rounds N] [--no-peers] [--json]`.
//
// How: N signed kind-1 events are stored in the relay (untimed, over a raw socket). Each round
// opens a fresh subscription for them on an already open connection and times REQ -> the Nth
// event in the app's onevent (EOSE included): parse, filter re-check, dedupe, BIP-340 verify.
// Memory is measured after forced GCs: JS heap plus the growth of the WASM memory. The rate is
// the median of `rounds` (the first of which also measures memory), after a small warm-up.
// Peers, on the same relay and socket library (`ws`): nostr-tools' SimplePool with its default
// verifier (noble) and with nostr-wasm's verifyEvent.
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

async function settle() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
}

/** Starts the dev relay in a child process; resolves {url, stop()}. */
function startRelayProcess(options) {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--serve', JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`relay process exited (${code})`)));
    child.once('message', (m) => {
      child.removeAllListeners('exit');
      resolve({
        url: m.url,
        stop: () =>
          new Promise((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function serve(options) {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  // The default store (SQLite in memory): indexed queries, so 1,000 REQs cost the relay little.
  const relay = await startRelay({ port: 0, rateLimit: false, ...options });
  process.send({ url: relay.url });
  const stop = async () => {
    await relay.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

/** Stores events in the relay over one raw socket, pipelined; resolves when every OK is in. */
async function storeEvents(WebSocket, url, events) {
  const ws = new WebSocket(url);
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  await new Promise((resolve, reject) => {
    let oks = 0;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m[0] !== 'OK') return;
      if (!m[2] && !String(m[3]).startsWith('duplicate')) reject(new Error(`relay refused: ${m[3]}`));
      if (++oks === events.length) resolve();
    });
    for (const e of events) ws.send(JSON.stringify(['EVENT', e]));
  });
  ws.terminate();
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * One client under test: open(url) connects; feed(filter, n) resolves {ms, events} once n events
 * arrived (and EOSE); subscribeMany(filters) resolves once every subscription had EOSE and returns
 * a closer; close().
 */
function oursClient(nostr, core) {
  let pool;
  return {
    name: 'ours',
    wasmBytes: () => core().HEAPU8.buffer.byteLength,
    async open(url) {
      pool = new nostr.RelayPool({ relays: [url], relayInfo: false, ping: false });
      await pool.ensureRelay(url);
    },
    feed(filter, n, keep) {
      return new Promise((resolve, reject) => {
        const events = [];
        let eose = false;
        const t0 = performance.now();
        const done = () => {
          if (!eose || events.length < n) return;
          const ms = performance.now() - t0;
          sub.close();
          resolve({ ms, events: keep ? events : [] });
        };
        const sub = pool.subscribe(filter, {
          onevent: (e) => {
            events.push(e);
            done();
          },
          oneose: () => {
            eose = true;
            if (events.length < n) reject(new Error(`only ${events.length} of ${n} events before EOSE`));
            else done();
          },
        });
      });
    },
    async subscribeMany(filters) {
      let left = filters.length;
      let resolveAll;
      const all = new Promise((r) => (resolveAll = r));
      const subs = filters.map((f) => pool.subscribe(f, { oneose: () => --left === 0 && resolveAll() }));
      await all;
      return () => subs.forEach((s) => s.close());
    },
    close: () => pool.close(),
  };
}

function nostrToolsClient(name, SimplePool, WebSocket, verifyEvent) {
  let pool;
  let url;
  return {
    name,
    wasmBytes: () => 0,
    async open(u) {
      url = u;
      pool = new SimplePool({ websocketImplementation: WebSocket, ...(verifyEvent ? { verifyEvent } : {}) });
      await pool.ensureRelay(url);
    },
    feed(filter, n, keep) {
      return new Promise((resolve, reject) => {
        const events = [];
        let eose = false;
        const t0 = performance.now();
        const done = () => {
          if (!eose || events.length < n) return;
          const ms = performance.now() - t0;
          sub.close();
          resolve({ ms, events: keep ? events : [] });
        };
        const sub = pool.subscribeMany([url], filter, {
          onevent: (e) => {
            events.push(e);
            done();
          },
          oneose: () => {
            eose = true;
            if (events.length < n) reject(new Error(`only ${events.length} of ${n} events before EOSE`));
            else done();
          },
          maxWait: 600_000,
        });
      });
    },
    async subscribeMany(filters) {
      let left = filters.length;
      let resolveAll;
      const all = new Promise((r) => (resolveAll = r));
      const subs = filters.map((f) => pool.subscribeMany([url], f, { oneose: () => --left === 0 && resolveAll(), maxWait: 600_000 }));
      await all;
      return () => subs.forEach((s) => s.close());
    },
    async close() {
      pool.destroy();
    },
  };
}

async function measureClient(client, { url, pubkey, n, subscriptions, rounds, log }) {
  await client.open(url);
  const filter = { kinds: [1], authors: [pubkey], limit: n };
  // Warm-up (JIT, first-use allocations) on a slice of the events, untimed.
  await client.feed({ ...filter, limit: Math.min(n, 500) }, Math.min(n, 500), false);

  // First round: the app keeps what it receives, for the memory it holds; then it lets go.
  await settle();
  const heap0 = process.memoryUsage().heapUsed;
  const wasm0 = client.wasmBytes();
  let held = await client.feed(filter, n, true);
  const times = [held.ms];
  await settle();
  const heldBytes = process.memoryUsage().heapUsed - heap0 + (client.wasmBytes() - wasm0);
  held = null;
  await settle();
  const poolBytes = process.memoryUsage().heapUsed - heap0 + (client.wasmBytes() - wasm0);
  for (let i = 1; i < rounds; i++) times.push((await client.feed(filter, n, false)).ms);
  const ms = median(times);

  // Memory per open subscription.
  await settle();
  const heapS = process.memoryUsage().heapUsed;
  const wasmS = client.wasmBytes();
  const filters = Array.from({ length: subscriptions }, (_, i) => ({ kinds: [1], '#t': [`bench-${i}`] }));
  const t0 = performance.now();
  const closeAll = await client.subscribeMany(filters);
  const subscribeMs = performance.now() - t0;
  await settle();
  const subBytes = process.memoryUsage().heapUsed - heapS + (client.wasmBytes() - wasmS);
  closeAll();
  await client.close();

  const r = {
    eventsPerSecond: Math.round((n / ms) * 1000),
    feedMs: Math.round(ms * 10) / 10,
    rounds: times.map((t) => Math.round(t)),
    bytesPer10kEventsHeld: Math.round((heldBytes * 10_000) / n),
    bytesPer10kEventsAfterRelease: Math.round((poolBytes * 10_000) / n),
    bytesPer1kSubscriptions: Math.round((subBytes * 1_000) / subscriptions),
    subscribeMsPer1k: Math.round((subscribeMs * 1_000) / subscriptions),
  };
  log?.(`${client.name}: ${JSON.stringify(r)}`);
  return r;
}

/**
 * Measures ours (and, with peers, nostr-tools' SimplePool with noble and with nostr-wasm) through
 * one dev relay process. Resolves {events, subscriptions, results: {name: {...}}}.
 */
export async function measureRelayFeed({ events = 10_000, subscriptions = 1_000, rounds = 3, peers = true, log } = {}) {
  const nostr = await import(pathToFileURL(`${ROOT}js/index.node.js`).href);
  const { core } = await import(pathToFileURL(`${ROOT}js/core.js`).href);
  await nostr.init();
  const { WebSocket } = await import('ws');

  const relay = await startRelayProcess({ maxLimit: events, maxSubscriptions: subscriptions + 10 });
  try {
    const sk = nostr.generateSecretKey();
    const pubkey = nostr.getPublicKey(sk);
    const base = Math.floor(Date.now() / 1000) - events;
    const list = Array.from({ length: events }, (_, i) =>
      nostr.finalizeEvent({ kind: 1, created_at: base + i, tags: [['t', 'feed']], content: `event ${i} ${'·'.repeat(i % 64)}` }, sk),
    );
    await storeEvents(WebSocket, relay.url, list);
    log?.(`stored ${events} events in ${relay.url}`);

    const opts = { url: relay.url, pubkey, n: events, subscriptions, rounds, log };
    const results = {};
    results.ours = await measureClient(oursClient(nostr, core), opts);
    if (peers) {
      const { SimplePool } = await import('nostr-tools/pool');
      results['nostr-tools'] = await measureClient(nostrToolsClient('nostr-tools', SimplePool, WebSocket), opts);
      const ntWasm = await import('nostr-tools/wasm');
      const { initNostrWasm } = await import('nostr-wasm');
      ntWasm.setNostrWasm(await initNostrWasm());
      results['nostr-tools + nostr-wasm'] = await measureClient(
        nostrToolsClient('nostr-tools + nostr-wasm', SimplePool, WebSocket, ntWasm.verifyEvent),
        opts,
      );
    }
    return { events, subscriptions, results };
  } finally {
    await relay.stop();
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3]));
} else if (isMain) {
  const args = process.argv.slice(2);
  const num = (flag, d) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const r = await measureRelayFeed({
    events: num('--events', 10_000),
    subscriptions: num('--subscriptions', 1_000),
    rounds: num('--rounds', 3),
    peers: !args.includes('--no-peers'),
    log: args.includes('--json') ? undefined : (line) => console.error(line),
  });
  if (args.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else {
    const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;
    console.log(`\nrelay feed: ${r.events} stored events, ${r.subscriptions} subscriptions (dev relay in a child process)\n`);
    console.log('| client | events/s delivered verified | memory per 10k events held (after release) | memory per 1k subscriptions |');
    console.log('|---|---|---|---|');
    for (const [name, x] of Object.entries(r.results))
      console.log(`| ${name} | ${x.eventsPerSecond} | ${kb(x.bytesPer10kEventsHeld)} (${kb(x.bytesPer10kEventsAfterRelease)}) | ${kb(x.bytesPer1kSubscriptions)} |`);
  }
}
