// NIP-XX over the wire against a hostile agent: a hand-written agent (no serveAgent) on a real
// dev relay that sends out-of-order, duplicate and late deltas, conflicting seqs, broken content,
// wrong e/p/encryption tags, and several terminals. The real client must apply the seed's
// reconciliation and terminal rules and surface every broken event typed. Then: every error code
// the runtime produces reaches a real client as a typed AgentError.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, serveAgent, prompt, AgentError } = nostr;

// Long enough for the hostile agent to publish everything after its first terminal.
const GRACE = 3000;

/**
 * A hostile agent: answers each prompt with `scripts[message](ctx)`, a list of raw events to
 * publish in that order. ctx.ev(kind, plaintext, opts) builds one: tags default to the run's
 * correct tags, created_at to ctx.t.
 */
async function hostileAgent(pool, scripts) {
  const signer = LocalSigner.generate();
  const agent = signer.publicKey;
  const done = [];
  const sub = pool.subscribe({ kinds: [25802], '#p': [agent] }, {
    onevent: (p) => {
      const work = (async () => {
        const { message } = JSON.parse(await signer.nip44Decrypt(p.pubkey, p.content));
        const t = Math.floor(Date.now() / 1000);
        const ctx = {
          t,
          prompt: p,
          tags: [['p', p.pubkey], ['e', p.id, '', 'root'], ['encryption', 'nip44']],
          async ev(kind, plaintext, { tags = ctx.tags, created_at = t, content } = {}) {
            return signer.signEvent({ kind, tags, created_at, content: content ?? (await signer.nip44Encrypt(p.pubkey, plaintext)) });
          },
        };
        const events = await scripts[message](ctx);
        for (const e of events) await pool.publish(e);
        return events;
      })();
      done.push(work);
    },
  });
  return {
    pubkey: agent,
    published: () => Promise.all(done),
    close() {
      sub.close();
      signer.dispose();
    },
  };
}

