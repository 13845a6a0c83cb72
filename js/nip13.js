// NIP-13 proof of work, with nostr-tools' names. Unlike nostr-tools' minePow, mining never changes
// created_at (a gift wrap's backdated created_at must stay) and never mutates its input.
import { core, throwLastError, writeScratch, scratchBytes } from './core.js';
import { NostrError } from './errors.js';
import { bytesToHex } from './hex.js';
import { validateEvent } from './event.js';
import { yieldToLoop } from './yield-to-loop.js';

const MAX_NONCE = 2 ** 53 - 1; // Number.MAX_SAFE_INTEGER

/** Number of leading zero bits of a hex event id (NIP-13 difficulty). */
export function getPow(hexId) {
  if (typeof hexId !== 'string') throw new NostrError('INVALID_HEX', 'id must be a hex string');
  const d = core().nip13Difficulty(hexId);
  if (d < 0) throwLastError();
  return d;
}

function nonceTagOf(tags) {
  return Array.isArray(tags) ? tags.find((t) => Array.isArray(t) && t[0] === 'nonce') : undefined;
}

/** The committed target (third entry of the first nonce tag), or undefined when absent or malformed. */
export function getCommittedTarget(event) {
  const tag = nonceTagOf(event && event.tags);
  if (!tag || typeof tag[2] !== 'string') return undefined;
  const t = core().nip13CommittedTarget(tag[2]);
  return t < 0 ? undefined : t;
}

/**
 * True when the id has at least `target` leading zero bits and the committed target, if any, is at
 * least `target` (NIP-13: a lower commitment is a lucky spammer). With requireCommitment a missing
 * commitment fails too. Reads event.id as given: verify the event first.
 */
export function checkPow(event, target, { requireCommitment = false } = {}) {
  if (event === null || typeof event !== 'object' || typeof event.id !== 'string')
    throw new NostrError('INVALID_EVENT', 'event must have an id');
  const tag = nonceTagOf(event.tags);
  const committed = tag && typeof tag[2] === 'string' ? tag[2] : '';
  const r = core().nip13CheckPow(event.id, committed, asNumber(target), !!requireCommitment);
  if (r < 0) throwLastError();
  return r === 1;
}

function asNumber(x) {
  return typeof x === 'number' ? x : NaN; // NaN is rejected by the core as POW_INVALID_TARGET
}

// A mining job: the serialization around the nonce digits, built once from a snapshot of the event.
function prepare(unsigned, difficulty, start) {
  if (!validateEvent(unsigned))
    throw new NostrError('INVALID_EVENT', 'unsigned event needs pubkey, created_at, kind, tags and content');
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 256)
    throw new NostrError('POW_INVALID_TARGET', 'difficulty must be an integer from 0 to 256');
  if (!Number.isSafeInteger(start) || start < 0)
    throw new NostrError('INVALID_ARGUMENT', 'start must be a non-negative safe integer');
  const { pubkey, created_at, kind, content } = unsigned;
  const tags = unsigned.tags.filter((t) => t[0] !== 'nonce').map((t) => t.slice());
  // [0,pubkey,created_at,kind,[...tags,["nonce","<n>","<difficulty>"]],content], split at <n>.
  // The nonce tag goes last so the constant prefix (hashed once) is as long as possible.
  const head = JSON.stringify([0, pubkey, created_at, kind]).slice(0, -1);
  const tagsHead = JSON.stringify(tags).slice(0, -1);
  const prefix = `${head},${tagsHead}${tags.length ? ',' : ''}["nonce","`;
  const suffix = `","${difficulty}"]],${JSON.stringify(content)}]`;
  return { pubkey, created_at, kind, content, tags, difficulty, prefix, suffix, next: start };
}

// Tries `count` nonces from job.next; returns the mined event or undefined (job.next advanced).
function runSlice(job, count) {
  const prefixLen = writeScratch(job.prefix, 0);
  const suffixLen = writeScratch(job.suffix, prefixLen);
  const nonce = core().nip13MineScratch(prefixLen, suffixLen, job.difficulty, job.next, count);
  if (nonce === -2) throwLastError();
  if (nonce === -1) {
    job.next += count;
    if (job.next > MAX_NONCE) throw new NostrError('POW_EXHAUSTED', 'no nonce left to try');
    return undefined;
  }
  return {
    kind: job.kind,
    tags: [...job.tags, ['nonce', String(nonce), String(job.difficulty)]],
    content: job.content,
    created_at: job.created_at,
    pubkey: job.pubkey,
    id: bytesToHex(scratchBytes(0, 32)),
  };
}

function abortError(signal) {
  return signal.reason !== undefined ? signal.reason : new NostrError('ABORTED', 'mining was aborted');
}

const SYNC_SLICE = 1 << 20;

/**
 * Mines until the id has `difficulty` leading zero bits; returns a new unsigned event with a last
 * tag ["nonce", "<n>", "<difficulty>"] (earlier nonce tags removed) and its id. created_at is kept.
 * Synchronous: `signal` is only checked between slices of about a million tries.
 */
export function minePow(unsignedEvent, difficulty, { signal, start = 0 } = {}) {
  const job = prepare(unsignedEvent, difficulty, start);
  for (;;) {
    if (signal && signal.aborted) throw abortError(signal);
    const found = runSlice(job, Math.min(SYNC_SLICE, MAX_NONCE - job.next + 1));
    if (found) return found;
  }
}


const SLICE_MS = 8; // work between yields: keeps a page responsive and an abort prompt
const now = () => (globalThis.performance ? performance.now() : Date.now());

/**
 * Like minePow, but works in slices of about 8 ms and yields to the event loop between them.
 * Rejects with the signal's reason (or NostrError 'ABORTED') once `signal` aborts.
 */
export async function minePowAsync(unsignedEvent, difficulty, { signal, start = 0 } = {}) {
  const job = prepare(unsignedEvent, difficulty, start);
  let count = 2048;
  for (;;) {
    if (signal && signal.aborted) throw abortError(signal);
    const t0 = now();
    const found = runSlice(job, Math.min(count, MAX_NONCE - job.next + 1));
    if (found) return found;
    // Size the next slice from the measured rate, within [256, 2^22] tries.
    const ms = now() - t0;
    const scaled = ms > 0 ? Math.round((count * SLICE_MS) / ms) : count * 2;
    count = Math.min(1 << 22, Math.max(256, Math.min(scaled, count * 4)));
    await yieldToLoop();
  }
}
