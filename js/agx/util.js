// Shared helpers of the AGX layer: keys, peers, clocks, randomness.
import { NostrError } from '../errors.js';
import { decode as nip19Decode } from '../nip19.js';

export const HANDLE = Symbol.for('nostr-agents.LocalSigner.handle');
export const WRAP_RANDOM = 176; // bindings/agx.cpp kWrapRandom

export function randomBytes(n) {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export function randomId() {
  return Array.from(randomBytes(16), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function nowOf(options) {
  const now = options?.now;
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(now) || now < 0)
    throw new NostrError('INVALID_ARGUMENT', 'now must be a non-negative integer number of seconds');
  return now;
}

/** A LocalSigner's wasm key handle, or 0. */
export function localHandle(key) {
  return key && typeof key[HANDLE] === 'function' ? key[HANDLE]() : 0;
}

/** 'handle' (LocalSigner), 'sk' (32-byte Uint8Array) or a thrown INVALID_ARGUMENT. */
export function keyKind(key) {
  if (key instanceof Uint8Array) return 'sk';
  if (localHandle(key)) return 'handle';
  throw new NostrError('INVALID_ARGUMENT', 'expected a LocalSigner or a 32-byte secret key (Uint8Array)');
}

/** A peer given as npub or hex, as 64 lowercase hex. */
export function peerHex(peer) {
  if (typeof peer === 'string' && /^[0-9a-fA-F]{64}$/.test(peer)) return peer.toLowerCase();
  if (typeof peer === 'string' && peer.startsWith('npub1')) {
    const d = nip19Decode(peer);
    if (d.type === 'npub') return d.data;
  }
  throw new NostrError('INVALID_PUBLIC_KEY', 'peer must be an npub or 64 hex characters');
}

// A turn of the event loop between mining slices, without setTimeout's clamp (1 ms in Node, 4 ms
// nested in browsers), which cost more than the mining of a slice.
export const tick = (() => {
  const sched = globalThis.scheduler;
  if (sched && typeof sched.yield === 'function') return () => sched.yield();
  if (typeof globalThis.setImmediate === 'function') return () => new Promise((r) => globalThis.setImmediate(r));
  if (typeof globalThis.MessageChannel === 'function') {
    const waiting = [];
    let channel = null;
    return () =>
      new Promise((r) => {
        if (!channel) {
          channel = new MessageChannel();
          channel.port1.onmessage = () => waiting.shift()();
        }
        waiting.push(r);
        channel.port2.postMessage(null);
      });
  }
  return () => new Promise((r) => setTimeout(r, 0));
})();
