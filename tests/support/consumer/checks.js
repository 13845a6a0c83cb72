// What a consumer app checks against the installed package, the same in Node and in browsers:
// init, a known-answer key (BIP-340 test vector 0), fresh random keys, sign, verify, and two
// tampered events that must fail. Returns plain data for the test to assert on.
const VECTOR_SECRET_KEY = '0000000000000000000000000000000000000000000000000000000000000003';
const VECTOR_PUBLIC_KEY = 'f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9';

export async function runChecks(nostr, label) {
  const t0 = performance.now();
  await nostr.init();
  const initMs = performance.now() - t0;

  const sk = nostr.generateSecretKey();
  const sk2 = nostr.generateSecretKey();
  const event = nostr.finalizeEvent(
    { kind: 1, created_at: 1700000000, tags: [['t', 'pkg'], ['client', label]], content: `hello from ${label} ✓ 💜` },
    sk,
  );
  const flip = (hex) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
  return {
    label,
    initMs,
    readyAtMs: performance.now(),
    isReady: nostr.isReady(),
    secretKeyIsBytes: sk instanceof Uint8Array && sk.length === 32,
    randomKeysDiffer: nostr.bytesToHex(sk) !== nostr.bytesToHex(sk2),
    vectorPublicKeyOk: nostr.getPublicKey(nostr.hexToBytes(VECTOR_SECRET_KEY)) === VECTOR_PUBLIC_KEY,
    event,
    pubkeyMatches: event.pubkey === nostr.getPublicKey(sk),
    verified: nostr.verifyEvent({ ...event }),
    tamperedContent: nostr.verifyEvent({ ...event, content: event.content + '!' }),
    tamperedSig: nostr.verifyEvent({ ...event, sig: flip(event.sig) }),
  };
}

/** For pages: puts the outcome (or the error) in window.__result, where the test waits for it. */
export function reportToPage(promise) {
  promise.then(
    (result) => {
      window.__result = result;
    },
    (err) => {
      window.__result = { error: String(err && err.stack ? err.stack : err) };
    },
  );
}
