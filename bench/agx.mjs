// AGX benchmark rows: the cost of one outbound message (rumor, seal, gift wrap and 12-bit PoW) and
// of one inbound unwrap with every check, ours next to the same work composed from nostr-tools'
// primitives; and task round trips per second between two AgxClients through a real local dev
// relay with the AGX policy (in a child process, so its work is not counted).
//
//   import { measureAgx } from './agx.mjs';   const md = await measureAgx({ ours, quick });
//   node bench/agx.mjs [--quick]
//
// nostr-tools has no AGX layer; its column is nip59.createRumor + createSeal, then the wrap built
// by hand (one-time key, nip44 encrypt, p + expiration tags), nip13.minePow to 12 bits and
// finalizeEvent; and for unwrap: the wrap's id/signature, PoW and expiration checks, then
// nip59.unwrapEvent, the seal's signature and the rumor-author/p-tag checks. PoW is random work
// (4096 hashes expected per wrap): cells are medians over rounds of ops counted in a time budget.
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function startRelayProcess() {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`relay process exited (${code})`)));
    child.once('message', (m) => {
      child.removeAllListeners('exit');
      resolve({ url: m.url, stop: () => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) });
    });
  });
}

async function serve() {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  const relay = await startRelay({ port: 0, rateLimit: false, agxPolicy: true });
  process.send({ url: relay.url });
  const stop = async () => {
    await relay.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

/** ops/s of fn (sync or async, one op per call) over `budget` seconds, median of `rounds`. */
async function rate(fn, { rounds, budget }) {
  const out = [];
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const t0 = performance.now();
    const end = t0 + budget * 1000;
    while (performance.now() < end) {
      const v = fn();
      if (v && typeof v.then === 'function') await v;
      n++;
    }
    out.push(n / ((performance.now() - t0) / 1000));
  }
  return median(out);
}

/**
 * Inbound AGX messages per second through an AgxClient (LocalSigner, in-memory seen store): each
 * of `count` distinct wraps ingested once, every listener called; the median of `rounds` fresh
 * clients. The wraps are mined beforehand (PoW is the sender's cost, not counted).
 */
export async function measureInbound(n, { sender, recipient, text, rounds = 5, count = 400, cpu = false }) {
  const { agx } = n;
  const wraps = [];
  for (let i = 0; i < count * rounds; i++)
    wraps.push(await agx.wrapRumor(agx.createMessageRumor(`${text} #${i}`, sender.publicKey, recipient.publicKey), sender, recipient.publicKey, { slice: 1 << 16 }));
  const out = [];
  for (let r = 0; r < rounds; r++) {
    let got = 0;
    const client = new agx.AgxClient({ signer: recipient, relays: ['ws://127.0.0.1:9'], acceptAll: true, pollInterval: 0, onWarning: () => {}, onMessage: () => void got++ });
    const batch = wraps.slice(r * count, (r + 1) * count);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const w of batch) await client.ingest(w);
    // cpu: this process's CPU time instead of the wall clock (steadier on a loaded machine).
    const c = process.cpuUsage(c0);
    out.push(count / (cpu ? (c.user + c.system) / 1e6 : (performance.now() - t0) / 1000));
    if (got !== count) throw new Error(`inbound bench: ${got} of ${count} delivered`);
    await client.stop();
  }
  return median(out);
}

/** node bench/agx.mjs --inbound [root]: the inbound row alone (wall clock and CPU time), for a before/after of one tree. */
async function inboundOnly(root) {
  const n = await import(pathToFileURL(`${root.endsWith('/') ? root : root + '/'}js/index.node.js`).href);
  await n.init();
  const sender = n.LocalSigner.generate();
  const recipient = n.LocalSigner.generate();
  const count = Number(process.env.NOSTR_BENCH_INBOUND_COUNT ?? 400);
  const rounds = Number(process.env.NOSTR_BENCH_INBOUND_ROUNDS ?? 5);
  const text = 'Please review invoice 1234 for 4200 EUR. '.repeat(4);
  const wall = await measureInbound(n, { sender, recipient, text, count, rounds });
  const cpu = await measureInbound(n, { sender, recipient, text, count, rounds, cpu: true });
  console.log(`AGX inbound messages/s (${root}): ${Math.round(wall)} wall, ${Math.round(cpu)} per CPU second`);
}

