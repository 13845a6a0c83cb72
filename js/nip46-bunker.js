// NIP-46 remote signer ("bunker") on the package itself: answers kind 24133 requests for a Signer
// over a RelayPool, so an app (ours or nostr-tools' BunkerSigner) can use a key it never sees.
import { NostrError } from './errors.js';
import { isHex32 } from './hex.js';
import { RelayPool } from './relay/index.js';
import { isSigner } from './signer.js';
import {
  NOSTR_CONNECT_KIND,
  clip,
  isRelayUrl,
  nowSeconds,
  parseNostrConnectURI,
  parseRequest,
  randomId,
  toBunkerURL,
} from './nip46-uri.js';

// Requests older than this (seconds) are ignored: a relay that stores kind 24133 (ephemeral, so it
// should not) must not make the bunker sign old requests again.
const MAX_AGE = 120;

function relayListOption(list, name) {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0 || !list.every(isRelayUrl))
    throw new NostrError('INVALID_ARGUMENT', `${name} must be a non-empty list of ws:// or wss:// URLs`);
  return [...new Set(list)];
}

function errorText(err) {
  if (err instanceof NostrError) return err.message;
  return 'internal error';
}

/**
 * Starts a bunker for `signer` on `relays`. Options:
 *   signer        the user's Signer (signs, encrypts, decrypts)
 *   remoteSigner  the key the bunker talks with (default: signer; NIP-46 allows either)
 *   relays        where it listens; pool: a RelayPool (default: its own)
 *   secret        a connection secret for bunker:// clients, single use (NIP-46: the bunker
 *                 ignores later connects with an old secret): after it, only clients that
 *                 connected may reconnect; without one any client may connect (authorize decides)
 *   authorize(request, ctx)  called for every request (connect included): true approves, false or
 *                 a string (the message) denies; it may take its time (delay), and may first call
 *                 ctx.sendAuthUrl(url) to tell the client the user is being asked (NIP-46 auth_url)
 *   switchRelays  what switch_relays answers (default: `relays` to bunker:// clients, null to
 *                 nostrconnect:// ones); the bunker listens there too
 */
