// Micro-benchmark: NIP-44 v2 encrypt/decrypt with a cached conversation key, nostr-agents (WASM)
// against nostr-tools' nip44.v2, at 1 KiB and 16 KiB of text. The machine is shared, so the two
// sides run interleaved in short slices, timed in CPU time, and the best slice of each counts.
// Run: node bench/nip44-micro.mjs
import * as nostr from 'nostr-agents';
import { v2 as tools } from 'nostr-tools/nip44';

await nostr.init();
const ck = nostr.nip44.getConversationKey(nostr.generateSecretKey(), nostr.getPublicKey(nostr.generateSecretKey()));

// Process CPU time (user + system), not wall time: on a shared machine the wall clock also
// counts the time other processes hold the cores.
function cpuMicros() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function slice(fn, ms) {
  let n = 0;
  const t0 = performance.now();
  const c0 = cpuMicros();
  while (performance.now() - t0 < ms) {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
  }
  return (cpuMicros() - c0) / n; // CPU µs per op
}

function race(a, b, rounds = 15, ms = 100) {
  for (let i = 0; i < 300; i++) (a(), b()); // warm-up
  let bestA = Infinity;
  let bestB = Infinity;
  for (let r = 0; r < rounds; r++) {
    bestA = Math.min(bestA, slice(a, ms));
    bestB = Math.min(bestB, slice(b, ms));
  }
  return [bestA, bestB];
}

const f = (x) => x.toFixed(1).padStart(7);
for (const size of [1024, 16384]) {
  // Mixed text: mostly ASCII with some multi-byte characters, cut to `size` UTF-8 bytes.
  let text = 'The quick brown fox jumps over the lazy dog, é € 💜. '.repeat(size);
  while (new TextEncoder().encode(text).length > size) text = text.slice(0, text.length - Math.max(1, (new TextEncoder().encode(text).length - size) >> 1));
  const pOurs = nostr.nip44.encrypt(text, ck);
  const pTools = tools.encrypt(text, ck);
  if (tools.decrypt(pOurs, ck) !== text || nostr.nip44.decrypt(pTools, ck) !== text) throw new Error('mismatch');
  const [encOurs, encTools] = race(() => nostr.nip44.encrypt(text, ck), () => tools.encrypt(text, ck));
  const [decOurs, decTools] = race(() => nostr.nip44.decrypt(pTools, ck), () => tools.decrypt(pOurs, ck));
  console.log(
    `${String(size).padStart(5)} B  encrypt: ours ${f(encOurs)} µs, nostr-tools ${f(encTools)} µs (x${(encTools / encOurs).toFixed(1)})` +
      `   decrypt: ours ${f(decOurs)} µs, nostr-tools ${f(decTools)} µs (x${(decTools / decOurs).toFixed(1)})`,
  );
}
