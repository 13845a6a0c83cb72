// Shared by the pool tests: keys, signers, events, short timings, polling, the two real relays,
// and tiny misbehaving relays (silent, hostile) on `ws`.
import { createServer } from 'node:net';
import { WebSocketServer } from 'ws';
import { nostr, sleep, until } from './helpers.js';
import { startDevRelay, startThirdPartyRelay } from '../support/relays.js';

export { nostr, sleep, until };

export const now = () => Math.floor(Date.now() / 1000);

/** A Signer over a secret key (LocalSigner's interface, without depending on it). */
export function keySigner(sk) {
  return {
    getPublicKey: async () => nostr.getPublicKey(sk),
    signEvent: async (t) => nostr.finalizeEvent(t, sk),
  };
}

export function makeEvent(sk, { kind = 1, content = 'hi', tags = [], created_at = now() } = {}) {
  return nostr.finalizeEvent({ kind, content, tags, created_at }, sk);
}

/** Pool options with test-sized timings (reconnects within ~250 ms, retries within ~200 ms). */
export const FAST = Object.freeze({
  reconnect: { initialDelay: 40, maxDelay: 250, factor: 2, jitter: 0.5 },
  retry: { initialDelay: 40, maxDelay: 200, factor: 2, jitter: 0.5 },
  connectTimeout: 2000,
  publishTimeout: 5000,
  authTimeout: 3000,
  infoTimeout: 1000,
});

export function pool(opts = {}) {
  return new nostr.RelayPool({ ...FAST, ...opts });
}

/** Both real relays: our dev relay (in process) and @nostr-relay/core (child process). */
export const RELAYS = [
  ['dev relay', (opts = {}) => startDevRelay({ memory: true, rateLimit: false, ...opts })],
  ['third-party relay', (opts = {}) => startThirdPartyRelay(opts)],
];

/** A port nothing listens on. */
export async function deadPort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * A relay that accepts the WebSocket and then never reads or answers anything (its TCP socket is
 * paused, so not even a ping gets a pong). `mode: 'tcp'` accepts TCP and never completes the
 * WebSocket handshake.
 */
export async function startSilentRelay({ mode = 'ws' } = {}) {
  const sockets = new Set();
  let close;
  let port;
  if (mode === 'tcp') {
    const srv = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    port = srv.address().port;
    close = () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      srv.close(() => r());
    });
  } else {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    port = wss.address().port;
    wss.on('connection', (ws) => {
      sockets.add(ws);
      ws.on('error', () => {});
      ws._socket.pause();
    });
    close = () => new Promise((r) => {
      for (const s of sockets) s.terminate();
      wss.close(() => r());
    });
  }
  return { url: `ws://127.0.0.1:${port}`, port, connections: () => sockets.size, close };
}

/**
 * A relay scripted by the test: `onFrame(ws, msg)` gets every parsed client frame; helpers send
 * raw text. Records what it received.
 */
export async function startScriptedRelay(onFrame) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const received = [];
  const clients = new Set();
  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('error', () => {});
    ws.on('close', () => clients.delete(ws));
    ws.on('message', (data) => {
      let msg;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        msg = null;
      }
      received.push(msg);
      onFrame(ws, msg);
    });
  });
  const port = wss.address().port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    received,
    clients,
    close: () => new Promise((r) => {
      for (const c of clients) c.terminate();
      wss.close(() => r());
    }),
  };
}
