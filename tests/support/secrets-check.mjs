// Searches what tests/support/secrets-capture.mjs collected during the JS suite for the secret
// keys the suite uses from the vectors in tests/vectors (NIP-44 sec1/sec2 and conversation keys, BIP-340
// secret keys, the NIP-59 and NIP-17 example keys), as hex in either case and as nsec. Exits 1
// and names each leak. Low-entropy keys (like 00...03) are skipped: they match ids and counters.
//   node tests/support/secrets-check.mjs <log dir>
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { nostr, vectorsDir as vectors } from '../js/helpers.js';

const dir = process.argv[2];
const secrets = new Map(); // hex -> where from
const addHex = (hex, from) => {
  if (typeof hex === 'string' && /^[0-9a-fA-F]{64}$/.test(hex) && new Set(hex.toLowerCase()).size >= 8) secrets.set(hex.toLowerCase(), from);
};
function walk(v, path) {
  if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).forEach(([k, x]) => walk(x, `${path}.${k}`));
  if (typeof v !== 'string') return;
  if (/(sec\d?|_sk|conversation_key|secret)$/i.test(path)) addHex(v, path);
  if (/^nsec1/.test(v)) {
    try {
      addHex(nostr.bytesToHex(nostr.nip19.decode(v).data), path);
    } catch {
      /* an invalid example */
    }
  }
}
for (const f of ['nip44.vectors.json', 'nips-spec-examples.json']) {
  walk(JSON.parse(readFileSync(new URL(f, vectors), 'utf8')), f);
}
const csv = new URL('bip340-test-vectors.csv', vectors);
for (const line of readFileSync(csv, 'utf8').split('\n').slice(1)) addHex(line.split(',')[1], 'bip340');

const needles = [];
for (const [hex, from] of secrets) {
  needles.push([hex, from], [hex.toUpperCase(), from]);
  try {
    needles.push([nostr.nip19.nsecEncode(nostr.hexToBytes(hex)), `${from} (nsec)`]);
  } catch {
    /* not a valid secret key (a conversation key): hex only */
  }
}
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.log')) : [];
let bytes = 0;
const leaks = [];
for (const f of files) {
  const text = readFileSync(join(dir, f), 'latin1');
  bytes += text.length;
  for (const [needle, from] of needles) {
    const at = text.indexOf(needle);
    if (at >= 0) leaks.push(`${f}: secret from ${from}: …${text.slice(Math.max(0, at - 80), at + 80).replace(/\s+/g, ' ')}…`);
  }
}
console.log(`secrets check: ${secrets.size} vector secrets searched in ${files.length} process logs (${bytes} bytes)`);
if (files.length === 0) {
  console.error('secrets check: nothing was collected (was NOSTR_SECRETS_LOG set for the suite?)');
  process.exit(1);
}
if (leaks.length) {
  console.error(`secrets check: ${leaks.length} leak(s):\n${leaks.join('\n')}`);
  process.exit(1);
}
