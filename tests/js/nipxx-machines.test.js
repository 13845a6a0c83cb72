// js/agents drives the core's NIP-XX machines and keeps no copy of their rules or constants: the
// constants table is the core's, the agents' sources arm no timer but through the one clock, and
// the client machine hands delta text out incrementally (what the JS driver rebuilds from the
// increments is the machine's text, whatever order the deltas came in).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { nostr, prng } from './helpers.js';
import { core } from '../../js/core.js';
import { ClientMachine, constants } from '../../js/agents/machines.js';

const { nipxx, nip44, TERMINAL_GRACE, CANCEL_RACE_GRACE, DEFAULT_IDLE_TIMEOUT } = nostr;
const AGENTS = new URL('../../js/agents/', import.meta.url);

test('the public constants and KINDS are the core constants table', () => {
  const c = constants();
  assert.equal(TERMINAL_GRACE, c.terminalGraceMs);
  assert.equal(CANCEL_RACE_GRACE, c.terminalGraceMs);
  assert.equal(DEFAULT_IDLE_TIMEOUT, c.idleTimeoutMs);
  const { giftWrap, ...kinds } = c.kinds;
  assert.deepEqual({ ...nipxx.KINDS }, kinds);
  assert.equal(giftWrap, 1059);
  assert.ok(c.wrapLookback > 2 * 24 * 3600, 'gift wraps are dated up to two days back');
});

test('js/agents has no timer but the clock\'s and no copy of a kind or a window', () => {
  for (const file of readdirSync(AGENTS).filter((f) => f.endsWith('.js'))) {
    // Comments aside, and the two public constants (an export cannot wait for the core to load;
    // the test above pins them to the table).
    const src = readFileSync(new URL(file, AGENTS), 'utf8')
      .replace(/^\s*(\/\/|\*).*$/gm, '')
      .replace(/^export const (TERMINAL_GRACE|DEFAULT_IDLE_TIMEOUT) = [0-9_]+;$/gm, '');
    const timers = src.match(/\bsetTimeout\(/g)?.length ?? 0;
    assert.equal(timers, file === 'shared.js' ? 1 : 0, `${file}: setTimeout outside shared.js after()`);
    assert.doesNotMatch(src, /\b(1059|1500|120_?000|172800|10_?000|25800|25801|25802|25803|25805|25806|31340)\b/, `${file}: a constant copied from the core`);
  }
});

function delta(agentSk, client, promptId, text, seq, createdAt) {
  const key = nip44.getConversationKey(agentSk, client);
  const tags = [['p', client], ['e', promptId, '', 'root'], ['encryption', 'nip44']];
  const payload = JSON.stringify({ ver: 1, text, seq });
  return { event: nostr.finalizeEvent({ kind: nipxx.KINDS.delta, tags, content: nip44.encrypt(payload, key), created_at: createdAt }, agentSk), payload };
}

test('delta increments rebuild the machine text in any delivery order', () => {
  const agentSk = nostr.generateSecretKey();
  const clientSk = nostr.generateSecretKey();
  const agent = nostr.getPublicKey(agentSk);
  const client = nostr.getPublicKey(clientSk);
  const promptId = 'f'.repeat(64);
  const rand = prng(7);
  const parts = Array.from({ length: 40 }, (_, i) => `part ${i} ${'x'.repeat(Math.floor(rand() * 20))};`);
  const events = parts.map((t, i) => delta(agentSk, client, promptId, t, i, 1000 + i));
  for (let round = 0; round < 3; round++) {
    const order = events.map((_, i) => i);
    if (round > 0) order.sort(() => rand() - 0.5);
    const m = new ClientMachine({ promptId, agent, client, terminalGrace: 0, idleTimeout: 0 });
    const native = new (core().NipxxClientRun)(promptId, agent, client, 0, 0);
    let shown = '';
    let resets = 0;
    for (const i of order) {
      const u = m.onEvent(events[i].event, events[i].payload, 0);
      assert.equal(u.type, 'delta');
      if (u.text !== undefined) resets++;
      shown = u.text !== undefined ? u.text : shown + u.append;
      native.onEvent(events[i].event, events[i].payload, 0);
      assert.equal(shown, native.text());
    }
    assert.equal(shown, parts.join(''));
    if (round === 0) assert.equal(resets, 0, 'in order: only appends cross the boundary');
    m.dispose();
    native.delete();
  }
});

test('the client machine owns the idle and cancel deadlines; nothing after close', () => {
  const agentSk = nostr.generateSecretKey();
  const client = nostr.getPublicKey(nostr.generateSecretKey());
  const agent = nostr.getPublicKey(agentSk);
  const m = new ClientMachine({ promptId: 'e'.repeat(64), agent, client, idleTimeout: 1000 });
  m.start(5000);
  assert.equal(m.nextDeadline, 6000);
  assert.equal(m.mayCancel, true);
  m.cancelSent(5100, 300);
  assert.equal(m.nextDeadline, 5400);
  assert.equal(m.handleTimeout(5399), 'none');
  assert.equal(m.handleTimeout(5400), 'cancel_unconfirmed');
  assert.equal(m.nextDeadline, null);
  assert.equal(m.handleTimeout(1e9), 'none');
  const { event, payload } = delta(agentSk, client, 'e'.repeat(64), 'late', 0, 1000);
  assert.equal(m.onEvent(event, payload, 5500).type, 'ignored');
  m.dispose();
});