export async function measureAgx({ ours = ROOT, quick = false } = {}) {
  const n = await import(pathToFileURL(`${ours.endsWith('/') ? ours : ours + '/'}js/index.node.js`).href);
  await n.init();
  const nt = await import('nostr-tools');
  const { agx } = n;
  const rounds = quick ? 2 : 5;
  const budget = quick ? 0.2 : 1;
  const DAY = 86400;

  const senderSk = n.generateSecretKey();
  const recipientSk = n.generateSecretKey();
  const sender = new n.LocalSigner(senderSk);
  const recipient = new n.LocalSigner(recipientSk);
  const to = recipient.publicKey;
  const text = 'Please review invoice 1234 for 4200 EUR. '.repeat(4);

  // ours: the whole outbound path through the core
  const oursOut = () => agx.wrapRumor(agx.createMessageRumor(text, sender.publicKey, to), sender, to, { slice: 1 << 16 });
  // nostr-tools: the same work composed from its primitives
  const ntOut = () => {
    const now = Math.floor(Date.now() / 1000);
    const rumor = nt.nip59.createRumor({ kind: 3838, content: JSON.stringify({ v: 1, kind: 'message', text }), tags: [['p', to], ['content-type', 'application/a2a+json']] }, senderSk);
    const seal = nt.nip59.createSeal(rumor, senderSk, to);
    const eph = nt.generateSecretKey();
    const createdAt = now - Math.floor(Math.random() * 2 * DAY);
    const tmpl = {
      kind: 1059,
      pubkey: nt.getPublicKey(eph),
      created_at: createdAt,
      tags: [['p', to], ['expiration', String(createdAt + 30 * DAY)]],
      content: nt.nip44.encrypt(JSON.stringify(seal), nt.nip44.getConversationKey(eph, to)),
    };
    return nt.finalizeEvent(nt.nip13.minePow(tmpl, 12), eph);
  };

  const wraps = [];
  for (let i = 0; i < 32; i++) wraps.push(await oursOut());
  // both unwrap paths must accept the same wraps
  const ntIn = (w) => {
    const now = Math.floor(Date.now() / 1000);
    if (!nt.verifyEvent(w)) throw new Error('bad wrap');
    if (nt.nip13.getPow(w.id) < 12) throw new Error('pow');
    const exp = Number(w.tags.find((t) => t[0] === 'expiration')?.[1]);
    if (!(exp > now) || w.created_at > now + 300 || w.tags.filter((t) => t[0] === 'p').length !== 1) throw new Error('wrap tags');
    const seal = JSON.parse(nt.nip44.decrypt(w.content, nt.nip44.getConversationKey(recipientSk, w.pubkey)));
    if (seal.kind !== 13 || !nt.verifyEvent(seal)) throw new Error('seal');
    const rumor = JSON.parse(nt.nip44.decrypt(seal.content, nt.nip44.getConversationKey(recipientSk, seal.pubkey)));
    if (rumor.pubkey !== seal.pubkey || nt.getEventHash(rumor) !== rumor.id || !rumor.tags.some((t) => t[0] === 'p' && t[1] === to)) throw new Error('rumor');
    return rumor;
  };
  const check = ntIn(await ntOut());
  if (check.kind !== 3838) throw new Error('nostr-tools composition broken');
  for (const w of wraps) {
    if (ntIn(w).id !== agx.unwrapAgx(w, recipient).rumor.id) throw new Error('unwrap paths disagree');
  }
  let i = 0;
  const rows = [];
  const out = { ours: await rate(oursOut, { rounds, budget }), nt: await rate(ntOut, { rounds, budget }) };
  rows.push(['AGX message out: rumor + seal + wrap + 12-bit PoW', out.ours, out.nt]);
  const inn = {
    ours: await rate(() => agx.unwrapAgx(wraps[i++ % wraps.length], recipient), { rounds, budget }),
    nt: await rate(() => ntIn(wraps[i++ % wraps.length]), { rounds, budget }),
  };
  rows.push(['AGX message in: unwrap with every check', inn.ours, inn.nt]);

  // the whole inbound path of a client: replay checks, unwrap, route, marks, delivery
  const inbound = await measureInbound(n, { sender, recipient, text, rounds });
  rows.push(['AGX inbound messages: AgxClient.ingest of new wraps (replay, unwrap, route, marks, onMessage)', inbound, null]);

  // task round trips through a real local relay
  const relay = await startRelayProcess();
  const alice = new n.agx.AgxClient({ signer: sender, relays: [relay.url], authorize: 'accept-all', pollInterval: 0, onWarning: () => {} });
  const bob = new n.agx.AgxClient({ signer: recipient, relays: [relay.url], authorize: 'accept-all', pollInterval: 0, onWarning: () => {} });
  bob.handle('bench.echo', (p) => p);
  await Promise.all([alice.start(), bob.start()]);
  await alice.request(to, 'bench.echo', 0, { timeout: 20000 }); // warm-up
  const seq = await rate(() => alice.request(to, 'bench.echo', { i: i++ }, { timeout: 20000 }), { rounds, budget: budget * 2 });
  const par = await rate(
    () => Promise.all(Array.from({ length: 8 }, () => alice.request(to, 'bench.echo', { i: i++ }, { timeout: 20000 }))),
    { rounds, budget: budget * 2 },
  );
  await alice.stop();
  await bob.stop();
  await relay.stop();
  sender.dispose();
  recipient.dispose();

  const f = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));
  const md = [
    '### AGX (NIP-AGX 0.2.0)',
    '',
    '| | ours (ops/s) | nostr-tools composed (ops/s) | ours / nostr-tools |',
    '|---|---:|---:|---:|',
    ...rows.map(([t, a, b]) => (b === null ? `| ${t} | ${f(a)} | n/a | |` : `| ${t} | ${f(a)} | ${f(b)} | ${(a / b).toFixed(2)}× |`)),
    '',
    '| task round trips through a local dev relay (AGX policy), two AgxClients, LocalSigner | tasks/s |',
    '|---|---:|',
    `| one at a time (request → receipt + result) | ${f(seq)} |`,
    `| 8 in flight | ${f(par * 8)} |`,
    '',
    `${rounds} rounds of ~${budget} s; medians. A round trip is 3 wraps mined and 3 unwrapped (request, receipt, result) plus the relay hops.`,
  ].join('\n');
  return md;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') await serve();
else if (isMain && process.argv[2] === '--inbound') await inboundOnly(process.argv[3] ?? ROOT);
else if (isMain) console.log(await measureAgx({ quick: process.argv.includes('--quick') }));
