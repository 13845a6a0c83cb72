// NIP-XX privacy profiles end to end over a real dev relay: default (NIP-44 only: kinds, authors
// and tags visible to the relay) and privacy-first (every run event a NIP-59 gift wrap, tool
// telemetry without arguments or output), chosen by ai.info supports_nip59 and the client's wish.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, sleep } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, serveAgent, prompt, resumeRun, MemoryRunStore, AgentError } = nostr;

const NIPXX_KINDS = [25800, 25801, 25802, 25803, 25804, 25805, 25806];

describe('NIP-XX privacy profiles over a real relay', () => {
  const { newPool } = useNipxxRelay();

  /** Everything the relay forwards while `fn` runs (what a relay operator or an eavesdropper sees). */
  async function watch(fn) {
    const observer = newPool();
    const seen = [];
    let live = false; // stored wraps of earlier tests are replayed before EOSE: not counted
    const sub = observer.subscribe([{ kinds: [...NIPXX_KINDS, 1059] }], { onevent: (e) => live && seen.push(e), oneose: () => (live = true) });
    while (!live) await sleep(20);
    try {
      await fn();
      await sleep(200);
    } finally {
      sub.close();
    }
    return seen;
  }

  async function withAgent(info, handler, fn) {
    const agentSigner = LocalSigner.generate();
    const client = LocalSigner.generate();
    const agent = await serveAgent({ signer: agentSigner, pool: newPool(), info: { tool_names: ['calc'], ...info }, handler });
    try {
      await fn({ agent, client, pool: newPool() });
    } finally {
      await agent.stop();
      agentSigner.dispose();
      client.dispose();
    }
  }

  const toolHandler = async function* () {
    yield { type: 'status', state: 'tool_use' };
    yield { type: 'tool_call', name: 'calc', phase: 'start', arguments: { expr: 'secret * 2' } };
    yield { type: 'tool_call', name: 'calc', phase: 'result', output: { value: 'private' }, success: true };
    yield 'the answer';
  };

  it('privacy-first: every run event is a gift wrap; the relay sees no NIP-XX kind, author or e tag; tools disclose no arguments or output', async () => {
    await withAgent({ supports_nip59: true }, toolHandler, async ({ agent, client, pool }) => {
      let run;
      const updates = [];
      const seen = await watch(async () => {
        run = prompt({ pool, signer: client, agent: agent.pubkey, message: 'private question', privacy: 'nip59' });
        for await (const u of run) updates.push(u);
      });
      assert.equal(run.privacy, 'nip59');
      assert.equal((await run.result).text, 'the answer');
      const calls = updates.filter((u) => u.type === 'tool_call');
      assert.deepEqual(calls.map((c) => [c.name, c.phase]), [['calc', 'start'], ['calc', 'result']]);
      for (const c of calls) {
        assert.equal(c.arguments, undefined);
        assert.equal(c.output, undefined);
      }
      // On the wire: only kind 1059, signed by one-time keys, tagged with the recipient only.
      assert.deepEqual(seen.filter((e) => e.kind !== 1059), []);
      const wraps = seen.filter((e) => e.kind === 1059);
      assert.equal(wraps.length, 6, 'prompt, status, 2 tool calls, delta, response');
      for (const w of wraps) {
        assert.notEqual(w.pubkey, agent.pubkey);
        assert.notEqual(w.pubkey, client.publicKey);
        assert.deepEqual(w.tags.map((t) => t[0]), ['p']);
        assert.ok(!w.content.includes(run.id));
      }
      assert.equal(wraps.filter((w) => w.tags[0][1] === agent.pubkey).length, 1);
      assert.equal(new Set(wraps.map((w) => w.pubkey)).size, 6, 'a fresh key per wrap');
      // The run id is the rumor's id: the client opens the agent's wraps and finds it in e root.
      const rumor = await nostr.nip59.unwrapEvent(wraps.find((w) => w.tags[0][1] === client.publicKey), client);
      assert.deepEqual(rumor.tags.find((t) => t[0] === 'e'), ['e', run.id, '', 'root']);
      assert.deepEqual(rumor.tags.find((t) => t[0] === 'encryption'), ['encryption', 'nip44']);
    });
  });

  it('default profile with the same agent: NIP-44 events, metadata visible, tool arguments and output sent', async () => {
    await withAgent({ supports_nip59: true }, toolHandler, async ({ agent, client, pool }) => {
      let run;
      const updates = [];
      const seen = await watch(async () => {
        run = prompt({ pool, signer: client, agent: agent.pubkey, message: 'plain question' });
        for await (const u of run) updates.push(u);
      });
      assert.equal(run.privacy, 'default');
      assert.equal((await run.result).text, 'the answer');
      assert.deepEqual(updates.find((u) => u.type === 'tool_call').arguments, { expr: 'secret * 2' });
      assert.deepEqual(seen.filter((e) => e.kind === 1059), []);
      assert.deepEqual(seen.map((e) => e.kind).sort(), [25800, 25801, 25802, 25803, 25804, 25804]);
      assert.equal(seen.find((e) => e.kind === 25802).pubkey, client.publicKey);
    });
  });

  it("privacy: 'auto' follows ai.info supports_nip59; 'nip59' with an agent that does not support it fails UNSUPPORTED_FEATURE", async () => {
    await withAgent({ supports_nip59: true }, async function* () { yield 'ok'; }, async ({ agent, client, pool }) => {
      const run = prompt({ pool, signer: client, agent: agent.pubkey, message: 'hi', privacy: 'auto' });
      assert.equal((await run.result).text, 'ok');
      assert.equal(run.privacy, 'nip59');
    });
    await withAgent({ supports_nip59: false }, async function* () { yield 'ok'; }, async ({ agent, client, pool }) => {
      const auto = prompt({ pool, signer: client, agent: agent.pubkey, message: 'hi', privacy: 'auto' });
      assert.equal((await auto.result).text, 'ok');
      assert.equal(auto.privacy, 'default');
      const forced = prompt({ pool, signer: client, agent: agent.pubkey, message: 'hi', privacy: 'nip59' });
      await assert.rejects(forced.result, { code: 'UNSUPPORTED_FEATURE' });
      assert.equal(await forced.sent, false);
      assert.throws(() => prompt({ pool, signer: client, agent: agent.pubkey, message: 'hi', privacy: 'tor' }), { code: 'INVALID_ARGUMENT' });
    });
  });

  it('privacy-first: cancel mid-stream gives one CANCELLED; admission errors come back wrapped', async () => {
    await withAgent(
      { supports_nip59: true, supported_models: ['m1'], default_model: 'm1' },
      async function* (c) {
        yield 'partial';
        await new Promise((resolve) => c.signal.addEventListener('abort', resolve, { once: true }));
      },
      async ({ agent, client, pool }) => {
        const run = prompt({ pool, signer: client, agent: agent.pubkey, message: 'long', privacy: 'nip59' });
        for await (const u of run) if (u.type === 'delta') assert.equal(await run.cancel(), true);
        await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'CANCELLED');
        const bad = prompt({ pool, signer: client, agent: agent.pubkey, message: 'x', model: 'nope', privacy: 'nip59' });
        await assert.rejects(bad.result, { code: 'UNSUPPORTED_MODEL' });
      },
    );
  });

  it('privacy-first: a wrap is opened once per signer, though every run replays the last two days of wraps', async () => {
    await withAgent({ supports_nip59: true }, async function* () { yield 'ok'; }, async ({ agent, client, pool }) => {
      let decrypts = 0;
      // A Signer that is not a LocalSigner (as a NIP-07 extension would be), counting its decryptions.
      const counting = {
        getPublicKey: () => client.getPublicKey(),
        signEvent: (t) => client.signEvent(t),
        nip44Encrypt: (pk, pt) => client.nip44Encrypt(pk, pt),
        nip44Decrypt: (pk, ct) => (decrypts++, client.nip44Decrypt(pk, ct)),
      };
      const perRun = [];
      for (let i = 0; i < 3; i++) {
        const before = decrypts;
        const run = prompt({ pool, signer: counting, agent: agent.pubkey, message: `run ${i}`, privacy: 'nip59' });
        assert.equal((await run.result).text, 'ok');
        perRun.push(decrypts - before);
      }
      // Each run: its own 2 wraps (delta, response), 2 decryptions each (the wrap, the seal: the
      // rumor holds the payload itself); the earlier runs' wraps, replayed by the relay, are not
      // opened again.
      assert.deepEqual(perRun, [4, 4, 4]);
    });
  });

  it('privacy-first runs are recoverable from the relay: wraps are stored, so a client away for the whole run resumes it', async () => {
    await withAgent({ supports_nip59: true }, async function* () { yield 'while '; yield 'you were away'; }, async ({ agent, client }) => {
      const store = new MemoryRunStore();
      const first = newPool();
      const run = prompt({ pool: first, signer: client, store, agent: agent.pubkey, message: 'hello?', privacy: 'nip59' });
      assert.equal(await run.sent, true);
      await first.close(); // gone before any answer
      await assert.rejects(run.result, { code: 'POOL_CLOSED' });
      await sleep(300); // the agent answers to nobody
      assert.equal(agent.active, 0);
      const back = await resumeRun({ pool: newPool(), signer: client, store, id: run.id });
      assert.equal(back.privacy, 'nip59');
      assert.equal((await back.result).text, 'while you were away');
      assert.equal((await store.getRun(run.id)).state, 'done');
    });
  });
});
