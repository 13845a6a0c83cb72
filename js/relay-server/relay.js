// The dev relay: NIP-01 over WebSockets (`ws`), NIP-11 over HTTP on the same port, validation and
// filter matching by the package's own WASM core.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WebSocketServer, WebSocket } from 'ws';
import { init } from '../index.node.js';
import { assertEvent } from '../event.js';
import { core } from '../core.js';
import {
  isEphemeral,
  replacementKey,
  expirationOf,
  tagValue,
  now as nowSeconds,
} from './nips.js';
import { agxPolicy, checkAgx } from './policy.js';
import { openStore } from './store.js';

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export const DEFAULTS = Object.freeze({
  port: 0,
  host: '127.0.0.1',
  maxMessageLength: 256 * 1024,
  maxConnections: 1024,
  maxSubscriptions: 50,
  maxFilters: 10,
  // JSON bytes of the filters one connection's open subscriptions hold, and all connections'.
  maxFilterBytes: 16 * 1024 * 1024,
  maxTotalFilterBytes: 64 * 1024 * 1024,
  maxLimit: 5000,
  // Stored events a COUNT looks at (across its filters); beyond it the count is approximate (NIP-45).
  maxCountScan: 10000,
  maxSubidLength: 64,
  rateLimit: Object.freeze({ rate: 1000, burst: 5000 }),
  authWindowSeconds: 600,
  purgeIntervalMs: 60_000,
});


/** Token bucket: `rate` tokens per second up to `burst`. */
class Bucket {
  constructor({ rate, burst }) {
    this.rate = rate;
    this.burst = burst;
    this.tokens = burst;
    this.last = performance.now();
  }
  take() {
    const t = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.rate) / 1000);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Reason text of a verification failure, with the NIP-01 `invalid:` prefix. */
