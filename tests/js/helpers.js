// Shared by the package tests: the package as users import it, initialized once.
import assert from 'node:assert/strict';
import * as nostr from 'nostr-agents';

await nostr.init();

export { nostr };
// The third-party vectors and the NIP-XX seed text, inside the repository (tests/vectors/README.md names each source).
export const vectorsDir = new URL('../vectors/', import.meta.url);

/** Deterministic pseudo-random source for generating many test cases (not for keys in production). */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random string mixing ASCII, escapes, controls and multi-byte characters. */
export function randomText(rand, maxLen = 40) {
  const pool = ['a', 'Z', ' ', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001f', '\u007f', 'é', '€', '💜', '/', '<', '\u2028'];
  let s = '';
  const n = Math.floor(rand() * maxLen);
  for (let i = 0; i < n; i++) s += pool[Math.floor(rand() * pool.length)];
  return s;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `pred` (may be async) every 10 ms until it is true; throws naming `what` after `ms`. */
export async function until(pred, what = 'condition', ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const NOTHING = Symbol('nothing thrown');

function checkCode(err, code, what) {
  const label = typeof what === 'function' ? code : what;
  assert.notEqual(err, NOTHING, `${label}: expected a NostrError ${code}, nothing was thrown`);
  assert.ok(err instanceof nostr.NostrError, `${label}: not a NostrError: ${err}`);
  assert.equal(err.code, code, `${label}: ${err.message}`);
  if (typeof what === 'function') what(err);
}

/**
 * Asserts that fn() throws (synchronously) a NostrError with `code`, and returns it. `what` names
 * the case in the failure message, or is a function given the error for more checks.
 */
export function throwsCode(fn, code, what = code) {
  let err = NOTHING;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  checkCode(err, code, what);
  return err;
}

/** throwsCode for a promise: asserts it rejects with a NostrError with `code`; resolves to it. */
export async function rejectsCode(promise, code, what = code) {
  let err = NOTHING;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  checkCode(err, code, what);
  return err;
}
