// The NIP-XX conformance table (nipxx-conformance.js) is checked here: every entry names tests
// that exist (a JS test by its exact title, a native TEST(suite, name)) or says why none can.
// Also the few rules no other test file covers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { nostr, vectorsDir } from './helpers.js';
import { CONFORMANCE } from './nipxx-conformance.js';

const { nipxx, nip44 } = nostr;
const TESTS = new URL('../', import.meta.url);
const SEED = new URL('nip-xx-ai-agent-messages.md', vectorsDir);

function exists(ref) {
  const [file, name] = ref.split('::');
  const url = file.startsWith('native/') ? new URL(file, TESTS) : new URL(`js/${file}`, TESTS);
  if (!existsSync(url)) return `${file}: no such file`;
  const text = readFileSync(url, 'utf8');
  if (file.startsWith('native/')) {
    const [suite, testName] = name.split('.');
    return text.includes(`TEST(${suite}, ${testName})`) ? null : `${ref}: no TEST(${suite}, ${testName})`;
  }
  const literal = [`'${name}'`, `"${name}"`, `\`${name}\``].some((q) => text.includes(`it(${q}`) || text.includes(`test(${q}`));
  return literal ? null : `${ref}: no test with this title`;
}

test('every conformance entry names tests that exist, or says why it has none', () => {
  const problems = [];
  for (const e of CONFORMANCE) {
    assert.ok(['MUST', 'SHOULD', 'MAY'].includes(e.level), e.rule);
    assert.ok(e.section && e.rule, JSON.stringify(e));
    if (e.tests.length === 0 && !e.note) problems.push(`${e.section}: "${e.rule}" has no test and no note`);
    for (const ref of e.tests) {
      const p = exists(ref);
      if (p) problems.push(p);
    }
  }
  assert.deepEqual(problems, []);
});

test('the table covers every section of the seed that states a MUST or SHOULD', () => {
  const seed = readFileSync(SEED, 'utf8');
  const musts = (seed.match(/\b(MUST|SHOULD)\b/g) ?? []).length;
  assert.ok(CONFORMANCE.length >= 60 && musts > 0, `${CONFORMANCE.length} entries for ${musts} MUST/SHOULD words`);
  const sections = new Set(CONFORMANCE.map((e) => e.section.split(':')[0].replace(/ \d+$/, '')));
  for (const s of ['Encryption', 'Event Formats', 'Structured text envelope', 'ai.info', 'Model and schema negotiation', 'Cancel', 'Delta',
    'Tool Call', 'Validation and failure rules', 'Streaming and reconciliation', 'Protocol Flow', 'Session recovery recipe', 'Tool model',
    'Security and abuse controls', 'Backward Compatibility'])
    assert.ok(sections.has(s), s);
});

test('every NIP-44 payload uses a fresh nonce', async () => {
  const a = nostr.LocalSigner.generate();
  const b = nostr.LocalSigner.generate();
  try {
    const nonces = new Set();
    for (let i = 0; i < 20; i++) {
      const bytes = Uint8Array.from(atob(await a.nip44Encrypt(b.publicKey, '{"ver":1,"text":"same"}')), (c) => c.charCodeAt(0));
      assert.equal(bytes[0], 2);
      nonces.add(nostr.bytesToHex(bytes.subarray(1, 33)));
    }
    assert.equal(nonces.size, 20);
  } finally {
    a.dispose();
    b.dispose();
  }
});

const EXAMPLES = {
  [nipxx.KINDS.prompt]: { ver: 1, message: 'hi' },
  [nipxx.KINDS.cancel]: { ver: 1, reason: 'user_cancel' },
  [nipxx.KINDS.response]: { ver: 1, text: 'x' },
  [nipxx.KINDS.delta]: { ver: 1, text: 'x', seq: 0 },
  [nipxx.KINDS.status]: { ver: 1, state: 'thinking' },
  [nipxx.KINDS.toolCall]: { ver: 1, name: 'calc', phase: 'start' },
  [nipxx.KINDS.error]: { ver: 1, code: 'RATE_LIMIT', message: 'slow down' },
  [nipxx.KINDS.info]: { ver: 1, encryption: ['nip44'], tool_names: [] },
};

function party() {
  const sk = nostr.generateSecretKey();
  return { sk, pk: nostr.getPublicKey(sk) };
}

function runEvent(from, to, promptId, kind, plaintext, created_at = 1000) {
  const key = nip44.getConversationKey(from.sk, to.pk);
  const tags = [['p', to.pk], ['e', promptId, '', 'root'], ['encryption', 'nip44']];
  return nostr.finalizeEvent({ kind, tags, content: nip44.encrypt(plaintext, key), created_at }, from.sk);
}

test('unknown payload fields are ignored on every kind', () => {
  for (const [kind, payload] of Object.entries(EXAMPLES)) {
    const withExtra = { ...payload, from_the_future: { x: [1, 2] }, another: 'field' };
    assert.deepEqual(nipxx.validatePayload(Number(kind), withExtra), { ok: true }, kind);
  }
  const agent = party();
  const client = party();
  const id = 'a'.repeat(64);
  const run = new nipxx.ClientRun({ promptId: id, agentPubkey: agent.pk, clientPubkey: client.pk });
  const text = '{"ver":1,"text":"hello","seq":0,"from_the_future":true}';
  assert.equal(run.onEvent(runEvent(agent, client, id, 25801, text), text).type, 'delta');
  assert.equal(run.text, 'hello');
  run.dispose();
});

test("canonical JSON fields win over the envelope's mirrored keys", () => {
  const agent = party();
  const client = party();
  const id = 'b'.repeat(64);
  const run = new nipxx.ClientRun({ promptId: id, agentPubkey: agent.pk, clientPubkey: client.pk });
  const text = JSON.stringify({ ver: 1, text: 'event=final|phase=end|text=Hi%20there|ts=1|timestamp=1', timestamp: 5 });
  assert.equal(run.onEvent(runEvent(agent, client, id, 25803, text), text).type, 'terminal');
  assert.equal(run.terminal.response.text, 'Hi there');
  assert.equal(run.terminal.response.timestamp, 5);
  run.dispose();
});
