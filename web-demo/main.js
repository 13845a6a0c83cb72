#!/usr/bin/env node
// `npm run demo`: a local dev relay, the demo agent and the page's static server in one process.
// Prints the page's URL with the relay and the agent filled in; Ctrl-C (SIGINT) or SIGTERM stops
// all three and exits 0.
//   node web-demo/main.js [--port 8080] [--relay-port 7447] [--host 127.0.0.1] [--token-delay ms]
// Busy default ports fall back to free ones. The model: see README, "The demo".
import { parseArgs } from 'node:util';
import { startRelay } from '../js/relay-server/index.js';
import { startDemoAgent } from './agent/agent.js';
import { startStaticServer } from './serve.js';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    'relay-port': { type: 'string', default: '7447' },
    host: { type: 'string', default: '127.0.0.1' },
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
  const relay = await onPort((port) => startRelay({ port, host, memory: true }), Number(args['relay-port']), 'relay');
  parts.push(relay);
  const agent = await startDemoAgent({
    relays: [relay.url],
    tokenDelay: args['token-delay'] !== undefined ? Number(args['token-delay']) : undefined,
    log,
  });
  parts.push({ close: () => agent.stop() });
  const site = await onPort((port) => startStaticServer({ port, host }), Number(args.port), 'page');
  parts.push(site);
  const url = `${site.origin}/web-demo/?relay=${encodeURIComponent(relay.url)}&agent=${agent.npub}`;
  say(`relay   ${relay.url}`);
  say(`agent   ${agent.npub} (model ${agent.model})`);
  say(`page    ${url}`);
  say('');
  say(`Open ${url}`);
  say('Ctrl-C stops the relay, the agent and the page.');
} catch (err) {
  process.stderr.write(`demo: could not start: ${err.message}\n`);
  await stop(1);
}
