// Helpers shared by the NIP-XX client and runtime.
import { core } from '../core.js';
import { NostrError } from '../errors.js';
import { RelayPool } from '../relay/pool.js';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

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

export function rootOf(event) {
  const t = event.tags.find((x) => x[0] === 'e' && x[3] === 'root');
  return t ? t[1] : undefined;
}

/** Encrypts `plaintext` to `recipient`, signs {kind, tags}, returns the event. */
export async function sealEvent(signer, recipient, { kind, tags, plaintext }) {
  const content = await signer.nip44Encrypt(recipient, plaintext);
  return signer.signEvent({ kind, tags, content, created_at: nowSeconds() });
}

/** Subscribes and resolves once the relays sent EOSE (or after maxWait ms), so live events are not missed. */
export function subscribeLive(pool, filters, { relays, onevent, onclose, maxWait = 5000 }) {
  return new Promise((resolve, reject) => {
    let sub;
    try {
      sub = pool.subscribe(filters, { relays, onevent, onclose, oneose: () => queueMicrotask(() => resolve(sub)), maxWait });
    } catch (err) {
      reject(err);
      return;
    }
    if (sub.eosed) queueMicrotask(() => resolve(sub));
  });
}
