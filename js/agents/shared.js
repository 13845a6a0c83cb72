// Helpers shared by the NIP-XX client and runtime.
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { getEventHash } from '../event.js';
import { publicKeyHex } from '../keys.js';
import { unwrapEvent, wrapEvent } from '../nip59.js';
import { rumorContentIsPayload } from '../nipxx.js';
import { RelayPool } from '../relay/pool.js';
import { constants } from './machines.js';

/**
 * The one clock of js/agents: a `now` option (ms since the epoch, like Date.now; tests inject a
 * skewed clock), read in ms. Every deadline the core's machines hand out is in ms on this clock;
 * `seconds()` is for created_at only. `after(ms, fn)` is the only timer: a wait measured on it.
 */
export function clockOf(now, what) {
  if (now !== undefined && typeof now !== 'function')
    throw new NostrError('INVALID_ARGUMENT', `${what}: now must be a function returning ms since the epoch`);
  const ms = now ?? Date.now;
  return { ms, seconds: () => Math.floor(ms() / 1000) };
}

const defaultClock = clockOf(undefined);

/** Runs fn after `delay` ms; returns the cancel function. */
export function after(delay, fn) {
  const id = setTimeout(fn, Math.max(0, delay));
  return () => clearTimeout(id);
}

/** The seed's assumptions when an agent publishes no ai.info (from the core). */
export function defaultInfo() {
  return JSON.parse(core().nipxxDefaultInfo());
}

/** `pool` as given, or a new RelayPool on `relays` that the caller then owns. */
export function poolFrom({ pool, relays }, what) {
  if (pool) return { pool, owned: false };
  if (!Array.isArray(relays) || relays.length === 0)
    throw new NostrError('INVALID_ARGUMENT', `${what}: give a pool or a non-empty relays list`);
  return { pool: new RelayPool({ relays }), owned: true };
}

export function requireSigner(signer, what) {
  for (const m of ['getPublicKey', 'signEvent', 'nip44Encrypt', 'nip44Decrypt'])
    if (!signer || typeof signer[m] !== 'function')
      throw new NostrError('INVALID_ARGUMENT', `${what}: signer must have ${m}() (LocalSigner, Nip07Signer...)`);
}

export function tagValue(event, name) {
  const t = event.tags.find((x) => x[0] === name);
  return t ? t[1] : undefined;
}

/**
 * An agent's public key as 64 lowercase hex, from hex (either case) or an npub (keys.js
 * publicKeyHex, as AGX takes peers). INVALID_ARGUMENT otherwise (the documented code of the NIP-XX
 * functions), also for a key that is not on the curve; the message and `cause` carry the reason
 * (INVALID_PUBLIC_KEY, BECH32_CHECKSUM, ...).
 */
export function agentHex(agent, what) {
  try {
    return publicKeyHex(agent, 'agent');
  } catch (err) {
    if (!(err instanceof NostrError)) throw err;
    throw new NostrError('INVALID_ARGUMENT', `${what}: agent must be a 64-hex public key or an npub (${err.message})`, { cause: err });
  }
}

export function rootOf(event) {
  const t = event.tags.find((x) => x[0] === 'e' && x[3] === 'root');
  return t ? t[1] : undefined;
}

/** Encrypts `plaintext` to `recipient`, signs {kind, tags}, returns the event. */
export async function sealEvent(signer, recipient, { kind, tags, plaintext }, clock = defaultClock) {
  const content = await signer.nip44Encrypt(recipient, plaintext);
  return signer.signEvent({ kind, tags, content, created_at: clock.seconds() });
}

/**
 * Subscribes and resolves once the relays sent EOSE (or after maxWait ms), so live events are not
 * missed. `signal` aborting before then closes the subscription and rejects with ABORTED.
 */
export function subscribeLive(pool, filters, { relays, onevent, onclose, maxWait, signal }) {
  maxWait ??= constants().discoverWaitMs;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new NostrError('ABORTED', 'the operation was aborted', { cause: signal.reason }));
    let sub;
    let aborted = false;
    // Aborted before the subscription is live: closed at once, and its onclose is not the caller's
    // (the caller asked for the end; it is not the relays' doing).
    const onAbort = () => {
      aborted = true;
      sub?.close('aborted');
      reject(new NostrError('ABORTED', 'the operation was aborted', { cause: signal.reason }));
    };
    const live = () =>
      queueMicrotask(() => {
        signal?.removeEventListener('abort', onAbort);
        if (!aborted) resolve(sub);
      });
    try {
      sub = pool.subscribe(filters, { relays, onevent, onclose: (reasons) => aborted || onclose?.(reasons), oneose: live, maxWait });
    } catch (err) {
      reject(err);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (sub.eosed) live();
  });
}

// --- the privacy-first profile (NIP-59): run events travel as rumors in gift wraps.

/**
 * Gift-wraps a rumor of {kind, tags} to `recipient` whose content is the payload `plaintext`
 * itself (the seal NIP-44-encrypts it to the recipient: the core's rumor_content_is_payload says
 * why). `encryptRumor`: NIP-44-encrypt the rumor's content as well, for a peer that sends (and so
 * reads) that form. Returns `{ rumor, wrap }`: the rumor's id is the one a prompt's run is known by.
 */
export async function wrapRunEvent(signer, recipient, { kind, tags, plaintext }, clock = defaultClock, { encryptRumor = false } = {}) {
  const content = encryptRumor ? await signer.nip44Encrypt(recipient, plaintext) : plaintext;
  const pubkey = await signer.getPublicKey();
  const template = { kind, tags, content, created_at: clock.seconds() };
  const rumor = { id: '', pubkey, ...template };
  rumor.id = getEventHash(rumor);
  const wrap = await wrapEvent(template, signer, recipient, { now: template.created_at });
  return { rumor, wrap };
}

/**
 * The rumor of a gift wrap (NIP-59 checks: the seal's signature, the rumor's author and id), as
 * an event the NIP-XX machines take (`sig` empty: the seal signed it). Null when it does not open.
 */
export async function openRunWrap(signer, wrap) {
  // Each privacy-first run subscribes to every wrap addressed to its client from the last two
  // days: what was opened once (or failed to) is remembered per signer, bounded.
  let cache = opened.get(signer);
  if (!cache) opened.set(signer, (cache = new Map()));
  let result = cache.get(wrap.id);
  if (result === undefined) {
    result = unwrapEvent(wrap, signer).then(
      (rumor) => ({ ...rumor, sig: '' }),
      () => null,
    );
    cache.set(wrap.id, result);
    if (cache.size > constants().openedWrapsCap) cache.delete(cache.keys().next().value);
  }
  const rumor = await result;
  return rumor && { ...rumor };
}

/**
 * The decrypted payload of a run event: NIP-44 content (the default profile) decrypted from its
 * author; the content of a gift-wrapped rumor (`wrapped`) as it is when it holds the payload,
 * decrypted when it holds NIP-44 ciphertext (both forms are read: rumorContentIsPayload).
 * Rejects when the content does not decrypt.
 */
export async function runPlaintext(signer, event, wrapped) {
  if (wrapped && rumorContentIsPayload(event.content)) return event.content;
  return signer.nip44Decrypt(event.pubkey, event.content);
}

const opened = new WeakMap(); // signer -> Map(wrap id -> Promise of the rumor or null)
