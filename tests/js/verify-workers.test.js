// RelayPool's verifyWorkers option (js/relay/verify-workers.js) in Node (worker_threads, each with
// the real WASM module): over random backlogs and trickles with planted bad signatures, bad ids,
// malformed frames, duplicates and non-matching events from a real WebSocket relay, a pool that
// verifies in workers delivers and drops exactly what a main-thread pool does, in the same order,
// with the same reasons; a disconnect in the middle of a burst loses nothing; pool.close() ends
// the workers and a script that used them exits by itself; a worker that crashes, fails to load,
// answers nonsense or never answers costs no event and ends in a typed error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nostr, prng, randomText } from './helpers.js';
import { pool, startScriptedRelay, until, now, sleep } from './pool-helpers.js';

const { finalizeEvent, generateSecretKey } = nostr;
const flip = (hex, at) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

/**
 * A random script of frames for subscription `sub`: valid events (kinds 1 and 2: the filter asks
 * for kind 1 only), forged signatures, bad ids, duplicates, malformed frames, a NOTICE, frames for
 * an unknown subscription.
 */
function script(rand, n, keys) {
  const base = now() - 10_000;
  const out = [];
  const sent = [];
  for (let i = 0; i < n; i++) {
    const kind = rand() < 0.9 ? 1 : 2;
    const e = finalizeEvent({ kind, created_at: base + i, tags: [['t', String(i)]], content: randomText(rand, 120) }, keys[Math.floor(rand() * keys.length)]);
    const r = rand();
    if (r < 0.04) out.push({ event: { ...e, sig: flip(e.sig, 64 + Math.floor(rand() * 64)) } });
    else if (r < 0.06) out.push({ event: { ...e, sig: flip(e.sig, Math.floor(rand() * 64)) } });
    else if (r < 0.08) out.push({ event: { ...e, content: `${e.content}!` } }); // id mismatch
    else if (r < 0.09) out.push({ event: { ...e, sig: 'f'.repeat(128) } });
    else if (r < 0.1) out.push({ raw: '["EVENT","$SUB",{"id":"nope"}]' });
    else if (r < 0.105) out.push({ raw: 'not json' });
    else if (r < 0.11) out.push({ raw: JSON.stringify(['NOTICE', `notice ${i}`]) });
    else if (r < 0.115) out.push({ other: e }); // another subscription's id
    else if (r < 0.13 && sent.length) out.push({ event: sent[Math.floor(rand() * sent.length)] }); // duplicate
    out.push({ event: e });
    sent.push(e);
  }
  return out;
}

const frameOf = (subId, s) => (s.raw !== undefined ? s.raw.replace('$SUB', subId) : JSON.stringify(['EVENT', s.other ? 'other' : subId, s.event ?? s.other]));

/**
 * A relay that answers a REQ with `steps`: { frames: [...] } sent in one go (one socket write
 * each, read by `ws` together), { wait: ms }, { eose: true }, { drop: true } (terminates the socket).
 */
async function scriptedRelay(steps) {
  return startScriptedRelay(async (ws, msg) => {
    if (!Array.isArray(msg) || msg[0] !== 'REQ') return;
    const sub = msg[1];
    for (const step of steps) {
      if (step.wait !== undefined) await sleep(step.wait);
      else if (step.eose) ws.send(JSON.stringify(['EOSE', sub]));
      else if (step.drop) ws.terminate();
      else for (const s of step.frames) ws.send(frameOf(sub, s));
    }
  });
}

/** Everything the app sees from one subscription, in order. */
async function observe(relayUrl, opts, { until: stop = (log) => log.some((x) => x[0] === 'eose'), reconnect = false } = {}) {
  const p = pool({ relays: [relayUrl], relayInfo: false, reconnect: reconnect ? undefined : false, ...opts });
  const log = [];
  p.on('drop', (d) => log.push(['drop', d.reason, d.code, d.message, d.eventId, d.subId]));
  p.on('notice', (n) => log.push(['notice', n.message]));
  const errors = [];
  p.on('error', (e) => errors.push(e));
  const sub = p.subscribe({ kinds: [1] }, {
    id: 's1',
    onevent: (e) => log.push(['event', e.id, e[nostr.verifiedSymbol] === true]),
    oneose: () => log.push(['eose']),
  });
  try {
    await until(() => stop(log), 'the script to end', 30_000);
    sub.close();
    return { log, errors, stats: p._verifier?.stats, workers: p._verifier?.size ?? 0, pool: p };
  } finally {
    await p.close();
  }
}

