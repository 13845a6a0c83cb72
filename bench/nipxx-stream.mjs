// NIP-XX streaming through a real local dev relay: how fast the client turns the relay's feed of
// a run into deltas, and whether a long answer stays linear (no copy of the whole text per delta).
//
//   import { benchNipxxStream } from './nipxx-stream.mjs';   // markdown rows (bench/run.mjs)
//   node bench/nipxx-stream.mjs [--quick] [--json] [--root DIR]   (--root: the client from another tree's
//                                                                 js/ and dist/, e.g. a worktree of an
//                                                                 older main: before/after)
//
// How: the relay and the agent each run in their own child process. For each prompt the agent
// prepares the whole answer first (N deltas of 100 bytes through the core's AgentRun, each
// NIP-44-encrypted and signed, then the response) and only then publishes it at once, so the relay
// feeds the client as fast as it forwards: the agent's signing does not pace what is measured.
// The client (this process) times its first delta -> terminal (wall) and its own CPU time over
// that span (process.cpuUsage: parse, signature check, NIP-44 decryption, reconciliation,
// iteration). Answers of 100 KB (1,000 deltas) and 400 KB (4,000 deltas; ours only): with O(n) work per
// delta (the whole text copied each time) the CPU per 1,000 deltas grows with the answer; linear
// work keeps it flat. Median of the rounds.
// Peer: nostr-tools (SimplePool with its default verifier, nip44.decrypt), which has no NIP-XX
// client: the peer orders by seq and concatenates, with none of the seed's reconciliation rules
// (dedupe, gaps, INVALID_SEQUENCE, terminal choice), so it is a floor, not an equal.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { forkChild, ROOT as HERE } from './child.mjs';

const SELF = fileURLToPath(import.meta.url);
const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? `${process.argv[rootArg + 1].replace(/\/$/, '')}/` : HERE;
const CHUNK = 100;
// Deltas per answer: 100 KB and 400 KB (NIPXX_STREAM_SIZES=1000,2000 for a shorter run).
const SIZES = (process.env.NIPXX_STREAM_SIZES ?? '1000,4000').split(',').map(Number);

async function load() {
  const nostr = await import(pathToFileURL(`${ROOT}js/index.node.js`).href);
  await nostr.init();
  return nostr;
}

async function serveRelay() {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  // A 400 KB answer's response event carries the whole text: over the default 256 KiB limit.
  const relay = await startRelay({ port: 0, rateLimit: false, maxSubscriptions: 1000, maxMessageLength: 2 * 1024 * 1024 });
  process.send({ url: relay.url });
}

// Answers each prompt (its message: the number of deltas) with a burst prepared in advance.
async function serveBurstAgent(url) {
  const nostr = await load();
  const signer = nostr.LocalSigner.generate();
  const agent = await signer.getPublicKey();
  const pool = new nostr.RelayPool({ relays: [url] });
  const chunk = 'x'.repeat(CHUNK - 1) + ' ';
  const seal = async (client, out) =>
    signer.signEvent({ kind: out.kind, tags: out.tags, content: await signer.nip44Encrypt(client, out.plaintext), created_at: Math.floor(Date.now() / 1000) });
  const answer = async (prompt) => {
    const { message } = JSON.parse(await signer.nip44Decrypt(prompt.pubkey, prompt.content));
    const n = Number(message);
    const session = prompt.tags.find((t) => t[0] === 's')?.[1] ?? '';
    const run = new nostr.nipxx.AgentRun({ promptId: prompt.id, clientPubkey: prompt.pubkey, session });
    const events = [];
    for (let i = 0; i < n; i++) events.push(await seal(prompt.pubkey, run.delta(chunk)));
    events.push(await seal(prompt.pubkey, run.respond(chunk.repeat(n))));
    run.dispose();
    const refused = (await Promise.all(events.map((e) => pool.publish(e)))).flat().filter((o) => o.status !== 'accepted');
    if (refused.length > 0) console.error('bench agent: the relay refused', refused[0]);
  };
  await new Promise((resolve) => {
    const sub = pool.subscribe([{ kinds: [nostr.nipxx.KINDS.prompt], '#p': [agent] }], {
      onevent: (e) => answer(e).catch((err) => console.error('bench agent:', err)),
      oneose: resolve,
    });
    if (sub.eosed) resolve();
  });
  process.send({ pubkey: agent });
}

const cpuMs = (u) => (u.user + u.system) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function ours(nostr, pool, agent, deltas) {
  const signer = nostr.LocalSigner.generate();
  const run = nostr.prompt({ pool, signer, agent, message: String(deltas), terminalGrace: 0 });
  let t0 = null;
  let cpu0 = null;
  let n = 0;
  let text = '';
  for await (const u of run) {
    if (u.type === 'delta') {
      if (t0 === null) (t0 = performance.now()), (cpu0 = process.cpuUsage());
      n++;
      text = u.text;
    }
  }
  const { text: final } = await run.result;
  const wall = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  if (n !== deltas || text.length !== deltas * CHUNK || final.length !== deltas * CHUNK) throw new Error(`ours: ${n} deltas, ${text.length} / ${final.length} bytes`);
  return { deltas: n, wall, cpu };
}

