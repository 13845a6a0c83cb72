// Every AGX call of the CLI, in one place, on the package's AGX API: AgxClient (routing,
// authorization, replay, automated-reply depth), FileSeenStore / MemorySeenStore, and discovery
// (publishAgentCard via start({advertise}), fetchAgentCard, retractAgentCard, verifyNip05,
// resolveRelayList). What is left here is CLI policy: the allow list as an authorize function that
// can say why it denied, the handler wrapper that logs a failure once, and which seen store a
// command gets.
//
// Seen stores: `serve` keeps the profile's FileSeenStore (<profile>/seen/), which takes a one-writer
// lock (AGX_SEEN_STORE_LOCKED while another `serve` of the profile runs). `request` and `send` are
// short-lived and answer nothing, so they use a MemorySeenStore: they never touch the lock (they run
// while `serve` runs on the same profile) and never mark a message seen that `serve --once` should
// still collect.
import { nostr } from './nostr.js';
import { CliError, EXIT } from './common.js';

const { agx, RelayPool } = nostr;

export const AgxPublicError = agx.AgxPublicError;
export const DEFAULT_MAX_AUTO_DEPTH = 8; // AgxClient's default (the reference ceiling)

/** The profile's seen-store folder (FileSeenStore: seen.json, seen.log, seen.lock). */
export const seenDir = (settings) => settings.files.seen;

export function openPool(relays, signer) {
  return new RelayPool({ relays, relayInfo: false, signer, reconnect: { initialDelay: 200, maxDelay: 2000 } });
}

// A handler module may import AgxPublicError from another copy of this package (or from
// @nostr-agx/core): recognized by name, so its text still reaches the peer.
const isPublicError = (e) => e instanceof AgxPublicError || (e?.name === 'AgxPublicError' && typeof e.message === 'string');

/** Why the allow list denied `from` (for the serving side's log; the peer gets no reply). */
export function denyReason(allowList, from) {
  if (allowList.length === 0) return 'no peer is allowed (default-deny)';
  const mine = allowList.filter((e) => e.pubkey === from).map((e) => e.capability);
  if (mine.length === 0) return 'the sender is not in the allow list';
  return `the sender is allowed only ${mine.join(', ')}`;
}

