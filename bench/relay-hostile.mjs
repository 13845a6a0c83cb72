// The dev relay with a hostile client attached (issue 16 item 3): publish-to-OK latency of a
// publisher, idle and with a client holding 50 REQs of about 12 MB of filters that match nothing,
// side by side. The relay runs in a child process (its default store, SQLite in memory, or
// memory when SQLite cannot be loaded), so its work is not counted against the publisher.
//
//   node bench/relay-hostile.mjs [--publishes N] [--rounds N] [--json]
//
// How: N signed kind-1 events (prepared untimed) are published one after another over one
// connection; each latency is EVENT sent -> OK received. A round measures idle (no hostile client),
// then attaches the hostile client (50 REQs, each 10 filters of about 25 KB: ids, authors, #p and
// #e lists of random hex, all of which the REQ's EOSE confirms open), measures again, and detaches
// it. Cells are medians over rounds of each round's median (and p90); the ratio is the median of
// the per-round ratios. The bar: hostile within 2x of idle.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

function startRelayProcess() {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`relay process exited (${code})`)));
    child.once('message', (m) => {
      child.removeAllListeners('exit');
      resolve({
        url: m.url,
        storage: m.storage,
        stop: () =>
          new Promise((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

async function serve() {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  const relay = await startRelay({ port: 0, rateLimit: false });
  process.send({ url: relay.url, storage: relay.storage });
  const stop = async () => {
    await relay.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

async function connect(WebSocket, url) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  return ws;
}

const hex = (n) => randomBytes(n * 32).toString('hex').match(/.{64}/g);

/** 50 REQs of 10 filters each, about 12 MB in all, matching none of the published events. */
function hostileReqs() {
  const keys = ['ids', 'authors', '#p', '#e'];
  const reqs = [];
  for (let r = 0; r < 50; r++) {
    const filters = [];
    for (let f = 0; f < 10; f++) filters.push({ [keys[(r + f) % 4]]: hex(370) });
    reqs.push(JSON.stringify(['REQ', `hostile-${r}`, ...filters]));
  }
  return reqs;
}

async function attachHostile(WebSocket, url, reqs) {
  const ws = await connect(WebSocket, url);
  await new Promise((resolve, reject) => {
    let eose = 0;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m[0] === 'CLOSED') reject(new Error(`the relay closed a hostile REQ: ${m[2]}`));
      if (m[0] === 'EOSE' && ++eose === reqs.length) resolve();
    });
    for (const r of reqs) ws.send(r);
  });
  return ws;
}

/** Publishes the events one by one; resolves their EVENT -> OK latencies (ms). */
function publishAll(ws, events) {
  return new Promise((resolve, reject) => {
    const out = [];
    let i = 0;
    let t0 = 0;
    const next = () => {
      if (i === events.length) {
        ws.off('message', onMessage);
        return resolve(out);
      }
      t0 = performance.now();
      ws.send(events[i]);
    };
    const onMessage = (d) => {
      const m = JSON.parse(d.toString());
      if (m[0] !== 'OK') return;
      if (m[2] !== true) return reject(new Error(`refused: ${m[3]}`));
      out.push(performance.now() - t0);
      i++;
      next();
    };
    ws.on('message', onMessage);
    next();
  });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export async function measureRelayHostile({ publishes = 300, rounds = 3, log = () => {} } = {}) {
  const { default: WebSocket } = await import('ws');
  const nostr = await import(pathToFileURL(`${ROOT}js/index.node.js`).href);
  await nostr.init();
  const sk = nostr.generateSecretKey();
  const now = Math.floor(Date.now() / 1000);
  const reqs = hostileReqs();
  const hostileBytes = reqs.reduce((n, r) => n + r.length, 0);
  const relay = await startRelayProcess();
  try {
    const pub = await connect(WebSocket, relay.url);
    const batch = (tag) =>
      Array.from({ length: publishes }, (_, i) =>
        JSON.stringify(['EVENT', nostr.finalizeEvent({ kind: 1, created_at: now, tags: [['t', 'bench'], ['p', hex(1)[0]]], content: `${tag} ${i}` }, sk)]),
      );
    await publishAll(pub, batch('warm-up').slice(0, 50));
    const idle = [];
    const hostile = [];
    const ratios = [];
    for (let r = 0; r < rounds; r++) {
      const a = await publishAll(pub, batch(`idle ${r}`));
      const h = await attachHostile(WebSocket, relay.url, reqs);
      const b = await publishAll(pub, batch(`hostile ${r}`));
      h.terminate();
      idle.push({ median: quantile(a, 0.5), p90: quantile(a, 0.9) });
      hostile.push({ median: quantile(b, 0.5), p90: quantile(b, 0.9) });
      ratios.push(quantile(b, 0.5) / quantile(a, 0.5));
      log(`round ${r + 1}: idle ${quantile(a, 0.5).toFixed(3)} ms, hostile ${quantile(b, 0.5).toFixed(3)} ms`);
    }
    pub.terminate();
    const med = (xs) => quantile(xs, 0.5);
    return {
      publishes,
      rounds,
      storage: relay.storage,
      hostileBytes,
      idleMs: { median: med(idle.map((x) => x.median)), p90: med(idle.map((x) => x.p90)) },
      hostileMs: { median: med(hostile.map((x) => x.median)), p90: med(hostile.map((x) => x.p90)) },
      ratio: med(ratios),
    };
  } finally {
    await relay.stop();
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') {
  await serve();
} else if (isMain) {
  const args = process.argv.slice(2);
  const num = (flag, d) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const r = await measureRelayHostile({
    publishes: num('--publishes', 300),
    rounds: num('--rounds', 3),
    log: args.includes('--json') ? undefined : (line) => console.error(line),
  });
  if (args.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else {
    const mb = (r.hostileBytes / 1e6).toFixed(1);
    console.log(`\ndev relay (${r.storage} store) with a hostile client: 50 REQs, ${mb} MB of non-matching filters; ${r.publishes} publishes x ${r.rounds} rounds\n`);
    console.log('| publish-to-OK | median | p90 |');
    console.log('|---|---|---|');
    console.log(`| idle | ${r.idleMs.median.toFixed(3)} ms | ${r.idleMs.p90.toFixed(3)} ms |`);
    console.log(`| hostile client attached | ${r.hostileMs.median.toFixed(3)} ms | ${r.hostileMs.p90.toFixed(3)} ms |`);
    console.log(`| ratio (hostile / idle) | ${r.ratio.toFixed(2)}x | within 2x: ${r.ratio <= 2 ? 'yes' : 'NO'} |`);
  }
}
