// NIP-46 remote signer ("bunker") on the package itself: answers kind 24133 requests for a Signer
// over a RelayPool, so an app (ours or nostr-tools' BunkerSigner) can use a key it never sees.
// Deny by default: a client gets in with a one-time secret the user handed it (the bunker:// URI)
// or when `authorize` says yes, and then may do exactly what it was granted.
import { init } from './core.js';
import { NostrError } from './errors.js';
import { isHex32 } from './hex.js';
import { ALL_PERMS, grantPerms, neededPerm, parsePerms, permits, permsOption } from './nip46-perms.js';
import { clientKey, consumeSecret, openBunkerStore, secretDigest, spentKey } from './nip46-secrets.js';
import { RelayPool } from './relay/index.js';
import { LocalSigner, isSigner } from './signer.js';
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


// How many request ids the bunker remembers (the replay set). Only requests of connected clients
// enter it, so junk from strangers cannot push real ids out; past MAX_AGE a request is refused by
// its age anyway.
const MAX_REMEMBERED = 4096;

function clientRecord(text) {
  try {
    const r = JSON.parse(text);
    if (r && typeof r === 'object' && Array.isArray(r.perms)) return { perms: parsePerms(r.perms), relays: null };
  } catch {
    // unreadable: treated as no record (the client has to connect again)
  }
  return null;
}

/**
 * Starts a bunker for `signer` on `relays`. Deny by default: see BunkerOptions in nip46.d.ts.
 *   signer        the user's Signer (signs, encrypts, decrypts)
 *   remoteSigner  the key clients talk to (the bunker's address). Default: a fresh key per start,
 *                 so the address cannot be found from the user's npub; pass one for an address
 *                 that outlives a restart (the user's own signer is allowed, but then anyone who
 *                 knows the npub finds the bunker)
 *   relays        where it listens; pool: a RelayPool (default: its own)
 *   secret        the one-time connection secret of bunkerUri. Default: 32 random bytes per start
 *   perms         the most a connection may be granted (default: everything: sign_event,
 *                 nip44_encrypt, nip44_decrypt). A client with the secret (or answered through
 *                 connectTo) is granted what it asked for within it, or all of it when it asked
 *                 for nothing; one that authorize let in, only what it asked for
 *   authorize(request, ctx)  asked for a connect without a secret and for any request outside the
 *                 client's grants: true approves, false or a string (the message) denies; it may
 *                 take its time and first call ctx.sendAuthUrl(url) (NIP-46 auth_url). Default:
 *                 none, i.e. every such request is refused
 *   store         remembers spent secrets and connected clients across restarts ({get, set} or
 *                 {getItem, setItem}); without one, both live only as long as this bunker
 *   switchRelays  what switch_relays answers (default: `relays` to bunker:// clients, null to
 *                 nostrconnect:// ones); the bunker listens there too
 */
