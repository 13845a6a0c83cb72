#!/usr/bin/env node
// `npm run demo`: a local dev relay, the demo agent and the page's static server in one process.
// Prints the page's URL with the relay and the agent filled in; Ctrl-C (SIGINT) or SIGTERM stops
// all three and exits 0.
//   node web-demo/main.js [--port 8080] [--relay-port 7447] [--host 127.0.0.1] [--token-delay ms]
// Busy default ports fall back to free ones. The model: see docs/demo.md.
//
// Behind a hosted page (npm run build:demo), the agent alone on public relays, with a key kept
// in a file so its npub stays the same from one start to the next:
//   node web-demo/main.js --relay wss://nos.lol --relay wss://relay.damus.io --no-page --key-file agent.key
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { bytesToHex, generateSecretKey, hexToBytes, init, nip19 } from 'nostr-agents';
import { startRelay } from '../js/relay-server/index.js';
import { startDemoAgent } from './agent/agent.js';
import { startStaticServer } from './serve.js';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    'relay-port': { type: 'string', default: '7447' },
    host: { type: 'string', default: '127.0.0.1' },
    relay: { type: 'string', multiple: true },
    'no-page': { type: 'boolean', default: false },
    'key-file': { type: 'string' },
    'token-delay': { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

const say = (line) => process.stdout.write(`${line}\n`);
const log = args.quiet ? () => {} : (line) => process.stderr.write(`demo: ${line}\n`);

/** `start(port)`, or `start(0)` when that port is taken (only for the default ports). */
async function onPort(start, port, name) {
  try {
    return await start(port);
  } catch (err) {
    if (err.code !== 'EADDRINUSE' || port === 0) throw err;
    log(`port ${port} is taken: the ${name} uses a free one`);
    return start(0);
  }
}

/** The agent's key from `file` (64 hex or nsec), made there (mode 0600) the first time. */
function keyFrom(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    const sk = generateSecretKey();
    writeFileSync(file, `${bytesToHex(sk)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    log(`made a new agent key in ${file}`);
    return sk;
  }
  if (/^[0-9a-fA-F]{64}$/.test(text)) return hexToBytes(text.toLowerCase());
  const decoded = (() => {
    try {
      return nip19.decode(text);
    } catch {
      return null;
    }
  })();
  if (decoded?.type !== 'nsec') throw new Error(`${file} holds neither a 64-hex secret key nor an nsec`);
  return decoded.data;
}

const parts = [];
let stopping = null;
async function stop(code) {
  if (stopping) return stopping;
  stopping = (async () => {
    for (const part of parts.reverse()) await part.close().catch((err) => log(`stop: ${err.message}`));
    process.exit(code);
  })();
  return stopping;
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  const host = args.host;
  const bad = (args.relay ?? []).find((u) => !/^wss?:\/\/\S+$/.test(u));
  if (bad) throw new Error(`--relay ${bad}: a relay URL starts with ws:// or wss://`);
  await init();
  let relays = args.relay ?? [];
  if (relays.length === 0) {
    const relay = await onPort((port) => startRelay({ port, host, memory: true }), Number(args['relay-port']), 'relay');
    parts.push(relay);
    relays = [relay.url];
  }
  const secretKey = args['key-file'] ? keyFrom(args['key-file']) : undefined;
  let agent;
  try {
    agent = await startDemoAgent({
      relays,
      secretKey,
      tokenDelay: args['token-delay'] !== undefined ? Number(args['token-delay']) : undefined,
      log,
    });
  } finally {
    secretKey?.fill(0);
  }
  parts.push({ close: () => agent.stop() });
  const query = `?${relays.map((r) => `relay=${encodeURIComponent(r)}`).join('&')}&agent=${agent.npub}`;
  for (const r of relays) say(`relay   ${r}`);
  say(`agent   ${agent.npub} (model ${agent.model})`);
  if (args['no-page']) {
    say('');
    say(`Serving as ${agent.npub}; link a hosted page to it with ${query}`);
  } else {
    const site = await onPort((port) => startStaticServer({ port, host }), Number(args.port), 'page');
    parts.push(site);
    const url = `${site.origin}/web-demo/${query}`;
    say(`page    ${url}`);
    say('');
    say(`Open ${url}`);
  }
  say('Ctrl-C stops the demo.');
} catch (err) {
  process.stderr.write(`demo: could not start: ${err.message}\n`);
  await stop(1);
}