test('verifyWorkers delivers and drops exactly as the main thread does, in order, over random backlogs and trickles', { timeout: 120_000 }, async () => {
  const rand = prng(0x5eed);
  const keys = Array.from({ length: 30 }, () => generateSecretKey());
  const a = script(rand, 700, keys);
  const b = script(rand, 300, keys);
  const c = script(rand, 40, keys);
  const steps = [
    { frames: a.slice(0, 600) }, // a backlog: several jobs of up to 256 frames, several workers
    { frames: a.slice(600) },
    { eose: true },
    ...c.map((s) => ({ frames: [s] })).flatMap((f, i) => (i % 3 ? [f] : [{ wait: 2 }, f])), // a trickle
    { frames: b },
    { frames: [{ raw: JSON.stringify(['NOTICE', 'the end']) }] },
  ];
  const relay = await scriptedRelay(steps);
  try {
    const end = (log) => log.some((x) => x[0] === 'notice' && x[1] === 'the end');
    const main = await observe(relay.url, {}, { until: end });
    const workers = await observe(relay.url, { verifyWorkers: { workers: 3 } }, { until: end });
    assert.ok(main.log.filter((x) => x[0] === 'event').length > 900, 'most events delivered');
    assert.ok(main.log.filter((x) => x[1] === 'bad-signature').length > 40, 'forged signatures dropped');
    assert.ok(main.log.some((x) => x[1] === 'malformed') && main.log.some((x) => x[1] === 'duplicate'));
    assert.deepEqual(workers.log, main.log);
    assert.ok(workers.stats.verifiedInWorkers > 900, `the workers verified (${JSON.stringify(workers.stats)})`);
    assert.equal(workers.stats.fallbacks, 0);
    assert.ok(workers.stats.jobs >= 4);
    assert.deepEqual(workers.errors, []);
    assert.equal(workers.pool._verifier.size, 0, 'close() ended the workers');
  } finally {
    await relay.close();
  }
});

test('verifyWorkers: the machine\'s actions run in order with the deliveries of one worker batch (EOSE between events)', { timeout: 60_000 }, async () => {
  const keys = [generateSecretKey()];
  const ev = (i) => ({ event: finalizeEvent({ kind: 1, created_at: now() - 100 + i, tags: [], content: `e${i}` }, keys[0]) });
  // One socket write burst: stored events, the EOSE, then live ones; the eose is an action of the
  // core's machine decided by the EOSE frame's outcome, so it must come after event 4, before 5.
  const frames = [...[0, 1, 2, 3, 4].map(ev), { raw: '["EOSE","$SUB"]' }, ...[5, 6].map(ev), { raw: JSON.stringify(['NOTICE', 'the end']) }];
  const relay = await scriptedRelay([{ frames }]);
  try {
    const end = (log) => log.some((x) => x[0] === 'notice');
    const main = await observe(relay.url, {}, { until: end });
    const workers = await observe(relay.url, { verifyWorkers: { workers: 1 } }, { until: end });
    for (const { log } of [main, workers]) {
      assert.deepEqual(log.map((x) => x[0]), ['event', 'event', 'event', 'event', 'event', 'eose', 'event', 'event', 'notice']);
    }
    assert.deepEqual(workers.log, main.log);
    assert.equal(workers.stats.verifiedInWorkers, 7, `the workers verified (${JSON.stringify(workers.stats)})`);
  } finally {
    await relay.close();
  }
});

test('verifyWorkers: a disconnect in the middle of a burst feeds what arrived before the machine hears of it', { timeout: 60_000 }, async () => {
  const rand = prng(0xd15c);
  const keys = Array.from({ length: 5 }, () => generateSecretKey());
  const burst = script(rand, 900, keys);
  const relay = await scriptedRelay([{ frames: burst }, { drop: true }]);
  try {
    const settle = async (opts) => {
      const p = pool({ relays: [relay.url], relayInfo: false, reconnect: false, ...opts });
      const log = [];
      p.on('drop', (d) => log.push(['drop', d.reason, d.eventId]));
      let closed = false;
      p.on('status', (s) => {
        if (s.state === 'closed') closed = true;
      });
      p.subscribe({ kinds: [1] }, { id: 's1', onevent: (e) => log.push(['event', e.id]) });
      await until(() => closed, 'the drop');
      await sleep(300); // anything still with the workers would come now, and be lost
      await p.close();
      return log;
    };
    const main = await settle({});
    const workers = await settle({ verifyWorkers: 2 });
    assert.ok(main.filter((x) => x[0] === 'event').length > 700);
    assert.deepEqual(workers, main);
  } finally {
    await relay.close();
  }
});

/** A worker script as a data: URL (Node runs ES module workers from them). */
const workerUrl = (code) => new URL(`data:text/javascript,${encodeURIComponent(code)}`);
const PARENT = "import { parentPort } from 'node:worker_threads';";