export async function startBunker(options = {}) {
  const { signer, authorize } = options;
  if (!isSigner(signer)) throw new NostrError('INVALID_ARGUMENT', 'signer must be a Signer');
  if (options.remoteSigner !== undefined && !isSigner(options.remoteSigner))
    throw new NostrError('INVALID_ARGUMENT', 'remoteSigner must be a Signer');
  if (authorize !== undefined && typeof authorize !== 'function') throw new NostrError('INVALID_ARGUMENT', 'authorize must be a function');
  const relays = relayListOption(options.relays, 'relays');
  if (!relays) throw new NostrError('INVALID_ARGUMENT', 'relays must be a non-empty list of ws:// or wss:// URLs');
  const moveTo = relayListOption(options.switchRelays, 'switchRelays');
  if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length === 0 || options.secret.length > 512))
    throw new NostrError('INVALID_ARGUMENT', 'secret must be a string of 1 to 512 characters');
  if (options.pool !== undefined && !(options.pool instanceof RelayPool))
    throw new NostrError('INVALID_ARGUMENT', 'pool must be a RelayPool');
  const ceiling = options.perms === undefined ? [...ALL_PERMS] : permsOption(options.perms, 'perms');
  const store = openBunkerStore(options.store);
  await init();

  const ownRemote = options.remoteSigner === undefined;
  const remoteSigner = options.remoteSigner ?? LocalSigner.generate();
  const pool = options.pool ?? new RelayPool();
  const ownPool = !options.pool;
  let remotePubkey;
  let userPubkey;
  try {
    remotePubkey = await remoteSigner.getPublicKey();
    userPubkey = await signer.getPublicKey();
  } catch (err) {
    if (ownRemote) remoteSigner.dispose();
    throw err;
  }

  // Unspent secrets: [{ digest, secret (what a URI shows), perms (their ceiling) }].
  const secrets = [];
  let uriSecret = null; // the secret bunkerUri carries while it is unspent
  async function addSecret(secret, perms) {
    const digest = secretDigest(secret);
    if (store && (await store.get(spentKey(digest))) !== null) return false;
    secrets.push({ digest, secret, perms });
    return true;
  }
  const initial = options.secret ?? randomId() + randomId();
  if (await addSecret(initial, ceiling)) uriSecret = initial;

  const clients = new Map(); // client pubkey -> { perms: granted, relays: its nostrconnect:// relays or null }
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

  /** null when authorize approves; the refusal message otherwise (and always without authorize). */
  async function decide(request, ctx, refusal) {
    if (!authorize) return refusal;
    let verdict;
    try {
      verdict = await authorize(request, ctx);
    } catch {
      return 'denied';
    }
    if (verdict === true) return null;
    return typeof verdict === 'string' && verdict.length > 0 ? clip(verdict) : 'denied';
  }

  /** The client's grants: from memory, or from the store after a restart; null for a stranger. */
  async function knownClient(client) {
    const c = clients.get(client);
    if (c || !store) return c ?? null;
    const text = await store.get(clientKey(remotePubkey, client));
    const record = text === null ? null : clientRecord(text);
    if (record && !clients.has(client)) clients.set(client, record);
    return clients.get(client) ?? null;
  }

  // Stored first: a client the store failed to keep is not let in (its connect gets an error).
  async function admit(client, perms, clientRelays) {
    if (store) await store.set(clientKey(remotePubkey, client), JSON.stringify({ perms }));
    clients.set(client, { perms, relays: clientRelays });
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

  /** connect: a known client is acknowledged (its grants unchanged); a new one needs a secret or authorize. */
  async function connect(client, params, ctx) {
    if (params[0] !== undefined && params[0] !== remotePubkey) throw new NostrError('INVALID_ARGUMENT', 'connect names another remote-signer pubkey');
    if (await knownClient(client)) return;
    const requested = parsePerms(params[2] ?? '');
    const given = params[1] ?? '';
    if (given !== '') {
      // Taken out of the list before any await: two connects with one secret cannot both pass.
      const entry = consumeSecret(secrets, given);
      if (!entry) throw new NostrError('SIGNER_REFUSED', 'invalid or already used secret');
      if (entry.secret === uriSecret) uriSecret = null;
      // Spent in the store before the client hears "ack": a crash in between leaves it spent.
      if (store) await store.set(spentKey(entry.digest), '1');
      // The user handed this client the secret: it gets what it asked for within the secret's
      // perms, or all of those when it asked for nothing (nostr-tools' BunkerSigner asks nothing).
      await admit(client, requested.length ? grantPerms(requested, entry.perms) : [...entry.perms], null);
      return;
    }
    // The secret is not shown to authorize (it has none here anyway).
    const request = { method: 'connect', params: [remotePubkey], clientPubkey: client, perms: requested.join(',') };
    const denied = await decide(request, ctx, 'this bunker needs a connection secret');
    if (denied) throw new NostrError('SIGNER_REFUSED', denied);
    // authorize approved what it was shown: the perms asked (perhaps none), within the bunker's.
    await admit(client, grantPerms(requested, ceiling), null);
  }

  // The replay set: "<client>:<request id>" of requests from connected clients (and connects in
  // progress), oldest first. The same request can arrive through two subscriptions.
  const remembered = new Set();
  function remember(key) {
    remembered.add(key);
    if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.values().next().value);
  }

  async function onRequest(event) {
    if (stopped || event.created_at < nowSeconds() - MAX_AGE) return;
    const client = event.pubkey;
    let text;
    try {
      text = await remoteSigner.nip44Decrypt(client, event.content);
    } catch {
      return; // not for us
    }
    const req = parseRequest(text);
    if (!req) return;
    const key = `${client}:${req.id}`;
    if (remembered.has(key)) return;
    if (req.bad) return respond(client, req.id, { error: req.bad });
    const { id, method, params } = req;
    const known = await knownClient(client);
    if (!known && method !== 'connect') return respond(client, id, { error: 'not connected: send connect first' });
    // The sender checked out (a connected client, or a connect): from here on it counts as seen.
    if (remembered.has(key)) return;
    remember(key);
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
        try {
          await connect(client, params, ctx);
        } finally {
          // A refused connect leaves no trace: junk connects cannot fill the replay set.
          if (!clients.has(client)) remembered.delete(key);
        }
        body = { result: 'ack' };
      } else {
        const request = { method, params: [...params], clientPubkey: client };
        let kind;
        if (method === 'sign_event') {
          try {
            request.template = JSON.parse(params[0]);
            kind = request.template?.kind;
          } catch {
            // execute() reports it
          }
        }
        if (!permits(known.perms, method, kind)) {
          const need = neededPerm(method, kind);
          const denied = await decide(request, ctx, `permission denied: ${clip(need, 64)} was not granted to this client`);
          if (denied) throw new NostrError('SIGNER_REFUSED', denied);
        }
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
    /** The remote-signer pubkey clients talk to (the bunker's address). */
    pubkey: remotePubkey,
    /** The user's pubkey (what get_public_key answers). */
    userPubkey,
    relays: [...relays],
    /** bunker://…, with the start's one-time secret while it is unspent. */
    get bunkerUri() {
      return toBunkerURL({ pubkey: remotePubkey, relays, secret: uriSecret ?? undefined });
    },
    /** The start's one-time secret while it is unspent, else null. */
    get secret() {
      return uriSecret;
    },
    /** Client pubkeys connected since this start (and those the store brought back as they came). */
    get clients() {
      return [...clients.keys()];
    },
    /** What a connected client was granted (canonical NIP-46 perms), or null. */
    permsOf(clientPubkey) {
      const c = clients.get(clientPubkey);
      return c ? [...c.perms] : null;
    },
    get stopped() {
      return stopped;
    },
    /**
     * A further one-time secret (for another app), granting at most `perms` (default: the bunker's
     * perms); returns its bunker:// URI.
     */
    async issueSecret(opts = {}) {
      if (stopped) throw new NostrError('SIGNER_DISPOSED', 'this bunker was stopped');
      const perms = opts.perms === undefined ? ceiling : grantPerms(permsOption(opts.perms, 'perms'), ceiling);
      const secret = randomId() + randomId();
      await addSecret(secret, perms);
      return toBunkerURL({ pubkey: remotePubkey, relays, secret });
    },
    /** Forgets a client's grants (in the store too): it has to connect again with a new secret. */
    async revoke(clientPubkey) {
      clients.delete(clientPubkey);
      if (store && isHex32(clientPubkey)) await store.set(clientKey(remotePubkey, clientPubkey), '');
    },
    /**
     * nostrconnect:// flow: the user chose to answer the client's `uri` (that is the consent;
     * authorize, when given, may still deny). Grants what the URI asks within the bunker's perms
     * (all of them when it asks none), listens on its relays and answers with its secret. Rejects SIGNER_REFUSED when authorize denies.
     */
    async connectTo(uri) {
      if (stopped) throw new NostrError('SIGNER_DISPOSED', 'this bunker was stopped');
      const p = parseNostrConnectURI(uri);
      const requested = parsePerms(p.perms);
      const denied = authorize
        ? await decide(
            { method: 'connect', params: [remotePubkey], clientPubkey: p.clientPubkey, perms: requested.join(','), name: p.name, url: p.url },
            { sendAuthUrl: async () => {} },
          )
        : null;
      if (denied) throw new NostrError('SIGNER_REFUSED', denied);
      await admit(p.clientPubkey, requested.length ? grantPerms(requested, ceiling) : [...ceiling], p.relays);
      await listen(p.relays);
      await respond(p.clientPubkey, randomId(), { result: p.secret });
    },
    /** Stops answering (the pool is closed only if the bunker created it, the key wiped if it made it). */
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const s of subs) s.close();
      if (ownPool) await pool.close();
      if (ownRemote) remoteSigner.dispose();
    },
  };
  return bunker;
}