describe('NIP-XX client against a hostile agent over a real relay', () => {
  const { newPool } = useNipxxRelay();

  it('reorders, dedupes, rejects broken events typed, ignores misrouted and late ones; the newest terminal wins', async () => {
    const other = LocalSigner.generate();
    const otherRun = 'f'.repeat(64);
    let sent;
    const hostile = await hostileAgent(newPool(), {
      async mess(c) {
        const delta = (seq, text, o) => c.ev(25801, JSON.stringify({ ver: 1, text, seq }), o);
        const e = {
          seq1: await delta(1, 'world'), // out of order: seq 0 comes later
          seq0: await delta(0, 'Hello '),
          seq0again: await delta(0, 'Hello '), // another event, same (seq, text): deduped
          // misrouted: the first p names someone else (the relay still matches #p on the second)
          wrongP: await delta(5, 'misrouted p', { tags: [['p', other.publicKey], ['p', c.prompt.pubkey], ['e', c.prompt.id, '', 'root'], ['encryption', 'nip44']] }),
          // misrouted: the root is another run (the relay matches #e on the unmarked tag)
          wrongE: await delta(5, 'misrouted e', { tags: [['p', c.prompt.pubkey], ['e', c.prompt.id], ['e', otherRun, '', 'root'], ['encryption', 'nip44']] }),
          nip04: await delta(5, 'bad scheme', { tags: [['p', c.prompt.pubkey], ['e', c.prompt.id, '', 'root'], ['encryption', 'nip04']] }),
          noEncryption: await delta(5, 'no tag', { tags: [['p', c.prompt.pubkey], ['e', c.prompt.id, '', 'root']] }),
          garbage: await c.ev(25801, null, { content: 'this is not nip44' }),
          notJson: await c.ev(25801, 'not json {'),
          conflict: await delta(0, 'HELLO '), // same seq, other text
          badStatus: await c.ev(25800, JSON.stringify({ ver: 1, state: 'dreaming' })),
          seq2: await delta(2, '!', { created_at: c.t + 1 }),
          response: await c.ev(25803, JSON.stringify({ ver: 1, text: 'Hello world!' }), { created_at: c.t + 2 }),
          late: await delta(3, ' LATE', { created_at: c.t + 3 }),
          olderError: await c.ev(25805, JSON.stringify({ ver: 1, code: 'INTERNAL_ERROR', message: 'older' }), { created_at: c.t + 1 }),
          newerCancel: await c.ev(25805, JSON.stringify({ ver: 1, code: 'CANCELLED', message: 'newer terminal' }), { created_at: c.t + 5 }),
        };
        sent = e;
        return Object.values(e);
      },
    });
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: newPool(), signer: client, agent: hostile.pubkey, message: 'mess', terminalGrace: GRACE });
      const updates = [];
      for await (const u of run) updates.push(u);
      await hostile.published();

      const deltas = updates.filter((u) => u.type === 'delta');
      assert.deepEqual(deltas.map((u) => [u.text, u.degraded]), [['world', true], ['Hello world', false], ['Hello world!', false]]);
      // The gap is announced as its own update when it opens and when it closes, each before its delta.
      const streamed = updates.filter((u) => u.type === 'delta' || u.type === 'gap').map((u) => (u.type === 'gap' ? `gap:${u.degraded}` : u.text));
      assert.deepEqual(streamed, ['gap:true', 'world', 'gap:false', 'Hello world', 'Hello world!']);
      const rejected = updates.filter((u) => u.type === 'rejected');
      assert.deepEqual(
        rejected.map((u) => [u.code, u.eventId]),
        [
          ['UNSUPPORTED_ENCRYPTION', sent.nip04.id],
          ['INVALID_SCHEMA', sent.noEncryption.id],
          ['PARSE_ERROR', sent.garbage.id],
          ['PARSE_ERROR', sent.notJson.id],
          ['INVALID_SEQUENCE', sent.conflict.id],
          ['INVALID_SCHEMA', sent.badStatus.id],
        ],
      );
      const terminals = updates.filter((u) => u.type === 'terminal');
      assert.equal(terminals.length, 2);
      assert.equal(terminals[0].ok, true);
      assert.equal(terminals[0].text, 'Hello world!');
      assert.equal(terminals[1].ok, false);
      assert.equal(terminals[1].replaced, true);
      assert.equal(terminals[1].error.code, 'CANCELLED');
      assert.equal(updates.at(-1), terminals[1]);
      // The result is the newest terminal by created_at; nothing after the first terminal was applied.
      await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'CANCELLED' && e.eventId === sent.newerCancel.id);
      assert.ok(!updates.some((u) => u.type === 'delta' && /LATE|misrouted/.test(u.text)));
    } finally {
      hostile.close();
      client.dispose();
      other.dispose();
    }
  });

  it('a response/cancel race with equal created_at: the higher id wins; an older terminal after it changes nothing', async () => {
    let pair;
    const hostile = await hostileAgent(newPool(), {
      async race(c) {
        const response = await c.ev(25803, JSON.stringify({ ver: 1, text: 'done anyway' }));
        const cancelled = await c.ev(25805, JSON.stringify({ ver: 1, code: 'CANCELLED', message: 'cancelled' }));
        const stale = await c.ev(25803, JSON.stringify({ ver: 1, text: 'stale' }), { created_at: c.t - 10 });
        pair = { response, cancelled };
        return [response, cancelled, stale];
      },
    });
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: newPool(), signer: client, agent: hostile.pubkey, message: 'race', terminalGrace: GRACE });
      const terminals = [];
      for await (const u of run) if (u.type === 'terminal') terminals.push(u);
      await hostile.published();
      const winner = pair.response.id > pair.cancelled.id ? pair.response : pair.cancelled;
      const outcome = await run.result.then((r) => r.eventId, (e) => e.eventId);
      assert.equal(outcome, winner.id);
      assert.equal(terminals.at(-1).ok, winner === pair.response);
      assert.equal(terminals.length, winner === pair.response ? 1 : 2, 'replaced only when the cancel has the higher id');
    } finally {
      hostile.close();
      client.dispose();
    }
  });

  it('with terminalGrace: 0 the first terminal settles the run and later ones are ignored', async () => {
    const hostile = await hostileAgent(newPool(), {
      async quick(c) {
        return [
          await c.ev(25803, JSON.stringify({ ver: 1, text: 'first' })),
          await c.ev(25805, JSON.stringify({ ver: 1, code: 'INTERNAL_ERROR', message: 'second' }), { created_at: c.t + 9 }),
        ];
      },
    });
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: newPool(), signer: client, agent: hostile.pubkey, message: 'quick', terminalGrace: 0 });
      assert.equal((await run.result).text, 'first');
      await hostile.published();
      const types = [];
      for await (const u of run) types.push(u.type);
      assert.deepEqual(types, ['terminal']);
      assert.throws(() => prompt({ pool: newPool(), signer: client, agent: hostile.pubkey, message: 'x', terminalGrace: -1 }), { code: 'INVALID_ARGUMENT' });
    } finally {
      hostile.close();
      client.dispose();
    }
  });
});