function invalidReason(err) {
  switch (err && err.code) {
    case 'INVALID_SIGNATURE':
      return 'invalid: bad signature';
    case 'ID_MISMATCH':
      return 'invalid: event id does not match its content';
    default: {
      const msg = String((err && err.message) || err).replace(/^[A-Z_]+: /, '');
      return `invalid: ${msg}`;
    }
  }
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Starts a relay. See js/relay-server.d.ts for the options; resolves once it listens.
 */
export async function startRelay(options = {}) {
  await init();
  const o = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) o[k] = v; // undefined keeps the default
  const rateLimit = o.rateLimit === false || o.rateLimit === null ? null : { ...DEFAULTS.rateLimit, ...(o.rateLimit || {}) };
  const policy = agxPolicy(o.agxPolicy);
  // Kinds of NIP-01's ephemeral range stored anyway (NIP-XX: prompts and terminals are durable).
  const storeKinds = new Set(Array.isArray(o.storeKinds) ? o.storeKinds.filter((k) => Number.isInteger(k)) : []);
  const authMode = o.auth === true ? 'required' : o.auth === 'optional' ? 'optional' : 'off';
  const allowed = o.allowedPubkeys ? new Set(o.allowedPubkeys) : null;
  const log = typeof o.log === 'function' ? o.log : () => {};
  const hardCap = Math.max(4 * o.maxMessageLength, 1024 * 1024);

  const ownStore = !o.store;
  const store = o.store ?? openStore({ db: o.db, memory: o.memory, log });

  const connections = new Set();
  // Every open subscription's filters, parsed once into the core's index (bindings/relay_server):
  // a published event is matched against the filters that can match it, not against all of them.
  let index = new (core().RelayFilterIndex)(); // null once the relay closed
  const subsByKey = new Map(); // index key -> { conn, subId }
  let nextKey = 1;
  let filterBytes = 0; // held by all connections
  let url = '';
  let port = 0;

  function info() {
    const nips = [1, 9, 11, 40, 45];
    if (authMode !== 'off') nips.push(42);
    if (policy) nips.push(13);
    nips.sort((a, b) => a - b);
    return {
      name: 'nostr-agents dev relay',
      description: 'Local development relay shipped with nostr-agents.',
      software: 'nostr-agents',
      version: VERSION,
      supported_nips: nips,
      limitation: {
        max_message_length: o.maxMessageLength,
        max_subscriptions: o.maxSubscriptions,
        max_filters: o.maxFilters,
        max_filter_bytes: o.maxFilterBytes,
        max_connections: o.maxConnections,
        max_count_scan: o.maxCountScan,
        max_limit: o.maxLimit,
        default_limit: o.maxLimit,
        max_subid_length: o.maxSubidLength,
        min_pow_difficulty: 0,
        auth_required: authMode === 'required',
        payment_required: false,
        restricted_writes: authMode === 'required' || !!policy || !!allowed,
      },
      ...(policy
        ? {
            posting_policy_agx: {
              gift_wrap_min_pow: policy.minPow,
              gift_wrap_max_expiration_seconds: policy.maxExpirationSeconds,
            },
          }
        : {}),
      ...(o.info || {}),
    };
  }

  // ---------- HTTP (NIP-11) ----------
  const server = http.createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, OPTIONS',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    if (String(req.headers.accept || '').includes('application/nostr+json')) {
      res.writeHead(200, { ...cors, 'content-type': 'application/nostr+json' });
      res.end(JSON.stringify(info()));
      return;
    }
    res.writeHead(200, { ...cors, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`nostr-agents dev relay. Connect a Nostr client to ${url}\n`);
  });

  const wss = new WebSocketServer({ server, maxPayload: hardCap, perMessageDeflate: false });
  wss.on('error', (err) => log(`websocket server error: ${err.message}`));

  // ---------- per connection ----------
  function send(conn, frame) {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
  const notice = (conn, text) => send(conn, ['NOTICE', text]);

  wss.on('connection', (ws, req) => {
    ws.on('error', (err) => log(`connection error: ${err.message}`));
    if (connections.size >= o.maxConnections) {
      log(`connection refused: ${connections.size} open (max ${o.maxConnections})`);
      ws.send(JSON.stringify(['NOTICE', `blocked: too many connections (max ${o.maxConnections})`]));
      ws.close(1013, 'too many connections');
      return;
    }
    const conn = {
      ws,
      challenge: randomBytes(16).toString('hex'),
      authed: new Set(),
      subs: new Map(), // sub id -> { key, bytes }
      filterBytes: 0,
      bucket: rateLimit ? new Bucket(rateLimit) : null,
      hostHeader: String(req.headers.host || ''),
    };
    connections.add(conn);
    ws.on('close', () => {
      connections.delete(conn);
      for (const subId of [...conn.subs.keys()]) closeSub(conn, subId);
    });
    ws.on('message', (data, isBinary) => {
      try {
        onMessage(conn, data, isBinary);
      } catch (err) {
        log(`internal error: ${err && err.stack}`);
        notice(conn, `error: internal error: ${err && err.message}`);
      }
    });
    if (authMode !== 'off') send(conn, ['AUTH', conn.challenge]);
  });

  function onMessage(conn, data, isBinary) {
    if (isBinary) return notice(conn, 'invalid: binary frames are not supported');
    const size = data.length; // a Buffer (binaryType 'nodebuffer', fragments joined)
    let msg;
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      return notice(conn, 'invalid: message is not valid JSON');
    }
    if (!Array.isArray(msg) || typeof msg[0] !== 'string')
      return notice(conn, 'invalid: a message must be a JSON array whose first element is a string');
    if (size > o.maxMessageLength) {
      const reason = `invalid: message too large (${size} bytes, max ${o.maxMessageLength})`;
      if (msg[0] === 'EVENT' && isPlainObject(msg[1]) && typeof msg[1].id === 'string')
        return send(conn, ['OK', msg[1].id, false, reason]);
      if ((msg[0] === 'REQ' || msg[0] === 'COUNT') && typeof msg[1] === 'string')
        return send(conn, ['CLOSED', msg[1], reason]);
      return notice(conn, reason);
    }
    switch (msg[0]) {
      case 'EVENT':
        return onEvent(conn, msg);
      case 'REQ':
        return onReq(conn, msg, false);
      case 'COUNT':
        return onReq(conn, msg, true);
      case 'CLOSE':
        if (typeof msg[1] !== 'string') return notice(conn, 'invalid: CLOSE needs a subscription id');
        closeSub(conn, msg[1]);
        return;
      case 'AUTH':
        return onAuth(conn, msg);
      default:
        return notice(conn, `invalid: unknown message type ${JSON.stringify(msg[0]).slice(0, 40)}`);
    }
  }

  /** Why this connection may not write or read now (auth), or undefined. */
  function accessDenied(conn) {
    if (authMode === 'required' && conn.authed.size === 0)
      return 'auth-required: this relay requires NIP-42 authentication';
    if (allowed) {
      if (conn.authed.size === 0) return 'auth-required: this relay only serves allowed pubkeys; authenticate first';
      for (const pk of conn.authed) if (allowed.has(pk)) return undefined;
      return 'restricted: the authenticated pubkey is not allowed on this relay';
    }
    return undefined;
  }

  function onEvent(conn, msg) {
    const evt = msg[1];
    if (!isPlainObject(evt)) return notice(conn, 'invalid: EVENT needs an event object');
    if (typeof evt.id !== 'string') return notice(conn, 'invalid: EVENT without an id');
    const reply = (ok, reason) => send(conn, ['OK', evt.id, ok, reason]);
    if (conn.bucket && !conn.bucket.take()) return reply(false, 'rate-limited: slow down');
    const denied = accessDenied(conn);
    if (denied) return reply(false, denied);
    try {
      assertEvent(evt);
    } catch (err) {
      return reply(false, invalidReason(err));
    }
    if (evt.kind === 22242) return reply(false, 'invalid: AUTH events (kind 22242) are sent with AUTH, not EVENT');
    const t = nowSeconds();
    const exp = expirationOf(evt);
    if (exp !== undefined && exp <= t) return reply(false, 'invalid: event has expired');
    const rejected = checkAgx(policy, evt, t);
    if (rejected) return reply(false, rejected);

    const clean = {
      id: evt.id,
      pubkey: evt.pubkey,
      created_at: evt.created_at,
      kind: evt.kind,
      tags: evt.tags,
      content: evt.content,
      sig: evt.sig,
    };
    const json = JSON.stringify(clean);
    if (isEphemeral(evt.kind) && !storeKinds.has(evt.kind)) {
      reply(true, '');
      return broadcast(json);
    }
    let result;
    try {
      result = store.put({
        id: clean.id,
        pubkey: clean.pubkey,
        kind: clean.kind,
        created_at: clean.created_at,
        tags: clean.tags,
        json,
        key: replacementKey(clean),
        expiresAt: exp,
      });
    } catch (err) {
      log(`store error: ${err && err.message}`);
      return reply(false, `error: could not store the event: ${err && err.message}`);
    }
    switch (result) {
      case 'duplicate':
        return reply(true, 'duplicate: already have this event');
      case 'superseded':
        return reply(true, 'duplicate: already have a newer version of this replaceable event');
      case 'deleted':
        return reply(false, 'blocked: this event was deleted by its author (NIP-09)');
      default:
        if (clean.kind === 5) store.applyDeletion(clean);
        reply(true, '');
        return broadcast(json);
    }
  }

  /** Sends a stored or ephemeral event to every live subscription it matches (one parse, indexed filters). */
  function broadcast(json) {
    const keys = index.match(json);
    if (keys === undefined) return log(`broadcast: ${core().lastError().message}`);
    for (const key of keys) {
      const sub = subsByKey.get(key);
      if (sub) send(sub.conn, `["EVENT",${JSON.stringify(sub.subId)},${json}]`);
    }
  }

  function closeSub(conn, subId) {
    const sub = conn.subs.get(subId);
    if (!sub) return;
    conn.subs.delete(subId);
    index?.remove(sub.key);
    subsByKey.delete(sub.key);
    conn.filterBytes -= sub.bytes;
    filterBytes -= sub.bytes;
  }

  function onReq(conn, msg, isCount) {
    const type = isCount ? 'COUNT' : 'REQ';
    if (typeof msg[1] !== 'string') return notice(conn, `invalid: ${type} needs a subscription id`);
    const subId = msg[1];
    const closed = (reason) => send(conn, ['CLOSED', subId, reason]);
    if (subId.length === 0 || subId.length > o.maxSubidLength)
      return closed(`invalid: subscription id must be 1 to ${o.maxSubidLength} characters`);
    if (conn.bucket && !conn.bucket.take()) return closed('rate-limited: slow down');
    const denied = accessDenied(conn);
    if (denied) return closed(denied);
    const filters = msg.slice(2);
    if (filters.length === 0) return closed(`invalid: ${type} needs at least one filter`);
    if (filters.length > o.maxFilters) return closed(`invalid: too many filters (max ${o.maxFilters})`);
    if (!filters.every(isPlainObject)) return closed('invalid: a filter must be a JSON object');
    const replaced = conn.subs.get(subId);
    if (!isCount && !replaced && conn.subs.size >= o.maxSubscriptions)
      return closed(`blocked: too many open subscriptions (max ${o.maxSubscriptions})`);
    const filtersJson = JSON.stringify(filters);
    const bytes = filtersJson.length;
    const freed = isCount ? 0 : (replaced?.bytes ?? 0);
    if (conn.filterBytes - freed + bytes > o.maxFilterBytes)
      return closed(`blocked: this connection's subscriptions would hold more than ${o.maxFilterBytes} bytes of filters`);
    if (filterBytes - freed + bytes > o.maxTotalFilterBytes) {
      log(`REQ refused: the relay holds ${filterBytes} bytes of filters (max ${o.maxTotalFilterBytes})`);
      return closed('blocked: the relay holds too many filters right now; try again later');
    }

    // One parse of the filters, by the core, for the stored query and every later event.
    const key = nextKey++;
    if (index.add(key, filtersJson) !== 0) return closed(invalidReason(core().lastError()));
    const t = nowSeconds();
    const seen = new Set();
    const rows = [];
    let budget = o.maxCountScan; // COUNT: rows looked at, across the filters
    let approximate = false;
    try {
      filters.forEach((f, i) => {
        let limit = o.maxLimit;
        if (isCount) {
          if (budget <= 0) return void (approximate = true);
          limit = budget + 1;
        } else if (Number.isInteger(f.limit)) limit = Math.max(0, Math.min(f.limit, o.maxLimit));
        const found = store.query(f, { limit, now: t, match: (r) => index.matches(key, i, r.json) === 1 });
        if (isCount && found.length > budget) {
          approximate = true;
          found.length = budget;
        }
        budget -= found.length;
        for (const r of found) {
          if (seen.has(r.id)) continue;
          seen.add(r.id);
          rows.push(r);
        }
      });
    } catch (err) {
      index.remove(key);
      throw err;
    }
    if (isCount) {
      index.remove(key);
      return send(conn, ['COUNT', subId, approximate ? { count: rows.length, approximate: true } : { count: rows.length }]);
    }
    if (filters.length > 1) rows.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
    const prefix = `["EVENT",${JSON.stringify(subId)},`;
    for (const r of rows) send(conn, prefix + r.json + ']');
    send(conn, ['EOSE', subId]);
    closeSub(conn, subId); // a REQ with an open id replaces it
    conn.subs.set(subId, { key, bytes });
    conn.filterBytes += bytes;
    filterBytes += bytes;
    subsByKey.set(key, { conn, subId });
  }

  function relayTagMatches(value) {
    let u;
    try {
      u = new URL(value);
    } catch {
      return false;
    }
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return false;
    if ((u.pathname || '/') !== '/' || u.search) return false;
    const p = u.port ? Number(u.port) : u.protocol === 'wss:' ? 443 : 80;
    if (p !== port) return false;
    const names = new Set([o.host, 'localhost', '127.0.0.1', '[::1]']);
    return names.has(u.hostname);
  }

  function onAuth(conn, msg) {
    const evt = msg[1];
    if (!isPlainObject(evt) || typeof evt.id !== 'string') return notice(conn, 'invalid: AUTH needs a signed event');
    const reply = (ok, reason) => send(conn, ['OK', evt.id, ok, reason]);
    if (authMode === 'off') return reply(false, 'restricted: NIP-42 authentication is not enabled on this relay');
    try {
      assertEvent(evt);
    } catch (err) {
      return reply(false, invalidReason(err));
    }
    if (evt.kind !== 22242) return reply(false, 'invalid: AUTH events must be of kind 22242');
    if (tagValue(evt, 'challenge') !== conn.challenge) return reply(false, 'invalid: challenge does not match');
    const relay = tagValue(evt, 'relay');
    if (relay === undefined || !relayTagMatches(relay)) return reply(false, `invalid: relay tag must be ${url}`);
    if (Math.abs(evt.created_at - nowSeconds()) > o.authWindowSeconds)
      return reply(false, 'invalid: created_at must be within 10 minutes of now');
    conn.authed.add(evt.pubkey);
    return reply(true, '');
  }

  // ---------- listen ----------
  try {
    await listen();
  } catch (err) {
    wss.close();
    if (ownStore) store.close();
    throw err;
  }
  function listen() {
    return new Promise((resolve, reject) => {
      const onError = (err) => {
        server.off('listening', onListening);
        reject(err);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve();
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(o.port, o.host);
    });
  }
  port = server.address().port;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  url = `ws://${hostForUrl}:${port}`;

  const purge = setInterval(() => {
    try {
      store.purgeExpired(nowSeconds());
    } catch (err) {
      log(`purge error: ${err.message}`);
    }
  }, o.purgeIntervalMs);
  purge.unref();

  let closing = null;
  function close() {
    if (closing) return closing;
    closing = new Promise((resolve) => {
      clearInterval(purge);
      for (const conn of connections) conn.ws.terminate();
      connections.clear();
      wss.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }).then(() => {
      if (ownStore) store.close();
      index.delete();
      index = null;
      subsByKey.clear();
    });
    return closing;
  }

  return {
    url,
    port,
    host: o.host,
    storage: store.kind,
    store,
    info,
    get connections() {
      return connections.size;
    },
    close,
  };
}