for (const [what, code] of [
  ['crashes on its first job', `${PARENT} parentPort.on('message', () => { throw new Error('boom'); });`],
  ['exits', `${PARENT} parentPort.on('message', () => process.exit(3));`],
  ['fails to load', `import 'node:does-not-exist';`],
  ['answers nonsense', `${PARENT} parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, valid: 'x' }));`],
  ['claims every frame valid with the wrong count', `${PARENT} parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, valid: '1' }));`],
  ['never answers', `${PARENT} parentPort.on('message', () => {});`],
]) {
  test(`verifyWorkers: a worker that ${what} costs no event and ends in VERIFY_WORKER_FAILED`, { timeout: 60_000 }, async () => {
    const rand = prng(what.length);
    const keys = Array.from({ length: 4 }, () => generateSecretKey());
    const backlog = script(rand, 300, keys);
    const relay = await scriptedRelay([{ frames: backlog.slice(0, 100) }, { wait: 20 }, { frames: backlog.slice(100) }, { eose: true }]);
    try {
      const main = await observe(relay.url, {});
      const broken = await observe(relay.url, { verifyWorkers: { workers: 1, url: workerUrl(code), timeout: 300, maxFailures: 2 } });
      assert.deepEqual(broken.log, main.log);
      assert.ok(broken.stats.failures >= 1 && broken.stats.fallbacks > 0, JSON.stringify(broken.stats));
      assert.equal(broken.stats.verifiedInWorkers, 0);
      // maxFailures 2: one typed error once the second worker failed, none before
      assert.equal(broken.errors.length, broken.stats.failures >= 2 ? 1 : 0, JSON.stringify(broken.stats));
      for (const e of broken.errors) assert.equal(e.code, 'VERIFY_WORKER_FAILED');
    } finally {
      await relay.close();
    }
  });
}

test('verifyWorkers: options are checked, SimplePool passes them on, off by default', async () => {
  for (const bad of ['yes', -1, 1.5, { workers: -2 }, { timeout: 0 }, { minFrames: 'x' }, { url: 5 }])
    assert.throws(() => new nostr.RelayPool({ verifyWorkers: bad }), { code: 'INVALID_ARGUMENT' }, JSON.stringify(bad));
  const off = new nostr.RelayPool({});
  assert.equal(off._verifier, null);
  await off.close();

  const rand = prng(22);
  const keys = [generateSecretKey()];
  const backlog = script(rand, 150, keys).filter((s) => s.event && s.other === undefined);
  const relay = await scriptedRelay([{ frames: backlog }, { eose: true }]);
  const sp = new nostr.SimplePool({ verifyWorkers: 2, enableReconnect: false });
  const plain = new nostr.SimplePool({ enableReconnect: false });
  try {
    const [a, b] = [await sp.querySync([relay.url], { kinds: [1] }), await plain.querySync([relay.url], { kinds: [1] })];
    assert.deepEqual(a.map((e) => e.id), b.map((e) => e.id));
    assert.ok(a.length > 100);
    assert.ok(sp.relayPool._verifier.stats.verifiedInWorkers > 100, JSON.stringify(sp.relayPool._verifier.stats));
  } finally {
    sp.destroy();
    plain.destroy();
    await relay.close();
  }
});

// closePool: pool.close() (the workers end); else only the relay's connection is closed and the
// workers stay, idle: they must not keep Node running either.
for (const closePool of [true, false]) {
  test(`verifyWorkers: a script that used workers exits by itself (${closePool ? 'pool closed' : 'pool left open, relay closed'})`, { timeout: 60_000 }, async () => {
    const rand = prng(99);
    const backlog = script(rand, 200, [generateSecretKey()]);
    const relay = await scriptedRelay([{ frames: backlog }, { eose: true }]);
    const pkg = fileURLToPath(new URL('../../js/index.node.js', import.meta.url));
    const child = `
      const n = await import(${JSON.stringify(pkg)});
      await n.init();
      const url = ${JSON.stringify(relay.url)};
      const p = new n.RelayPool({ relays: [url], relayInfo: false, verifyWorkers: 2 });
      const events = await p.query({ kinds: [1] });
      const stats = { ...p._verifier.stats };
      await (${closePool} ? p.close() : p.close([url]));
      console.log(JSON.stringify({ events: events.length, inWorkers: stats.verifiedInWorkers, alive: p._verifier.size, stats }));
    `;
    try {
      // A file, not `node -e`: workers inherit the parent's execArgv, and would run an -e script again.
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'verify-workers-')), 'child.mjs');
      writeFileSync(file, child);
      const proc = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      proc.stdout.on('data', (d) => (out += d));
      const killer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      const [code, signal] = await new Promise((r) => proc.on('exit', (c, s) => r([c, s])));
      clearTimeout(killer);
      rmSync(path.dirname(file), { recursive: true, force: true });
      assert.equal(signal, null, 'the child exited by itself (a live worker would have kept it running)');
      assert.equal(code, 0);
      const r = JSON.parse(out);
      assert.ok(r.events > 150 && r.inWorkers > 150, out);
      if (closePool) assert.equal(r.alive, 0);
      else assert.ok(r.alive >= 1, 'the workers were still there, idle');
    } finally {
      await relay.close();
    }
  });
}
