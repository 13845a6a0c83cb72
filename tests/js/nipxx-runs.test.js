// The NIP-XX run machines through WASM, with real keys, NIP-44 and signatures (no relay yet):
// what an AgentRun emits, encrypted and signed, a ClientRun reconstructs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';

const { nipxx, nip44 } = nostr;

function parties() {
  const agentSk = nostr.generateSecretKey();
  const clientSk = nostr.generateSecretKey();
  return { agentSk, clientSk, agent: nostr.getPublicKey(agentSk), client: nostr.getPublicKey(clientSk) };
}

function publishAs(sk, recipient, out, created_at = 1000) {
  const key = nip44.getConversationKey(sk, recipient);
  return nostr.finalizeEvent({ kind: out.kind, tags: out.tags, content: nip44.encrypt(out.plaintext, key), created_at }, sk);
}

function receive(run, sk, event) {
  const plaintext = nip44.decrypt(event.content, nip44.getConversationKey(sk, event.pubkey));
  assert.ok(nostr.verifyEvent(event));
  return run.onEvent(event, plaintext);
}

test('an agent run streams to a client run: status, deltas, tool call, response', () => {
  const p = parties();
  const promptId = 'a'.repeat(64);
  const agentRun = new nipxx.AgentRun({ promptId, clientPubkey: p.client, info: { encryption: ['nip44'], tool_names: ['calc'] } });
  const clientRun = new nipxx.ClientRun({ promptId, agentPubkey: p.agent, clientPubkey: p.client });
  const sent = [
    agentRun.status('thinking', { progress: 10 }),
    agentRun.delta('The answer '),
    agentRun.toolCall({ name: 'calc', phase: 'start', arguments: { expr: '6*7' } }),
    agentRun.delta('is 42'),
    agentRun.respond('The answer is 42.', { input_tokens: 3, output_tokens: 4 }),
  ].map((out, i) => publishAs(p.agentSk, p.client, out, 1000 + i));
  // Delivered out of order and with a duplicate: the client still reconstructs the run.
  const order = [1, 0, 3, 3, 2, 4];
  const types = order.map((i) => receive(clientRun, p.clientSk, sent[i]).type);
  assert.deepEqual(types, ['delta', 'status', 'delta', 'ignored', 'tool_call', 'terminal']);
  assert.equal(clientRun.text, 'The answer is 42');
  assert.equal(clientRun.degraded, false);
  assert.equal(clientRun.terminal.response.text, 'The answer is 42.');
  assert.deepEqual(clientRun.terminal.response.usage, { input_tokens: 3, output_tokens: 4 });
  assert.equal(agentRun.finished, true);
  assert.throws(() => agentRun.delta('late'), { code: 'INVALID_ARGUMENT' });
  assert.equal(agentRun.cancel(), null);
  agentRun.dispose();
  clientRun.dispose();
});

test('cancel yields one CANCELLED terminal; a later response loses only if older', () => {
  const p = parties();
  const promptId = 'b'.repeat(64);
  const agentRun = new nipxx.AgentRun({ promptId, clientPubkey: p.client, session: 'session:x' });
  const clientRun = new nipxx.ClientRun({ promptId, agentPubkey: p.agent, clientPubkey: p.client });
  const cancelled = agentRun.cancel();
  assert.ok(cancelled);
  assert.equal(agentRun.cancel(), null);
  assert.deepEqual(cancelled.tags.find((t) => t[0] === 's'), ['s', 'session:x']);
  const err = publishAs(p.agentSk, p.client, cancelled, 2000);
  assert.equal(receive(clientRun, p.clientSk, err).type, 'terminal');
  assert.equal(clientRun.terminal.error.code, 'CANCELLED');
  // A hostile agent's second, older terminal does not replace the accepted one.
  const stale = publishAs(p.agentSk, p.client, { kind: 25803, tags: cancelled.tags, plaintext: '{"ver":1,"text":"x"}' }, 1999);
  assert.equal(receive(clientRun, p.clientSk, stale).type, 'ignored');
  assert.equal(clientRun.terminal.error.code, 'CANCELLED');
});

test('the client rejects what breaks the rules, with protocol codes', () => {
  const p = parties();
  const promptId = 'c'.repeat(64);
  const clientRun = new nipxx.ClientRun({ promptId, agentPubkey: p.agent, clientPubkey: p.client });
  const tags = [['p', p.client], ['e', promptId, '', 'root'], ['encryption', 'nip44']];
  const bad = (plaintext, t = tags) => receive(clientRun, p.clientSk, publishAs(p.agentSk, p.client, { kind: 25801, tags: t, plaintext }));
  assert.equal(bad('not json').code, 'PARSE_ERROR');
  assert.equal(bad('{"ver":1}').code, 'INVALID_SCHEMA');
  assert.equal(bad('{"ver":1,"text":"x"}', [['p', p.client], ['e', promptId, '', 'root'], ['encryption', 'nip04']]).code, 'UNSUPPORTED_ENCRYPTION');
  assert.equal(bad('{"ver":1,"text":"a","seq":3}').type, 'delta');
  assert.equal(clientRun.degraded, true);
  assert.equal(bad('{"ver":1,"text":"b","seq":3}').code, 'INVALID_SEQUENCE');
  const otherRun = [['p', p.client], ['e', 'd'.repeat(64), '', 'root'], ['encryption', 'nip44']];
  assert.equal(bad('{"ver":1,"text":"x"}', otherRun).type, 'ignored');
  assert.equal(clientRun.text, 'a');
});
