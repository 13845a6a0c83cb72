// NIP-XX relay-side session discovery: fetchSessionRuns follows the seed's "Session recovery
// recipe" (prompts by #s, terminals by #e root) on a real dev relay that stores the seed's durable
// kinds (25802, 25803, 25805), with a real agent, and merges it with the local run store. Also the
// default terminal grace (every run, so a newer CANCELLED of a response/cancel race still wins).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { startDevRelay } from '../support/relays.js';
import { useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, serveAgent, prompt, resumeRun, listSessions, fetchSessionRuns, fetchSessions, MemoryRunStore, CANCEL_RACE_GRACE, TERMINAL_GRACE, nipxx } = nostr;

const INFO = { supported_models: ['m1'], default_model: 'm1', tool_names: [] };
const DURABLE = [25802, 25803, 25805];

function gate() {
  let open;
  const opened = new Promise((r) => (open = r));
  return { opened, open };
}

describe('NIP-XX relay-side session discovery', () => {
  const env = useNipxxRelay({ relayOptions: { memory: true, storeKinds: DURABLE } }); // stores the durable kinds
  let plain; // an ordinary relay: drops 20000-29999
  const newPool = (url = env.relay.url) => env.newPool({ relays: [url] });
  before(async () => {
    plain = await startDevRelay({ memory: true });
  });
  after(() => plain.close()); // after useNipxxRelay's: the pools on it are closed by then

  async function withAgent(handler, fn, url = env.relay.url) {
    const signer = LocalSigner.generate();
    const agent = await serveAgent({ signer, pool: newPool(url), info: INFO, handler });
    try {
      await fn(agent, signer);
    } finally {
      await agent.stop();
      signer.dispose();
    }
  }

  it("finds a session's runs on the relays by #s and #e, fills an empty store, and resumeRun works from it", async () => {
    const client = LocalSigner.generate();
    try {
      await withAgent(
        async function* ({ message }) {
          yield `re: ${message}`;
        },
        async (agent) => {
          const pool = newPool();
          const first = await prompt({ pool, signer: client, agent: agent.pubkey, message: 'one' }).result;
          const second = await prompt({ pool, signer: client, agent: agent.pubkey, message: 'two' }).result;
          const other = prompt({ pool, signer: client, agent: agent.pubkey, message: 'elsewhere', session: 'session:other' });
          await other.result;

          // A new device: nothing stored locally. First the sessions (from the prompts on the relay)...
          const store = new MemoryRunStore();
          const listed = await fetchSessions({ pool: newPool(), signer: client, agent: agent.pubkey, store });
          const byId = Object.fromEntries(listed.map((x) => [x.id, x]));
          assert.equal(listed.length, 2);
          const mine = byId[`sender:${client.publicKey}`];
          assert.deepEqual([mine.runs, mine.source, mine.agent, mine.client], [2, 'relay', agent.pubkey, client.publicKey]);
          // The title is the first prompt's message (both prompts may share one second: either).
          assert.ok(['one', 'two'].includes(mine.title), mine.title);
          assert.deepEqual([byId['session:other'].runs, byId['session:other'].title, byId['session:other'].source], [1, 'elsewhere', 'relay']);
          const nobody = LocalSigner.generate();
          assert.deepEqual(await fetchSessions({ pool, signer: client, agent: nobody.publicKey }), []);
          nobody.dispose();
          // ...then one session's runs. The default session covers prompts without `s`.
          const runs = await fetchSessionRuns({ pool: newPool(), signer: client, agent: agent.pubkey, store });
          // Oldest first by (created_at, id): the two prompts may share one second, so their order is by id then.
          for (let i = 1; i < runs.length; i++)
            assert.ok(runs[i - 1].created_at < runs[i].created_at || (runs[i - 1].created_at === runs[i].created_at && runs[i - 1].id < runs[i].id));
          const byMessage = Object.fromEntries(runs.map((r) => [r.message, r]));
          assert.deepEqual(Object.keys(byMessage).sort(), ['one', 'two']);
          for (const r of runs) {
            assert.equal(r.source, 'relay');
            assert.equal(r.state, 'done');
            assert.equal(r.terminal.text, `re: ${r.message}`);
            assert.equal(r.session, `sender:${client.publicKey}`);
            assert.equal(r.sessionTag, null);
            assert.ok(nostr.verifyEvent(r.prompt));
          }
          assert.equal(byMessage.one.terminal.eventId, first.eventId);
          assert.equal(byMessage.two.terminal.eventId, second.eventId);

          // The store now holds them: listSessions sees the session, resumeRun replays the terminal.
          const sessions = await listSessions(store);
          assert.deepEqual(sessions.map((s) => [s.id, s.runs]), [[`sender:${client.publicKey}`, 2]]);
          const again = await resumeRun({ pool, signer: client, store, id: byMessage.two.id });
          assert.equal((await again.result).text, 're: two');

          // An explicit session: the seed's {"kinds":[25802],"#s":[..],"#p":[agent]}.
          const tagged = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey, session: 'session:other' });
          assert.deepEqual(tagged.map((r) => [r.id, r.sessionTag, r.terminal.text, r.source]), [[other.id, 'session:other', 're: elsewhere', 'relay']]);

          // Asked again with the filled store: found in both.
          const both = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey, store });
          assert.deepEqual(both.map((r) => r.source), ['both', 'both']);
          const mixed = await fetchSessions({ pool, signer: client, store });
          assert.deepEqual(Object.fromEntries(mixed.map((x) => [x.id, x.source])), { [`sender:${client.publicKey}`]: 'both', 'session:other': 'relay' });
          // Someone else's view of the same agent: none of this client's runs.
          const stranger = LocalSigner.generate();
          assert.deepEqual(await fetchSessionRuns({ pool, signer: stranger, agent: agent.pubkey, session: `sender:${client.publicKey}` }), []);
          stranger.dispose();
        },
      );
    } finally {
      client.dispose();
    }
  });

  it('a stored open run gets its terminal from the relay; the newest terminal on the relay wins; forged ones are ignored', async () => {
    const client = LocalSigner.generate();
    const mallory = LocalSigner.generate();
    const release = gate();
    try {
      await withAgent(
        async function* (c) {
          yield 'partial ';
          await release.opened;
          if (!c.signal.aborted) yield 'and the rest';
        },
        async (agent, agentSigner) => {
          // The client leaves mid-run: its record stays open in its store.
          const store = new MemoryRunStore();
          const gone = newPool();
          const run = prompt({ pool: gone, signer: client, store, agent: agent.pubkey, message: 'long one' });
          for await (const u of run) if (u.type === 'delta') break;
          await gone.close();
          await assert.rejects(run.result, { code: 'POOL_CLOSED' });
          assert.equal((await store.getRun(run.id)).state, 'open');
          release.open();
          // Wait until the agent's response is on the relay.
          const pool = newPool();
          for (let i = 0; i < 100; i++) {
            const got = await pool.query({ kinds: [25803], '#e': [run.id] }, { maxWait: 1000 });
            if (got.length) break;
            await new Promise((r) => setTimeout(r, 50));
          }

          const [found] = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey, store });
          assert.equal(found.id, run.id);
          assert.equal(found.source, 'both');
          assert.equal(found.state, 'done');
          assert.equal(found.terminal.text, 'partial and the rest');
          const rec = await store.getRun(run.id);
          assert.equal(rec.state, 'done');
          assert.equal(rec.events.at(-1).event.kind, 25803);
          assert.equal((await (await resumeRun({ pool, signer: client, store, id: run.id })).result).text, 'partial and the rest');

          // A later terminal by the agent (a broken agent, or a race) wins by (created_at, id);
          // a terminal signed by someone else for the same run is not the agent's and is ignored.
          const tags = [['p', client.publicKey], ['e', run.id, '', 'root'], ['encryption', 'nip44']];
          const newer = await agentSigner.signEvent({
            kind: 25805,
            created_at: found.terminal.createdAt + 10,
            tags,
            content: await agentSigner.nip44Encrypt(client.publicKey, JSON.stringify({ ver: 1, code: 'CANCELLED', message: 'newer' })),
          });
          const forged = await mallory.signEvent({
            kind: 25803,
            created_at: found.terminal.createdAt + 20,
            tags,
            content: await mallory.nip44Encrypt(client.publicKey, JSON.stringify({ ver: 1, text: 'forged' })),
          });
          for (const e of [newer, forged]) assert.ok((await pool.publish(e)).some((r) => r.status === 'accepted'));
          const fresh = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey });
          assert.equal(fresh.length, 1);
          assert.equal(fresh[0].terminal.ok, false);
          assert.equal(fresh[0].terminal.code, 'CANCELLED');
          assert.equal(fresh[0].terminal.eventId, newer.id);
          // The stored copy is updated to the newer terminal too.
          const merged = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey, store });
          assert.equal(merged[0].terminal.eventId, newer.id);
          assert.equal((await store.getRun(run.id)).terminal.code, 'CANCELLED');
        },
      );
    } finally {
      client.dispose();
      mallory.dispose();
    }
  });

  it('on an ordinary relay (ephemeral kinds dropped) only the local store knows the runs', async () => {
    const client = LocalSigner.generate();
    try {
      await withAgent(
        async function* () {
          yield 'ok';
        },
        async (agent) => {
          const pool = newPool(plain.url);
          const store = new MemoryRunStore();
          const run = prompt({ pool, signer: client, store, agent: agent.pubkey, message: 'kept locally' });
          assert.equal((await run.result).text, 'ok');
          assert.deepEqual(await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey }), []);
          const runs = await fetchSessionRuns({ pool, signer: client, agent: agent.pubkey, store });
          assert.deepEqual(runs.map((r) => [r.id, r.source, r.state]), [[run.id, 'store', 'done']]);
        },
        plain.url,
      );
    } finally {
      client.dispose();
    }
  });

  it('a session of 150 runs is found whole: terminals are asked for in chunks of prompt ids', async () => {
    const client = LocalSigner.generate();
    const agentKey = LocalSigner.generate();
    const pool = newPool();
    try {
      const N = 150;
      const expected = new Map();
      const events = [];
      const at = Math.floor(Date.now() / 1000) - N;
      for (let i = 0; i < N; i++) {
        const prompt = await client.signEvent({
          kind: 25802,
          created_at: at + i,
          tags: [['p', agentKey.publicKey], ['encryption', 'nip44']],
          content: await client.nip44Encrypt(agentKey.publicKey, JSON.stringify({ ver: 1, message: `m${i}` })),
        });
        const answer = await agentKey.signEvent({
          kind: 25803,
          created_at: at + i,
          tags: [['p', client.publicKey], ['e', prompt.id, '', 'root'], ['encryption', 'nip44']],
          content: await agentKey.nip44Encrypt(client.publicKey, JSON.stringify({ ver: 1, text: `r${i}` })),
        });
        expected.set(prompt.id, `r${i}`);
        events.push(prompt, answer);
      }
      for (const e of events) assert.ok((await pool.publish(e)).some((r) => r.status === 'accepted'));
      const runs = await fetchSessionRuns({ pool, signer: client, agent: agentKey.publicKey });
      assert.equal(runs.length, N);
      for (const r of runs) assert.equal(r.terminal?.text, expected.get(r.id), r.message);
      assert.deepEqual(runs.map((r) => r.message), Array.from({ length: N }, (_, i) => `m${i}`));
    } finally {
      client.dispose();
      agentKey.dispose();
    }
  });

  it('fetchSessionRuns and fetchSessions reject bad arguments with INVALID_ARGUMENT', async () => {
    const client = LocalSigner.generate();
    const pool = newPool();
    try {
      await assert.rejects(fetchSessionRuns({ signer: client, agent: client.publicKey }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessionRuns({ pool, agent: client.publicKey }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessionRuns({ pool, signer: client, agent: 'npub-nope' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessionRuns({ pool, signer: client, agent: client.publicKey, session: '' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessionRuns({ pool, signer: client, agent: client.publicKey, store: {} }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessions({ signer: client }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessions({ pool, signer: client, agent: 'x' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(fetchSessions({ pool, signer: client, store: { putRun() {} } }), { code: 'INVALID_ARGUMENT' });
    } finally {
      client.dispose();
    }
  });

  it('terminal grace by default for every run (TERMINAL_GRACE, the core default); after a cancel a newer CANCELLED still wins', async () => {
    assert.equal(TERMINAL_GRACE, 1500);
    assert.equal(CANCEL_RACE_GRACE, TERMINAL_GRACE);
    const machine = new nipxx.ClientRun({ promptId: '1'.repeat(64), agentPubkey: 'a'.repeat(64), clientPubkey: 'c'.repeat(64) });
    assert.equal(machine.terminalGrace, TERMINAL_GRACE, "the JS constant is the core's default");
    machine.dispose();
    const client = LocalSigner.generate();
    try {
      // A broken agent answers with a response, then (1 s later by created_at) a CANCELLED.
      const agentSigner = LocalSigner.generate();
      const pool = newPool();
      const sub = pool.subscribe([{ kinds: [25802, 25806], '#p': [agentSigner.publicKey] }], {
        onevent: async (e) => {
          if (e.kind !== 25806) return;
          const id = e.tags.find((t) => t[0] === 'e')[1];
          const tags = [['p', client.publicKey], ['e', id, '', 'root'], ['encryption', 'nip44']];
          const at = Math.floor(Date.now() / 1000);
          const send = async (kind, body, created_at) =>
            pool.publish(await agentSigner.signEvent({ kind, created_at, tags, content: await agentSigner.nip44Encrypt(client.publicKey, JSON.stringify(body)) }));
          await send(25803, { ver: 1, text: 'finished anyway' }, at);
          await send(25805, { ver: 1, code: 'CANCELLED', message: 'cancelled' }, at + 1);
        },
      });
      // An ordinary run with one terminal: it is shown once and is final.
      await withAgent(
        async function* () {
          yield 'hi';
        },
        async (agent) => {
          const run = prompt({ pool, signer: client, agent: agent.pubkey, message: 'plain' });
          const types = [];
          for await (const u of run) types.push(u.type + (u.replaced ? ':replaced' : ''));
          assert.equal(types.at(-1), 'terminal');
          assert.equal(types.filter((t) => t.startsWith('terminal')).length, 1);
          assert.equal((await run.result).text, 'hi');
        },
      );
      // The race: the response shows first, the newer CANCELLED replaces it within the grace.
      const run = prompt({ pool, signer: client, agent: agentSigner.publicKey, message: 'race' });
      assert.equal(await run.sent, true);
      assert.equal(await run.cancel(), true);
      const terminals = [];
      for await (const u of run) if (u.type === 'terminal') terminals.push(u);
      assert.equal(terminals[0].ok, true);
      assert.equal(terminals.at(-1).ok, false);
      assert.equal(terminals.at(-1).replaced, true);
      await assert.rejects(run.result, { code: 'CANCELLED', message: 'cancelled' });
      sub.close();
      agentSigner.dispose();
    } finally {
      client.dispose();
    }
  });
});
