// Real relays for tests, all on 127.0.0.1 and a free port:
//   startDevRelay(opts)        our dev relay, in this process (opts as startRelay's)
//   startThirdPartyRelay(opts) @nostr-relay/core + its SQLite repository, in a child process
// Both resolve to { url, port, stop(), restart(), close() }:
//   stop()     kills the relay at once (every client socket drops); stored events are kept
//   restart()  stop() if running, then start again ON THE SAME PORT with the same events
//   close()    stop() and discard the stored events (temp files); call it when the test ends
// rawClient(url) is a bare NIP-01 client on `ws` for protocol-level assertions.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startRelay, openStore } from 'nostr-agents/relay-server';

const CHILD = fileURLToPath(new URL('./third-party-relay.js', import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Retries `fn` while the port is still held by the previous instance (restart on the same port). */
async function retryInUse(fn, tries = 50) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (err && err.code === 'EADDRINUSE' && i < tries) {
        await sleep(100);
        continue;
      }
      throw err;
    }
  }
}

/** Our dev relay, in-process. Options: startRelay's (store: memory or SQLite :memory: by default). */
export async function startDevRelay(opts = {}) {
  const store = opts.store ?? openStore({ db: opts.db, memory: opts.memory });
  let relay = await startRelay({ ...opts, store, port: opts.port ?? 0 });
  const port = relay.port;
  const url = relay.url;
  let closed = false;
  const handle = {
    url,
    port,
    store,
    get relay() {
      return relay;
    },
    get running() {
      return relay !== null;
    },
    async stop() {
      if (relay) {
        const r = relay;
        relay = null;
        await r.close();
      }
    },
    async restart() {
      if (closed) throw new Error('relay was closed');
      await handle.stop();
      relay = await retryInUse(() => startRelay({ ...opts, store, port }));
    },
    async close() {
      closed = true;
      await handle.stop();
      if (!opts.store) store.close();
    },
  };
  return handle;
}

// Children and temp dirs still alive when the test process exits are cleaned up here.
const liveChildren = new Set();
const tempDirs = new Set();
let exitHook = false;
function ensureExitHook() {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const c of liveChildren) c.kill('SIGKILL');
    for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  });
}

/** Resolves once a WebSocket handshake to `url` succeeds (the relay accepts connections). */
export async function waitForRelay(url, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const ws = new WebSocket(url);
      ws.once('open', () => {
        ws.terminate();
        resolve(true);
      });
      ws.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`relay at ${url} did not accept connections`);
    await sleep(50);
  }
}

function spawnThirdParty(port, file, auth) {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [String(port), file, auth ? 'auth' : ''], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let output = '';
    const keep = (d) => {
      output = (output + d).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    liveChildren.add(child);
    child.once('exit', () => liveChildren.delete(child));
    const onExit = (code, signal) => {
      const err = new Error(`third-party relay exited (${signal ?? code}) before listening:\n${output}`);
      reject(err);
    };
    child.once('exit', onExit);
    child.on('message', (m) => {
      if (m && typeof m.port === 'number') {
        child.off('exit', onExit);
        resolve({ child, port: m.port });
      } else if (m && m.error) {
        child.off('exit', onExit);
        child.kill('SIGKILL');
        const err = new Error(`third-party relay: ${m.error}`);
        err.code = m.code;
        reject(err);
      }
    });
  });
}

function killChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/**
 * @nostr-relay/core with @nostr-relay/event-repository-sqlite in a child process.
 * `auth: true` turns its NIP-42 on (it then sends AUTH on connect; it only gates DMs on it).
 */
export async function startThirdPartyRelay({ auth = false } = {}) {
  ensureExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'nostr-agents-3p-'));
  tempDirs.add(dir);
  const file = join(dir, 'relay.sqlite');
  let { child, port } = await spawnThirdParty(0, file, auth);
  const url = `ws://127.0.0.1:${port}`;
  await waitForRelay(url);
  let closed = false;
  const handle = {
    url,
    port,
    get pid() {
      return child ? child.pid : undefined;
    },
    get running() {
      return child !== null;
    },
    async stop() {
      const c = child;
      child = null;
      await killChild(c);
    },
    async restart() {
      if (closed) throw new Error('relay was closed');
      await handle.stop();
      ({ child } = await retryInUse(() => spawnThirdParty(port, file, auth)));
      await waitForRelay(url);
    },
    async close() {
      closed = true;
      await handle.stop();
      rmSync(dir, { recursive: true, force: true });
      tempDirs.delete(dir);
    },
  };
  return handle;
}

/**
 * A bare NIP-01 client: send(frame) sends an array (or a raw string), next(pred, ms) resolves with
 * the first received frame (parsed) matching `pred` that was not taken yet, closed resolves when
 * the socket closes, close() closes it.
 */
export function rawClient(url, { timeoutMs = 5000 } = {}) {
  const ws = new WebSocket(url);
  const queue = [];
  const waiters = [];
  ws.on('message', (data) => {
    let frame;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      frame = ['<unparsable>', data.toString()];
    }
    const i = waiters.findIndex((w) => w.pred(frame));
    if (i >= 0) {
      const [w] = waiters.splice(i, 1);
      clearTimeout(w.timer);
      w.resolve(frame);
    } else queue.push(frame);
  });
  ws.on('error', () => {});
  const opened = new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  opened.catch(() => {});
  const closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
  const client = {
    ws,
    opened,
    closed,
    frames: queue,
    async send(frame) {
      await opened;
      ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
    next(pred = () => true, ms = timeoutMs) {
      const i = queue.findIndex(pred);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        w.timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`no matching frame within ${ms} ms; unclaimed: ${JSON.stringify(queue).slice(0, 500)}`));
        }, ms);
        waiters.push(w);
      });
    },
    /** Resolves true if no frame matching `pred` arrives within `ms`. */
    async none(pred, ms = 300) {
      try {
        await client.next(pred, ms);
        return false;
      } catch {
        return true;
      }
    },
    async close() {
      for (const w of waiters.splice(0)) clearTimeout(w.timer);
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.terminate();
      await closed;
    },
  };
  return client;
}