export async function startBunker(options = {}) {
  const { signer, authorize = () => true } = options;
  const remoteSigner = options.remoteSigner ?? signer;
  if (!isSigner(signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a Signer');
  if (!isSigner(remoteSigner)) throw new NostrError('INVALID_ARGUMENT', 'remoteSigner must be a Signer');
  if (typeof authorize !== 'function') throw new NostrError('INVALID_ARGUMENT', 'authorize must be a function');
  const relays = relayListOption(options.relays, 'relays');
  if (!relays) throw new NostrError('INVALID_ARGUMENT', 'relays must be a non-empty list of ws:// or wss:// URLs');
  const moveTo = relayListOption(options.switchRelays, 'switchRelays');
  if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length === 0))
    throw new NostrError('INVALID_ARGUMENT', 'secret must be a non-empty string');
  if (options.pool !== undefined && !(options.pool instanceof RelayPool))
    throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');

  const pool = options.pool ?? new RelayPool();
  const ownPool = !options.pool;
  const remotePubkey = await remoteSigner.getPublicKey();
  const userPubkey = await signer.getPublicKey();
  const requireSecret = options.secret !== undefined;
  let secret = options.secret ?? null; // null once used
  const clients = new Map(); // client pubkey -> { relays: its nostrconnect:// relays, or null }
  const listening = new Set();
  const subs = [];
  let stopped = false;

  const filter = () => ({ kinds: [NOSTR_CONNECT_KIND], '#p': [remotePubkey], since: nowSeconds() - 30 });

  function listen(urls) {
    const fresh = urls.filter((u) => !listening.has(u));
    if (fresh.length === 0) return Promise.resolve();
    for (const u of fresh) listening.add(u);
    return new Promise((resolve) => {
      const sub = pool.subscribe([filter()], {
        relays: fresh,
        id: 'nip46-bunker',
        onevent: (event) => {
          onRequest(event).catch(() => {});
        },
        oneose: () => resolve(),
        onclose: () => resolve(),
        maxWait: 10_000,
      });
      subs.push(sub);
      if (sub.eosed) resolve();
    });
  }

  function relaysFor(client) {
    const c = clients.get(client);
    const out = new Set([...relays, ...(moveTo ?? [])]);
    if (c?.relays) for (const r of c.relays) out.add(r);
    return [...out];
  }

  async function respond(client, id, body) {
    if (stopped) return;
    const content = await remoteSigner.nip44Encrypt(client, JSON.stringify({ id, ...body }));
    const event = await remoteSigner.signEvent({
      kind: NOSTR_CONNECT_KIND,
      tags: [['p', client]],
      content,
      created_at: nowSeconds(),
    });
    if (stopped) return;
    await pool.publish(event, { relays: relaysFor(client) });
  }

  async function decide(request, ctx) {
    let verdict;
    try {
      verdict = await authorize(request, ctx);
    } catch {
      return 'denied';
    }
    if (verdict === true) return null;
    return typeof verdict === 'string' && verdict.length > 0 ? clip(verdict) : 'denied';
  }

  async function execute(client, method, params) {
    switch (method) {
      case 'ping':
        return 'pong';
      case 'get_public_key':
        return userPubkey;
      case 'sign_event': {
        let t;
        try {
          t = JSON.parse(params[0]);
        } catch {
          throw new NostrError('INVALID_EVENT', 'sign_event takes one JSON event template');
        }
        if (t === null || typeof t !== 'object') throw new NostrError('INVALID_EVENT', 'sign_event takes one JSON event template');
        const signed = await signer.signEvent({ kind: t.kind, tags: t.tags, content: t.content, created_at: t.created_at });
        return JSON.stringify(signed);
      }
      case 'nip44_encrypt':
        if (params.length !== 2 || !isHex32(params[0])) throw new NostrError('INVALID_ARGUMENT', 'nip44_encrypt takes [pubkey, plaintext]');
        return signer.nip44Encrypt(params[0], params[1]);
      case 'nip44_decrypt':
        if (params.length !== 2 || !isHex32(params[0])) throw new NostrError('INVALID_ARGUMENT', 'nip44_decrypt takes [pubkey, payload]');
        return signer.nip44Decrypt(params[0], params[1]);
      case 'switch_relays': {
        const c = clients.get(client);
        const list = moveTo ?? (c?.relays ? null : relays);
        return JSON.stringify(list);
      }
      default:
        throw new NostrError('SIGNER_UNSUPPORTED', `method ${clip(method, 64)} is not supported`);
    }
  }

  // The same request can arrive through two of our subscriptions (bunker and client relays).
  const handled = new Set();
  async function onRequest(event) {
    if (stopped || event.created_at < nowSeconds() - MAX_AGE || handled.has(event.id)) return;
    handled.add(event.id);
    if (handled.size > 4096) handled.delete(handled.values().next().value);
    const client = event.pubkey;
    let text;
    try {
      text = await remoteSigner.nip44Decrypt(client, event.content);
    } catch {
      return; // not for us
    }
    const req = parseRequest(text);
    if (!req) return;
    if (req.bad) return respond(client, req.id, { error: req.bad });
    const { id, method, params } = req;
    let authUrlSent = Promise.resolve();
    const ctx = {
      sendAuthUrl: (url) => {
        authUrlSent = respond(client, id, { result: 'auth_url', error: String(url) }).catch(() => {});
        return authUrlSent;
      },
    };
    let body;
    try {
      if (method === 'connect') {
        if (params[0] !== undefined && params[0] !== remotePubkey) throw new NostrError('INVALID_ARGUMENT', 'connect names another remote-signer pubkey');
        const known = clients.has(client);
        if (!known && requireSecret && (secret === null || params[1] !== secret)) throw new NostrError('SIGNER_REFUSED', 'invalid or already used secret');
        // The secret is not shown to authorize: it has done its job.
        const denied = await decide({ method, params: [remotePubkey], clientPubkey: client, perms: params[2] ?? '' }, ctx);
        if (denied) throw new NostrError('SIGNER_REFUSED', denied);
        if (!known) {
          secret = null; // single use
          clients.set(client, { relays: null });
        }
        body = { result: 'ack' };
      } else {
        if (!clients.has(client)) throw new NostrError('SIGNER_REFUSED', 'not connected: send connect first');
        const request = { method, params: [...params], clientPubkey: client };
        if (method === 'sign_event') {
          try {
            request.template = JSON.parse(params[0]);
          } catch {
            // execute() reports it
          }
        }
        const denied = await decide(request, ctx);
        if (denied) throw new NostrError('SIGNER_REFUSED', denied);
        body = { result: await execute(client, method, params) };
      }
    } catch (err) {
      body = { error: errorText(err) };
    }
    await authUrlSent;
    await respond(client, id, body);
  }

  await listen([...relays, ...(moveTo ?? [])]);

  const bunker = {
    /** The remote-signer pubkey clients talk to. */
    pubkey: remotePubkey,
    /** The user's pubkey (what get_public_key answers). */
    userPubkey,
    relays: [...relays],
    /** bunker://…, with the secret while it is unused. */
    get bunkerUri() {
      return toBunkerURL({ pubkey: remotePubkey, relays, secret: secret ?? undefined });
    },
    /** Client pubkeys that connected. */
    get clients() {
      return [...clients.keys()];
    },
    get stopped() {
      return stopped;
    },
    /**
     * nostrconnect:// flow: the client showed `uri`; asks authorize, listens on its relays and
     * answers with its secret. Rejects SIGNER_REFUSED when authorize denies.
     */
    async connectTo(uri) {
      if (stopped) throw new NostrError('SIGNER_DISPOSED', 'this bunker was stopped');
      const p = parseNostrConnectURI(uri);
      const denied = await decide(
        { method: 'connect', params: [remotePubkey], clientPubkey: p.clientPubkey, perms: p.perms.join(','), name: p.name, url: p.url },
        { sendAuthUrl: async () => {} },
      );
      if (denied) throw new NostrError('SIGNER_REFUSED', denied);
      clients.set(p.clientPubkey, { relays: p.relays });
      await listen(p.relays);
      await respond(p.clientPubkey, randomId(), { result: p.secret });
    },
    /** Stops answering (the pool is closed only if the bunker created it). */
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const s of subs) s.close();
      if (ownPool) await pool.close();
    },
  };
  return bunker;
}
