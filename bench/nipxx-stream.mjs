// NIP-XX streaming through a real local dev relay: how fast the client turns the relay's feed of
// a run into deltas, and a 100 KB answer streamed in small deltas (reconciliation must stay linear:
// no copy of the whole text per delta).
//
//   import { benchNipxxStream } from './nipxx-stream.mjs';   // markdown rows (bench/run.mjs)
//   node bench/nipxx-stream.mjs [--quick] [--json] [--root DIR]   (--root: another tree's js/ and dist/)
//
// How: the relay and the agent each run in their own child process. The agent's handler yields a
// 100 KB answer as 1,000 deltas of 100 bytes (each NIP-44-encrypted and signed), then responds.
// The client (this process: our prompt(), or the peer below) times first delta -> terminal; the
// rate is deltas per second of wall time, and the client's own CPU time (process.cpuUsage: parse,
// signature check, NIP-44 decryption, reconciliation, iteration) per 1,000 deltas is what
// separates the clients, since the agent and the relay pace the stream. Median of the rounds.
// Peer: nostr-tools (SimplePool with its default verifier, nip44.decrypt), which has no NIP-XX
// client: the peer orders by seq and concatenates, with none of the seed's reconciliation rules
// (dedupe, gaps, INVALID_SEQUENCE, terminal choice), so it is a floor, not an equal.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { forkChild, ROOT as HERE } from './child.mjs';

const SELF = fileURLToPath(import.meta.url);
const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? `${process.argv[rootArg + 1].replace(/\/$/, '')}/` : HERE;
const DELTAS = Number(process.env.NIPXX_STREAM_DELTAS ?? 1000);
const CHUNK = 100;

async function load() {
  const nostr = await import(pathToFileURL(`${ROOT}js/index.node.js`).href);
  await nostr.init();
  return nostr;
}

async function serveRelay() {
  const { startRelay } = await import(pathToFileURL(`${ROOT}js/relay-server/index.js`).href);
  const relay = await startRelay({ port: 0, rateLimit: false, maxSubscriptions: 1000 });
  process.send({ url: relay.url });
}

async function serveAgent(url, deltas) {
  const nostr = await load();
  const chunk = 'x'.repeat(CHUNK - 1) + ' ';
  const agent = await nostr.serveAgent({
    policy: { promptsPerMinute: 0, maxConcurrent: 0 },
    signer: nostr.LocalSigner.generate(),
    relays: [url],
    info: { tool_names: [] },
    async *handler() {
      for (let i = 0; i < deltas; i++) yield chunk;
    },
  });
  process.send({ pubkey: agent.pubkey });
}

const cpuMs = (u) => (u.user + u.system) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function ours(nostr, pool, agent) {
  const signer = nostr.LocalSigner.generate();
  const run = nostr.prompt({ pool, signer, agent, message: 'stream', terminalGrace: 0 });
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
  if (text.length !== DELTAS * CHUNK || final.length !== DELTAS * CHUNK) throw new Error(`ours: ${text.length} / ${final.length} bytes`);
  return { deltas: n, wall, cpu };
}

// nostr-tools: the same run (our prompt() sends it; its updates are not read), and a SimplePool
// subscription on the run's deltas and terminal that decrypts and orders them itself.
async function peer(nostr, tools, url, agent) {
  const sk = nostr.generateSecretKey();
  const client = nostr.getPublicKey(sk);
  const key = tools.nip44.getConversationKey(sk, agent);
  const pool = new tools.SimplePool();
  const parts = [];
  let t0 = null;
  let cpu0 = null;
  let done;
  const finished = new Promise((r) => (done = r));
  const ourPool = new nostr.RelayPool({ relays: [url] });
  let sent = null;
  const sub = pool.subscribeMany(
    [url],
    { kinds: [25801, 25803, 25805], '#p': [client], authors: [agent] },
    {
      onevent(e) {
        const payload = JSON.parse(tools.nip44.decrypt(e.content, key));
        if (e.kind === 25801) {
          if (t0 === null) (t0 = performance.now()), (cpu0 = process.cpuUsage());
          parts[payload.seq] = payload.text;
        } else done(payload);
      },
      oneose() {
        sent ??= nostr.prompt({ pool: ourPool, signer: new nostr.LocalSigner(sk), agent, message: 'stream', terminalGrace: 0 }).result.catch(() => {});
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
  if (text.length !== DELTAS * CHUNK || terminal.text.length !== DELTAS * CHUNK) throw new Error(`peer: ${text.length} bytes`);
  return { deltas: DELTAS, wall, cpu };
}

export async function measureNipxxStream({ quick = false } = {}) {
  const rounds = quick ? 1 : 5;
  const relay = await forkChild(SELF, ['--relay', ...(ROOT === HERE ? [] : ['--root', ROOT])]);
  const agentProc = await forkChild(SELF, ['--agent', relay.url, String(DELTAS), ...(ROOT === HERE ? [] : ['--root', ROOT])]);
  const nostr = await load();
  const pool = new nostr.RelayPool({ relays: [relay.url] });
  const out = { ours: [], peer: [] };
  try {
    await ours(nostr, pool, agentProc.pubkey); // warm-up
    for (let i = 0; i < rounds; i++) out.ours.push(await ours(nostr, pool, agentProc.pubkey));
    let tools = null;
    try {
      tools = await import('nostr-tools');
      const { useWebSocketImplementation } = await import('nostr-tools/pool');
      useWebSocketImplementation((await import('ws')).default);
    } catch {
      tools = null;
    }
    if (tools) for (let i = 0; i < rounds; i++) out.peer.push(await peer(nostr, tools, relay.url, agentProc.pubkey));
  } finally {
    await pool.close();
    await agentProc.stop();
    await relay.stop();
  }
  const sum = (rs) => rs.length && { deltasPerSec: median(rs.map((r) => (r.deltas / r.wall) * 1000)), cpuPer1000: median(rs.map((r) => (r.cpu / r.deltas) * 1000)), wall: median(rs.map((r) => r.wall)) };
  return { rounds, deltas: DELTAS, bytes: DELTAS * CHUNK, ours: sum(out.ours), peer: sum(out.peer) };
}

export function renderNipxxStream(r) {
  const L = ['', '', `### NIP-XX streaming: relay feed to deltas, a ${r.bytes / 1000} KB answer in ${r.deltas} deltas`, ''];
  L.push('| client | deltas/s (wall) | client CPU per 1,000 deltas | 100 KB answer, first delta → terminal |');
  L.push('|---|---|---|---|');
  const row = (name, s) => s && L.push(`| ${name} | ${s.deltasPerSec.toFixed(0)} | ${s.cpuPer1000.toFixed(1)} ms | ${s.wall.toFixed(0)} ms |`);
  row('nostr-agents prompt()', r.ours);
  row('nostr-tools SimplePool + nip44 (no reconciliation)', r.peer);
  L.push('');
  L.push(`Relay and agent in their own processes; the agent's signing and the relay pace the wall rate, the client's CPU time is its own work. Median of ${r.rounds} rounds.`);
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
else if (isMain && process.argv[2] === '--agent') await serveAgent(process.argv[3], Number(process.argv[4]));
else if (isMain) {
  const r = await measureNipxxStream({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(renderNipxxStream(r));
}