describe('every error code the runtime produces reaches the client typed', () => {
  const { newPool } = useNipxxRelay();

  /** A client signer that tampers with what it signs or encrypts (a buggy or old client). */
  function tampering(base, { plaintext, tags, ciphertext } = {}) {
    return {
      getPublicKey: () => base.getPublicKey(),
      signEvent: (t) => base.signEvent(tags && t.kind === 25802 ? { ...t, tags: tags(t.tags) } : t),
      nip44Encrypt: async (pk, pt) => (ciphertext ? ciphertext : base.nip44Encrypt(pk, plaintext && pt.includes('"message"') ? plaintext : pt)),
      nip44Decrypt: (pk, ct) => base.nip44Decrypt(pk, ct),
    };
  }

  it('PARSE_ERROR, INVALID_SCHEMA (payload and max_prompt_bytes), UNSUPPORTED_ENCRYPTION, MODEL_UNAVAILABLE', async () => {
    const agentSigner = LocalSigner.generate();
    const base = LocalSigner.generate();
    const agent = await serveAgent({
      signer: agentSigner,
      pool: newPool(),
      info: { tool_names: [], max_prompt_bytes: 16 },
      async *handler() {
        throw new AgentError('MODEL_UNAVAILABLE', 'the provider is down', { retryAfter: 30, details: { provider: 'p1' } });
      },
    });
    const pool = newPool();
    const ask = (signer, message = 'hi') => prompt({ pool, signer, agent: agent.pubkey, message });
    const code = (run) => run.result.then(() => null, (e) => (e instanceof AgentError ? e : null));
    try {
      const parse = await code(ask(tampering(base, { ciphertext: 'not nip44 at all' })));
      assert.equal(parse?.code, 'PARSE_ERROR');
      const notJson = await code(ask(tampering(base, { plaintext: '{"ver":1,"message":' })));
      assert.equal(notJson?.code, 'PARSE_ERROR');
      const schema = await code(ask(tampering(base, { plaintext: '{"ver":1,"message":"x","thinking":"extreme"}' })));
      assert.equal(schema?.code, 'INVALID_SCHEMA');
      const big = await code(ask(base, 'x'.repeat(17)));
      assert.equal(big?.code, 'INVALID_SCHEMA');
      assert.match(big.message, /max_prompt_bytes/);
      const enc = await code(ask(tampering(base, { tags: (t) => t.map((x) => (x[0] === 'encryption' ? ['encryption', 'nip04'] : x)) })));
      assert.equal(enc?.code, 'UNSUPPORTED_ENCRYPTION');
      const down = await code(ask(base));
      assert.equal(down?.code, 'MODEL_UNAVAILABLE');
      assert.equal(down.retryAfter, 30);
      assert.equal(down.message, 'the provider is down');
    } finally {
      await agent.stop();
      agentSigner.dispose();
      base.dispose();
    }
  });
});