// nostr-tools: the same run (our prompt() sends it; its updates are not read), and a SimplePool
// subscription on the run's deltas and terminal that decrypts and orders them itself.
async function peer(nostr, tools, url, agent, deltas) {
  const sk = nostr.generateSecretKey();
  const client = nostr.getPublicKey(sk);
  const key = tools.nip44.getConversationKey(sk, agent);
  const pool = new tools.SimplePool(); // from nostr-tools/pool: the module whose WebSocket was set
  const parts = [];
  let t0 = null;
  let cpu0 = null;
  let done;
  let fail;
  const finished = new Promise((resolve, reject) => ((done = resolve), (fail = reject)));
  const ourPool = new nostr.RelayPool({ relays: [url] });
  let sent = null;
  const K = nostr.nipxx.KINDS;
  const sub = pool.subscribeMany(
    [url],
    { kinds: [K.delta, K.response, K.error], '#p': [client], authors: [agent] },
    {
      onevent(e) {
        const payload = JSON.parse(tools.nip44.decrypt(e.content, key));
        if (e.kind === K.delta) {
          if (t0 === null) (t0 = performance.now()), (cpu0 = process.cpuUsage());
          parts[payload.seq] = payload.text;
        } else done(payload);
      },
      onclose(reasons) {
        fail(new Error(`peer: subscription closed: ${JSON.stringify(reasons)}`)); // a no-op after the terminal
      },
      oneose() {
        sent ??= nostr.prompt({ pool: ourPool, signer: new nostr.LocalSigner(sk), agent, message: String(deltas), terminalGrace: 0 }).result.catch(() => {});
      },
    },
  );
  const terminal = await finished;
  const text = parts.join('');
  const wall = performance.now() - t0;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  sub.close();
  pool.close([url]);
  await sent;
  await ourPool.close();
  if (text.length !== deltas * CHUNK || terminal.text.length !== deltas * CHUNK) throw new Error(`peer: ${text.length} bytes`);
  return { deltas, wall, cpu };
}

export async function measureNipxxStream({ quick = false } = {}) {
  const rounds = quick ? 1 : 3; // each answer is signed anew per run: 4,000 events take the agent a while
  // The relay and the agent are always this tree's: --root swaps only the client measured.
  const relay = await forkChild(SELF, ['--relay']);
  const agentProc = await forkChild(SELF, ['--agent', relay.url]);
  const nostr = await load();
  const pool = new nostr.RelayPool({ relays: [relay.url] });
  let tools = null;
  try {
    // nostr-tools/pool, not the main entry: that is another module instance, and Node 20 has no
    // global WebSocket for it.
    const toolsPool = await import('nostr-tools/pool');
    toolsPool.useWebSocketImplementation((await import('ws')).default);
    tools = { ...(await import('nostr-tools')), SimplePool: toolsPool.SimplePool };
  } catch {
    tools = null;
  }
  const out = [];
  try {
    await ours(nostr, pool, agentProc.pubkey, 200); // warm-up
    for (const deltas of SIZES) {
      const row = { deltas, bytes: deltas * CHUNK, ours: [], peer: [] };
      // Round-robin, so machine noise hits both alike.
      for (let i = 0; i < rounds; i++) {
        row.ours.push(await ours(nostr, pool, agentProc.pubkey, deltas));
        if (tools && deltas === SIZES[0]) row.peer.push(await peer(nostr, tools, relay.url, agentProc.pubkey, deltas));
      }
      out.push(row);
    }
  } finally {
    await pool.close();
    await agentProc.stop();
    await relay.stop();
  }
  const sum = (rs) => rs.length && { deltasPerSec: median(rs.map((r) => (r.deltas / r.wall) * 1000)), cpuPer1000: median(rs.map((r) => (r.cpu / r.deltas) * 1000)), wall: median(rs.map((r) => r.wall)) };
  return { rounds, chunk: CHUNK, sizes: out.map((r) => ({ deltas: r.deltas, bytes: r.bytes, ours: sum(r.ours), peer: sum(r.peer) })) };
}

export function renderNipxxStream(r) {
  const L = ['', '', `### NIP-XX streaming: relay feed to deltas (${r.chunk}-byte deltas, the answer published at once)`, ''];
  L.push('| client | answer | deltas/s (wall) | client CPU per 1,000 deltas | first delta → terminal |');
  L.push('|---|---|---|---|---|');
  for (const s of r.sizes) {
    const row = (name, x) => x && L.push(`| ${name} | ${s.bytes / 1000} KB (${s.deltas} deltas) | ${x.deltasPerSec.toFixed(0)} | ${x.cpuPer1000.toFixed(1)} ms | ${x.wall.toFixed(0)} ms |`);
    row('nostr-agents prompt()', s.ours);
    row('nostr-tools SimplePool + nip44 (no reconciliation)', s.peer);
  }
  L.push('');
  L.push(`Relay and agent in their own processes; the agent prepares each answer, then publishes it at once. CPU per 1,000 deltas that stays flat from 100 KB to 400 KB shows linear work per delta. Median of ${r.rounds} rounds.`);
  return L.join('\n');
}

export async function benchNipxxStream({ quick = false } = {}) {
  process.stderr.write('bench: nipxx streaming ...');
  const t = performance.now();
  const r = await measureNipxxStream({ quick });
  process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  return renderNipxxStream(r);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--relay') await serveRelay();
else if (isMain && process.argv[2] === '--agent') await serveBurstAgent(process.argv[3]);
else if (isMain) {
  const r = await measureNipxxStream({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(renderNipxxStream(r));
}
