// Writes the seed corpora of the fuzz targets into <out>/<target>/ (an ignored build directory):
// values taken from the third-party vectors (tests/vectors, or NOSTR_VECTORS_DIR) and the
// JSON, frame and envelope string literals of our own native tests. Targets that read a mode byte
// get each seed once per mode.
//   node tests/fuzz/seed.mjs build/fuzz/corpus
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = process.argv[2] ?? join(root, 'build', 'fuzz', 'corpus');
const vectorsDir = process.env.NOSTR_VECTORS_DIR ?? join(root, 'tests', 'vectors');

// --- Collect.
const events = [];   // event JSON texts
const bech32 = [];   // NIP-19 strings
const payloads = []; // NIP-44 base64 payloads
const jsonTexts = []; // any JSON text from the tests
const envelopes = []; // key=value|... texts
const nip05Bodies = []; // nostr.json responses
const nip05Ids = ['_@example.com', 'agent@acme.example.com', 'bob@sub.domain.org'];

function walk(v) {
  if (Array.isArray(v)) return v.forEach(walk);
  if (v && typeof v === 'object') {
    if (typeof v.id === 'string' && typeof v.pubkey === 'string' && 'kind' in v) events.push(JSON.stringify(v));
    if (v.names && typeof v.names === 'object') nip05Bodies.push(JSON.stringify(v));
    return Object.values(v).forEach(walk);
  }
  if (typeof v !== 'string') return;
  if (/^(npub|nsec|note|nprofile|nevent|naddr)1/.test(v)) bech32.push(v);
  else if (v.length >= 132 && /^[A-Za-z0-9+/]+=*$/.test(v)) payloads.push(v);
  else if (/^[{[]/.test(v)) {
    try { walk(JSON.parse(v)); jsonTexts.push(v); } catch { /* not JSON */ }
  }
}
if (existsSync(vectorsDir)) {
  for (const f of readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(join(vectorsDir, f), 'utf8')));
  }
}

// The conformance vectors (real AGX wraps, NIP-XX run events, payloads and envelopes).
const conformanceDir = join(root, 'tests', 'conformance');
for (const f of readdirSync(conformanceDir).filter((f) => f.endsWith('.json'))) {
  const doc = JSON.parse(readFileSync(join(conformanceDir, f), 'utf8'));
  walk(doc);
  for (const c of doc.cases ?? []) {
    if (typeof c.payload === 'string') jsonTexts.push(c.payload);
    if (typeof c.text === 'string' && c.text.startsWith('event=')) envelopes.push(c.text);
    for (const st of c.steps ?? []) if (typeof st.plaintext === 'string') jsonTexts.push(st.plaintext);
    if (c.rumor) jsonTexts.push(c.rumor.content);
  }
}