// AgxClient with one hook: onIngested(result) after each wrap was fully handled (its handler ran
// and the result was published), which is what `serve --once` waits for.
// It also closes the pool it was given when it stops.
class CliAgxClient extends agx.AgxClient {
  #onIngested;
  constructor(options, onIngested) {
    super(options);
    this.#onIngested = onIngested;
  }
  async ingest(wrap) {
    const result = await super.ingest(wrap);
    if (this.#onIngested) this.#onIngested(result);
    return result;
  }
  async stop() {
    try {
      await super.stop();
    } finally {
      await this.pool.close();
    }
  }
}

/**
 * An AgxClient for one command.
 * options: signer, relays, store ('memory' (default) or a folder for a FileSeenStore), handlers?
 * ({capability: fn}), acceptAll?, allowList? ([{pubkey, capability}], or a function returning the
 * current one, asked at each request), maxAutoDepth?, pollInterval? and pendingPollInterval? (ms),
 * identity? ({org, nip05}: the Agent Card),
 * onMessage?(m) (plain path, not denied), onDenied?({from, capability, taskId, reason}),
 * onHandlerError?({capability, from, error}), onError?, onWarning?, onIngested?(result).
 * Without handlers the client denies every task (and says nothing about it).
 */
export function createEndpoint(options) {
  const { signer, relays } = options;
  const allowList = typeof options.allowList === 'function' ? options.allowList : () => options.allowList ?? [];
  const logged = new WeakSet(); // handler errors already reported through onHandlerError

  const handlers = {};
  for (const [key, fn] of Object.entries(options.handlers ?? {})) {
    handlers[key] = async (payload, ctx) => {
      try {
        return await fn(payload, ctx);
      } catch (error) {
        if (isPublicError(error)) throw error instanceof AgxPublicError ? error : new AgxPublicError(error.message);
        options.onHandlerError?.({ capability: ctx.capability, from: ctx.from, error });
        if (error !== null && typeof error === 'object') logged.add(error);
        throw error;
      }
    };
  }

  const authorize = options.acceptAll
    ? 'accept-all'
    : ({ from, capability }) => allowList().some((e) => e.pubkey === from && agx.capabilityMatches(e.capability, capability));

  const client = new CliAgxClient(
    {
      signer,
      pool: openPool(relays, signer),
      relays,
      handlers,
      authorize,
      seenStore: typeof options.store === 'string' ? new agx.FileSeenStore(options.store) : new agx.MemorySeenStore(),
      maxAutoDepth: options.maxAutoDepth ?? DEFAULT_MAX_AUTO_DEPTH,
      pollInterval: options.pollInterval,
      pendingPollInterval: options.pendingPollInterval,
      identity: options.identity,
      onMessage: (m) => {
        if (m.reason === 'denied' || m.reason === 'denied-unconfigured') {
          options.onDenied?.({ from: m.from, capability: m.task?.capability ?? '', taskId: m.task?.taskId ?? '', reason: denyReason(allowList(), m.from) });
          return;
        }
        options.onMessage?.(m);
      },
      onError: (e) => {
        if (e !== null && typeof e === 'object' && logged.has(e)) return;
        options.onError?.(e);
      },
      onWarning: (w) => options.onWarning?.(w),
    },
    options.onIngested,
  );
  return client;
}

const bare = (e) => String(e.message).replace(/^[A-Z][A-Z0-9_]+: /, '');

/**
 * Starts `client` (loads the seen store, subscribes, catches up, optionally advertises); the
 * store's lock held by another process is EXIT.SETUP with what to do about it.
 */
export async function startEndpoint(client, { advertise = false, profile } = {}) {
  try {
    return await client.start({ advertise });
  } catch (e) {
    if (e?.code === 'AGX_SEEN_STORE_LOCKED')
      throw new CliError(EXIT.SETUP, `profile "${profile}" is already being served: ${bare(e)}; stop that serve first (request and send work alongside it)`);
    if (e?.code === 'AGX_SEEN_STORE')
      throw new CliError(EXIT.SETUP, `the profile's seen store cannot be used: ${bare(e)} (move the folder away to start afresh: already handled messages may then show again)`);
    if (e?.code === 'AGX_CARD_INVALID' || e?.code === 'AGX_NIP05_INVALID')
      throw new CliError(EXIT.SETUP, `the profile's Agent Card settings are invalid: ${bare(e)} (fix with: nostr-agents config set org|nip05 VALUE)`);
    throw e;
  }
}

/** `config set org|nip05 VALUE`: what publishAgentCard would refuse is a usage error now, not at `serve --advertise`. */
export function checkCardSetting(key, value) {
  if (key === 'org' && value.length > 200) throw new CliError(EXIT.USAGE, 'org: at most 200 characters (the Agent Card cap)');
  if (key === 'nip05')
    try {
      agx.parseNip05(value);
    } catch (e) {
      throw new CliError(EXIT.USAGE, `nip05: ${bare(e)} (a NIP-05 handle is name@domain, on a public domain)`);
    }
}

/** The newest valid Agent Card of `pubkey` and its NIP-65 relay list (either may be null). */
export async function readCard({ relays, pubkey }) {
  const pool = openPool(relays);
  try {
    // "nothing published" (EXIT.NOT_FOUND) is only said when a relay was there to ask
    const up = await Promise.allSettled(relays.map((url) => pool.ensureRelay(url, { timeout: 5000 })));
    if (!up.some((r) => r.status === 'fulfilled'))
      throw Object.assign(new CliError(EXIT.RELAY, `no relay reachable: ${relays.join(', ')}`), { code: 'RELAY_UNREACHABLE' });
    const [card, relayList] = await Promise.all([agx.fetchAgentCard(pool, pubkey, { relays }), agx.resolveRelayList(pool, pubkey, { relays })]);
    return { card, relayList };
  } finally {
    await pool.close();
  }
}

/**
 * NIP-05 check of a card's handle: { ok, reason, code? } (never throws: a failed check is a
 * reason). options go to verifyNip05 (fetch, lookup, timeout); the CLI passes none.
 */
export async function checkNip05(nip05, pubkey, options = {}) {
  if (!nip05) return { ok: false, reason: 'the card claims no NIP-05 handle' };
  try {
    const ok = await agx.verifyNip05(nip05, pubkey, options);
    if (ok) return { ok, reason: `${nip05} maps to this key` };
    const { name, url } = agx.parseNip05(nip05);
    return { ok, reason: `${url.split('?')[0]} maps "${name}" to another key` };
  } catch (e) {
    return { ok: false, reason: String(e?.message ?? e), code: e?.code ?? 'AGX_NIP05_FAILED' };
  }
}

/** NIP-09 retraction of our Agent Card(s): { event, results, retracted }. */
export async function retractCard({ signer, relays, reason }) {
  const pool = openPool(relays, signer);
  try {
    return await agx.retractAgentCard(signer, pool, { relays, reason });
  } finally {
    await pool.close();
  }
}