// C++ string literals of the native tests: "..." with escapes, and R"(...)".
function unescapeCpp(s) {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, e) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0', '\\': '\\', '"': '"', "'": "'" }[e] ?? e;
  });
}
const testsDir = join(root, 'tests', 'native');
for (const f of readdirSync(testsDir).filter((f) => f.endsWith('.cpp'))) {
  const src = readFileSync(join(testsDir, f), 'utf8');
  const lits = [];
  for (const m of src.matchAll(/R"([^(]*)\(([\s\S]*?)\)\1"/g)) lits.push(m[2]);
  for (const m of src.replace(/R"([^(]*)\([\s\S]*?\)\1"/g, '').matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) {
    lits.push(unescapeCpp(m[1]));
  }
  for (const s of lits) {
    if (/^\s*[{[]/.test(s)) jsonTexts.push(s);
    else if (s.startsWith('event=')) envelopes.push(s);
    else if (/^(npub|nsec|note|nprofile|nevent|naddr)1/.test(s)) bech32.push(s);
    else if (/^[^\s@]{0,64}@[^\s@]{1,253}$/.test(s)) nip05Ids.push(s);
    if (/^\s*\{/.test(s) && s.includes('"names"')) nip05Bodies.push(s);
  }
}

// Hand-written shapes, so every target starts from something it accepts.
const hex = (c) => c.repeat(64);
const ev = { id: hex('a'), pubkey: hex('b'), created_at: 1700000000, kind: 1, tags: [['e', hex('c')], ['p', hex('d')]], content: 'hi', sig: 'e'.repeat(128) };
events.push(JSON.stringify(ev));
const evText = JSON.stringify(ev);
const frames = [
  `["EVENT","sub",${evText}]`, `["OK","${hex('a')}",true,""]`, `["OK","${hex('a')}",false,"rate-limited: slow down"]`,
  '["EOSE","sub"]', '["CLOSED","sub","auth-required: log in"]', '["NOTICE","hello"]', '["AUTH","challenge"]',
  '["COUNT","sub",{"count":3,"approximate":true}]',
];
const clientFrames = [
  `["EVENT",${evText}]`, `["REQ","sub",{"kinds":[1],"#e":["${hex('c')}"],"limit":5},{"authors":["${hex('b')}"]}]`,
  '["CLOSE","sub"]', `["AUTH",${evText}]`, '["COUNT","sub",{"since":1,"until":2}]',
];
const filters = [`{"ids":["${hex('a')}"],"authors":["${hex('b')}"],"kinds":[1,2],"#t":["nostr"],"since":1,"until":2000000000,"limit":10}`, '{}'];
const nipxx = [
  '{"ver":1,"message":"hello","thinking":"low","provider":"p","model":"m","tool_schema_version":1,"fallback_models":["a"]}',
  '{"ver":1,"reason":"user_cancel"}', '{"ver":1,"text":"done","timestamp":1,"usage":{"input_tokens":1,"output_tokens":2}}',
  '{"ver":1,"text":"d","seq":0,"timestamp":1}', '{"ver":1,"status":"thinking","text":"event=status|phase=start|ts=1"}',
  '{"ver":1,"text":"event=tool|phase=start|name=web_fetch|call_id=call_123|target=https%3A%2F%2Fexample.com|ts=1771402416"}',
  '{"ver":1,"code":"RATE_LIMITED","message":"slow"}', '{"ver":1,"name":"agent","tools":[]}',
];
envelopes.push('event=tool|phase=start|name=web_fetch|call_id=call_123|target=https%3A%2F%2Fexample.com|ts=1771402416',
  'event=status|phase=end|runId=r1|timestamp=5');
const agx = [
  '{"v":1,"kind":"message","contentType":"application/a2a+json","role":"user","messageId":"m1","contextId":"c1","parts":[{"text":"hi"}],"subject":null,"autoDepth":1}',
  '{"v":1,"kind":"message","contentType":"application/agx-task+json","role":"user","messageId":"m2","contextId":"task-1","parts":[{"text":"{\\"t\\":\\"req\\",\\"taskId\\":\\"task-1\\",\\"capability\\":\\"invoice.review\\",\\"payload\\":{\\"a\\":1}}"}],"subject":null}',
  '{"v":1,"kind":"message","contentType":"application/agx-task+json","role":"agent","messageId":"m3","contextId":"task-1","parts":[{"text":"{\\"t\\":\\"res\\",\\"taskId\\":\\"task-1\\",\\"status\\":\\"completed\\",\\"output\\":[1]}"}],"subject":"s"}',
  `{"v":1,"kind":"receipt","refEventId":"${hex('d')}","contextId":"c1","status":"delivered"}`,
];
const tasks = ['{"t":"req","taskId":"t1","capability":"echo","payload":{"x":[1,2]}}',
  '{"t":"res","taskId":"t1","status":"failed","error":"handler failed"}', '{"t":"res","taskId":"t1","status":"completed"}',
  'input-required'];
const cards = [`{"v":1,"org":"Acme","npub":null,"nip05":"agent@acme.example.com","relays":["wss://relay.example.com"],"capabilities":["invoice.review","invoice.*"],"payloadTypes":["application/a2a+json"],"encryption":["nip44"],"version":"1.0.0"}`, '{}'];
const rumor = { id: hex('a'), pubkey: hex('b'), created_at: 1700000000, kind: 3838, tags: [['p', hex('c')]], content: agx[0] };

// --- Write.
const uniq = (a) => [...new Set(a)];
let files = 0;
function seeds(target, texts, modes = null) {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  for (const t of uniq(texts)) {
    const body = Buffer.from(t, 'utf8');
    if (body.length > 16384) continue;  // long inputs only slow the fuzzer down
    for (const m of modes ?? [null]) {
      const data = m === null ? body : Buffer.concat([Buffer.from(m), body]);
      writeFileSync(join(dir, createHash('sha1').update(data).digest('hex')), data);
      files++;
    }
  }
}
seeds('event_json', [...events, ...jsonTexts]);
seeds('json_diff', [...events, ...jsonTexts, ...frames, ...clientFrames, ...nipxx, ...agx, ...tasks, ...cards,
  '[1.50,-0.0,1e2,18446744073709551616,-9223372036854775809,1e309]', '{"b":1,"a":2,"a":3}'], [[0]]);
seeds('json_diff', ['plain', 'a"b\\c\n\u0001\u007f', '\u00e9\u{1f600}'], [[1]]);
seeds('filter', [...filters, ...jsonTexts.filter((t) => t.trim().startsWith('{'))]);
seeds('relay_frame', [...frames], [[0], [2]]);
seeds('relay_frame', [...clientFrames], [[1], [3]]);
seeds('relay_frame', jsonTexts.filter((t) => /^\s*\["/.test(t)), [[0], [1]]);
seeds('nip19', bech32);
seeds('nip44', payloads, [[0]]);
seeds('nip44', ['hello', 'a'.repeat(300), '\u00e9\u{1f600}'], [[1]]);
// Padded blocks: u16 length, plaintext, zero padding to 32; and the extended u32 prefix.
const block = (text, pad) => '\u0000' + String.fromCharCode(text.length) + text + '\u0000'.repeat(pad - text.length);
seeds('nip44', [block('hello', 32), block('a'.repeat(40), 64), '\u0000\u0000\u0000\u0001\u0000\u0000' + 'x'.repeat(32)], [[2]]);
seeds('nip59_unwrap', events, [[0], [4], [8], [12]]);
seeds('nip59_unwrap', events, [[1]]);
seeds('nip59_unwrap', [...events, JSON.stringify(rumor)], [[2], [6]]);
seeds('nip59_unwrap', ['hello', '{"a":1}'], [[3]]);
seeds('nip_xx_payload', [...nipxx, ...jsonTexts], [[0], [1], [2], [3], [4], [5], [6], [7]]);
seeds('nip_xx_payload', events, [[8]]);
seeds('nip_xx_envelope', envelopes);
seeds('agx_message', [...agx, ...jsonTexts.filter((t) => t.includes('"v"'))], [[0, 0], [1, 0], [2, 5], [2, 4], [3, 1]]);
seeds('agx_task', [...tasks, ...jsonTexts.filter((t) => t.includes('"t"'))]);
seeds('agx_card', events, [[0]]);
seeds('agx_card', [...cards, ...jsonTexts.filter((t) => t.includes('capabilities') || t.includes('org'))], [[1]]);
seeds('agx_unwrap', events, [[0], [1]]);
nip05Bodies.push(`{"names":{"_":"${hex('a')}","agent":"${hex('b').toUpperCase()}"},"relays":{"${hex('a')}":["wss://r.example.com"]}}`);
seeds('relay_subscriptions', events.map((e) => `F["EVENT","s1",${e}]\nG["EVENT","s2",${e}]\nF["EOSE","s1"]\nD\nR\nF["EVENT","s1",${e}]\nC\nG["EVENT","s2",${e}]\nG["CLOSED","s1","auth-required: x"]\nQ`));
seeds('agx_nip05', nip05Ids, [[0]]);
seeds('agx_nip05', nip05Bodies, [[1]]);
seeds('agx_unwrap', [JSON.stringify(rumor), JSON.stringify({ ...rumor, kind: 3839, content: agx[3], tags: [['p', hex('c')], ['e', hex('d')]] })], [[2]]);
// verify_batch: opcode streams (see tests/fuzz/verify_batch.cpp), and the BIP-340 vectors'
// 32-byte-message rows as raw entries (op 2) among valid ones.
{
  const dir = join(out, 'verify_batch');
  mkdirSync(dir, { recursive: true });
  const put = (data) => {
    writeFileSync(join(dir, createHash('sha1').update(data).digest('hex')), data);
    files++;
  };
  put(Buffer.from([0, 0, 0, 5, 0, 9, 1, 3, 70, 1, 3, 0, 2, 0, 31]));
  put(Buffer.from([...Array(40)].flatMap((_, k) => [0, k])));
  put(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.alloc(128, 0xff), Buffer.from([0, 2, 2]), Buffer.alloc(128, 0)]));
  const csv = join(vectorsDir, 'bip340-test-vectors.csv');
  if (existsSync(csv)) {
    const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const raw = rows.filter((r) => r[4]?.length === 64 && r[5]?.length === 128);
    put(Buffer.concat(raw.flatMap((r) => [Buffer.from([0, 7, 0, 8, 2]), Buffer.from(r[5] + r[4] + r[2], 'hex')])));
  }
}
// NIP-49: nostr-tools' ncryptsecs of log_n 1 to 3, with their password's index (tests/fuzz/nip49.cpp).
const nip49Vectors = JSON.parse(readFileSync(join(root, 'tests', 'vectors', 'nip49.json'), 'utf8')).nostr_tools;
const nip49Passwords = ['777z7z7z7z7z7z7z', '.ksjabdk.aselqwe', ''];
for (const v of nip49Vectors.filter((v) => v.log_n <= 3 && nip49Passwords.includes(v.password)))
  seeds('nip49', [v.ncryptsec], [[0, nip49Passwords.indexOf(v.password)]]);
seeds('nip49', ['k'.repeat(32) + 'a password'], [[1, 0], [1, 5]]);
console.log(`seed corpora: ${files} files in ${out} (${events.length} events, ${bech32.length} NIP-19, ${payloads.length} NIP-44, ${jsonTexts.length} JSON and ${envelopes.length} envelope literals from the tests)`);
