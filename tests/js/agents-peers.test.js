// NIP-XX against peers nobody here wrote: agents and clients built by hand on nostr-tools
// (finalizeEvent, nip44 v2, nip59, SimplePool) over a real dev relay, talking to our runtime and
// client. Each test is a defect our client and agent never showed while they only talked to each
// other: text starting with "event=", two terminals arriving oldest first, prompts of the default
// session without an `s` tag, the privacy-first rumor's content, stale prompts, RATE_LIMIT's
// retry_after at the command line. Plus the verbatim property through the real runtime and client.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { SimplePool, useWebSocketImplementation } from 'nostr-tools/pool';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { v2 as nt44 } from 'nostr-tools/nip44';
import * as nt59 from 'nostr-tools/nip59';
import { nostr, prng, until } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';
import { cli, cliEnv, jsonLines } from './cli-helpers.js';

const { LocalSigner, serveAgent, prompt, AgentError, nipxx, TERMINAL_GRACE } = nostr;

useWebSocketImplementation(WebSocket);

const nowS = () => Math.floor(Date.now() / 1000);
const RUN_KINDS = [25800, 25801, 25803, 25804, 25805];
// Every run ends, also where a defect would leave it without a terminal (RUN_INCOMPLETE).
const IDLE = 15_000;

/** A nostr-tools identity: encrypts, decrypts and signs the way any nostr-tools app does. */
function ntKeys() {
  const sk = generateSecretKey();
  const pk = getPublicKey(sk);
  return {
    sk,
    pk,
    encrypt: (to, text) => nt44.encrypt(text, nt44.utils.getConversationKey(sk, to)),
    decrypt: (from, payload) => nt44.decrypt(payload, nt44.utils.getConversationKey(sk, from)),
    sign: (template) => finalizeEvent({ created_at: nowS(), ...template }, sk),
  };
}

describe('NIP-XX with peers built on nostr-tools, over a real relay', () => {
  // Stores the seed's durable kinds (prompts and terminals), as its recovery recipe needs.
  const env = useNipxxRelay({ relayOptions: { memory: true, storeKinds: [25802, 25803, 25805] } });
  const ntPools = [];
  const closers = [];
  after(() => {
    for (const c of closers) c();
    for (const p of ntPools) p.destroy();
  });
  function ntPool() {
    const p = new SimplePool();
    ntPools.push(p);
    return p;
  }

  /**
   * A NIP-XX agent written on nostr-tools: for each prompt (NIP-44 kind 25802 to it) calls
   * `answer({ prompt, payload, reply })`; reply(kind, payload, { created_at }) publishes one run
   * event with the seed's tags.
   */
  function ntAgent(answer) {
    const keys = ntKeys();
    const pool = ntPool();
    const url = env.relay.url;
    const sub = pool.subscribe([url], { kinds: [25802], '#p': [keys.pk] }, {
      onevent: async (p) => {
        const payload = JSON.parse(keys.decrypt(p.pubkey, p.content));
        const reply = (kind, body, { created_at = nowS() } = {}) =>
          Promise.all(
            pool.publish(
              [url],
              keys.sign({
                kind,
                created_at,
                tags: [['p', p.pubkey], ['e', p.id, '', 'root'], ['encryption', 'nip44']],
                content: keys.encrypt(p.pubkey, JSON.stringify({ ver: 1, ...body })),
              }),
            ),
          );
        await answer({ prompt: p, payload, reply });
      },
    });
    closers.push(() => sub.close());
    return keys;
  }

  async function withOurAgent(options, fn) {
    const signer = LocalSigner.generate();
    const reported = [];
    const agent = await serveAgent({ signer, pool: env.newPool(), onError: (e) => reported.push(e), ...options });
    try {
      await fn(agent, reported);
    } finally {
      await agent.stop();
      signer.dispose();
    }
  }

  it('text that starts with event= reaches the client as it is; a whole envelope of the seed is unwrapped', async () => {
    const texts = [
      'event=click fired twice\n',
      'event=delta|phase=update|text=hi',
      'event=final|phase=end|text=x|ts=1',
      // The seed's own ai.delta example: a whole envelope, read as one.
      'event=delta|mode=thinking|status=update|phase=update|block=Looking%20up%20latest%20pricing|text=Looking%20up%20latest%20pricing|run_id=abc123|session_id=sender%3Aabc|ts=1771402418',
      'event=delta|phase=update|text=%20and%20done|ts=1771402419',
    ];
    const agent = ntAgent(async ({ reply }) => {
      for (let seq = 0; seq < texts.length; seq++) await reply(25801, { text: texts[seq], seq });
      await reply(25803, { text: 'event=tool call ended' });
    });
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: env.newPool(), signer: client, agent: agent.pk, message: 'go', idleTimeout: IDLE });
      const updates = [];
      for await (const u of run) updates.push(u);
      assert.deepEqual(updates.filter((u) => u.type === 'rejected'), []);
      const deltas = updates.filter((u) => u.type === 'delta');
      assert.equal(deltas.at(-1).text, `${texts[0]}${texts[1]}${texts[2]} and done`);
      assert.equal(deltas[3].thinking, 'Looking up latest pricing');
      assert.equal((await run.result).text, 'event=tool call ended');
    } finally {
      client.dispose();
    }
  });

  it('any string a handler yields arrives verbatim at the client, through the real runtime and client', async () => {
    const rand = prng(17);
    const pieces = ['event=', 'delta', 'final', '|', 'phase=', 'update', 'end', 'text=', 'block=', 'ts=', '1771402400', '%', '%20', '%zz', '%E2%82%AC', '=', ' ', 'mode=thinking', '|event=delta'];
    const scalar = () => {
      const c = Math.floor(rand() * (rand() < 0.7 ? 0x80 : 0x110000));
      return c >= 0xd800 && c <= 0xdfff ? '\ufffd' : String.fromCodePoint(c || 0x30); // lone surrogates are no text UTF-8 can carry
    };
    const envelope = () => {
      const f = [`event=${['delta', 'delta', 'final', 'tool'][Math.floor(rand() * 4)]}`, `phase=${rand() < 0.5 ? 'end' : 'update'}`, `text=${encodeURIComponent(scalar() + scalar())}`];
      if (rand() < 0.8) f.push(`ts=${Math.floor(rand() * 2e9)}`);
      return f.sort(() => rand() - 0.5).join('|');
    };
    const text = () => {
      const r = rand();
      if (r < 0.3) return envelope();
      let s = r < 0.65 ? 'event=' : '';
      for (let i = Math.floor(rand() * 10); i > 0; i--) s += rand() < 0.5 ? pieces[Math.floor(rand() * pieces.length)] : scalar();
      return s;
    };
    const runs = Array.from({ length: 6 }, () => Array.from({ length: 10 }, text));
    await withOurAgent(
      {
        info: { tool_names: [] },
        async *handler({ message }) {
          yield* runs[Number(message)];
        },
      },
      async (agent) => {
        const client = LocalSigner.generate();
        // What travels: the deltas' text fields as the client decrypts them off the relay.
        const wire = [];
        const watch = env.newPool();
        const sub = watch.subscribe([{ kinds: [25801], '#p': [client.publicKey] }], {
          onevent: async (e) => wire.push(JSON.parse(await client.nip44Decrypt(e.pubkey, e.content)).text),
        });
        try {
          for (let i = 0; i < runs.length; i++) {
            const run = prompt({ pool: env.newPool(), signer: client, agent: agent.pubkey, message: String(i), terminalGrace: 0, idleTimeout: IDLE });
            const seen = [];
            for await (const u of run) if (u.type === 'delta') seen.push(u);
            const expected = runs[i].filter((t) => t !== '');
            assert.deepEqual(seen.map((u) => u.text), expected.map((_, j) => expected.slice(0, j + 1).join('')), `run ${i}`);
            assert.ok(seen.every((u) => u.thinking === undefined));
            assert.equal((await run.result).text, runs[i].join(''), `run ${i}`);
          }
          // Some yielded texts were whole envelopes of the delta kind: they travelled inside one.
          const yielded = new Set(runs.flat());
          await until(() => wire.length === runs.flat().filter((t) => t !== '').length, 'every delta at the watcher');
          const escaped = wire.filter((t) => !yielded.has(t));
          assert.ok(escaped.length >= 3, `${escaped.length} escaped`);
          assert.ok(escaped.every((t) => /^event=delta\|phase=update\|text=[^|]*\|ts=\d+$/.test(t)), escaped.join('\n'));
        } finally {
          sub.close();
          client.dispose();
        }
      },
    );
  });

  it('two terminals arriving oldest first, no local cancel: by default the newer one wins and the run reports the replaced one', async () => {
    assert.equal(TERMINAL_GRACE, 1500);
    const agent = ntAgent(async ({ reply }) => {
      const t = nowS();
      await reply(25803, { text: 'first answer' }, { created_at: t });
      // Another device of the user cancelled; a second instance of the agent confirmed it later.
      await reply(25805, { code: 'CANCELLED', message: 'cancelled elsewhere' }, { created_at: t + 1 });
    });
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: env.newPool(), signer: client, agent: agent.pk, message: 'hi', idleTimeout: IDLE });
      const terminals = [];
      for await (const u of run) if (u.type === 'terminal') terminals.push(u);
      assert.equal(terminals.length, 2);
      assert.equal(terminals[0].ok, true);
      assert.equal(terminals[0].text, 'first answer');
      assert.equal(terminals[1].ok, false);
      assert.equal(terminals[1].replaced, true);
      assert.equal(terminals[1].replacedEventId, terminals[0].eventId);
      const err = await run.result.then(() => null, (e) => e);
      assert.ok(err instanceof AgentError, String(err));
      assert.equal(err.code, 'CANCELLED');
      assert.equal(err.eventId, terminals[1].error.eventId);
    } finally {
      client.dispose();
    }
  });

  it("prompts of the default session carry s=sender:<client>: the seed's recovery filter run by nostr-tools finds them", async () => {
    const agent = ntAgent(async ({ reply }) => reply(25803, { text: 'ok' }));
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: env.newPool(), signer: client, agent: agent.pk, message: 'find me', terminalGrace: 0, idleTimeout: IDLE });
      assert.equal((await run.result).text, 'ok');
      const other = ntPool();
      // The seed's "Session recovery recipe", verbatim: {"kinds":[25802],"#s":["sender:<client-pubkey>"],"#p":["<agent-pubkey>"]}
      const found = await other.querySync([env.relay.url], { kinds: [25802], '#s': [`sender:${client.publicKey}`], '#p': [agent.pk] });
      assert.deepEqual(found.map((e) => e.id), [run.id]);
      assert.equal(JSON.parse(agent.decrypt(client.publicKey, found[0].content)).message, 'find me');
      // ... and then "Resume a run": {"#e":["<prompt-id>"], "authors":["<agent-pubkey>"], "kinds":[...]}
      const terminals = await other.querySync([env.relay.url], { '#e': [run.id], authors: [agent.pk], kinds: RUN_KINDS });
      assert.deepEqual(terminals.map((e) => e.kind), [25803]);
      // A named session is tagged as it was named; the cancel carries the same s.
      const named = prompt({ pool: env.newPool(), signer: client, agent: agent.pk, message: 'named', session: 'session:trip', terminalGrace: 0, idleTimeout: IDLE });
      await named.result;
      const byName = await other.querySync([env.relay.url], { kinds: [25802], '#s': ['session:trip'], '#p': [agent.pk] });
      assert.deepEqual(byName.map((e) => e.id), [named.id]);
    } finally {
      client.dispose();
    }
  });

  it('privacy-first: a nostr-tools peer that puts the payload in the rumor gets its answer, in the same form', async () => {
    const peer = ntKeys();
    await withOurAgent(
      {
        info: { tool_names: [], supports_nip59: true },
        async *handler({ message }) {
          yield `you said: ${message}`;
        },
      },
      async (agent) => {
        const pool = ntPool();
        const answers = [];
        const sub = pool.subscribe([env.relay.url], { kinds: [1059], '#p': [peer.pk] }, { onevent: (w) => answers.push(nt59.unwrapEvent(w, peer.sk)) });
        closers.push(() => sub.close());
        // The NIP-59 convention (NIP-17 too): the rumor's content is the payload; the seal encrypts it.
        const wrap = nt59.wrapEvent(
          { kind: 25802, tags: [['p', agent.pubkey], ['s', `sender:${peer.pk}`], ['encryption', 'nip44']], content: JSON.stringify({ ver: 1, message: 'plain rumor' }) },
          peer.sk,
          agent.pubkey,
        );
        await Promise.all(pool.publish([env.relay.url], wrap));
        await until(() => answers.some((r) => r.kind === 25803 || r.kind === 25805), 'a terminal for the peer');
        const terminal = answers.find((r) => r.kind === 25803 || r.kind === 25805);
        assert.equal(terminal.kind, 25803, terminal.content);
        const payload = JSON.parse(terminal.content); // the payload itself, no second decryption
        assert.equal(payload.text, 'you said: plain rumor');
        assert.equal(nipxx.validatePayload(25803, terminal.content).ok, true);
        assert.deepEqual(terminal.tags.find((t) => t[0] === 'encryption'), ['encryption', 'nip44']);
        assert.ok(answers.filter((r) => r.kind === 25801).every((r) => JSON.parse(r.content).ver === 1));

        // A peer that NIP-44-encrypts the rumor's content as well (our earlier form) is answered
        // too, in its own form.
        answers.length = 0;
        const legacy = nt59.wrapEvent(
          { kind: 25802, tags: [['p', agent.pubkey], ['encryption', 'nip44']], content: peer.encrypt(agent.pubkey, JSON.stringify({ ver: 1, message: 'ciphertext rumor' })) },
          peer.sk,
          agent.pubkey,
        );
        await Promise.all(pool.publish([env.relay.url], legacy));
        await until(() => answers.some((r) => r.kind === 25803 || r.kind === 25805), 'a terminal for the legacy peer');
        const legacyTerminal = answers.find((r) => r.kind === 25803 || r.kind === 25805);
        assert.equal(legacyTerminal.kind, 25803);
        assert.equal(JSON.parse(peer.decrypt(agent.pubkey, legacyTerminal.content)).text, 'you said: ciphertext rumor');
      },
    );
  });

  it("privacy-first: our client's rumor holds the payload (nostr-tools opens it); a nostr-tools agent's plain rumors are read", async () => {
    const agentKeys = ntKeys();
    const pool = ntPool();
    const prompts = [];
    const info = finalizeEvent({ kind: 31340, created_at: nowS(), tags: [['d', 'agent-info']], content: JSON.stringify({ ver: 1, encryption: ['nip44'], tool_names: [], supports_nip59: true }) }, agentKeys.sk);
    await Promise.all(pool.publish([env.relay.url], info));
    const sub = pool.subscribe([env.relay.url], { kinds: [1059], '#p': [agentKeys.pk] }, {
      onevent: async (w) => {
        const rumor = nt59.unwrapEvent(w, agentKeys.sk);
        prompts.push(rumor);
        if (rumor.kind !== 25802) return;
        const { message } = JSON.parse(rumor.content); // plain JSON: throws on ciphertext
        const send = (kind, body) =>
          Promise.all(pool.publish([env.relay.url], nt59.wrapEvent({ kind, tags: [['p', rumor.pubkey], ['e', rumor.id, '', 'root'], ['encryption', 'nip44']], content: JSON.stringify({ ver: 1, ...body }) }, agentKeys.sk, rumor.pubkey)));
        await send(25801, { text: `echo: ${message}`, seq: 0 });
        await send(25803, { text: `echo: ${message}` });
      },
    });
    closers.push(() => sub.close());
    const client = LocalSigner.generate();
    try {
      const run = prompt({ pool: env.newPool(), signer: client, agent: agentKeys.pk, message: 'wrapped hello', privacy: 'nip59', terminalGrace: 0, idleTimeout: IDLE });
      const updates = [];
      for await (const u of run) updates.push(u);
      assert.equal(run.privacy, 'nip59');
      assert.deepEqual(updates.filter((u) => u.type === 'rejected'), []);
      assert.equal((await run.result).text, 'echo: wrapped hello');
      const rumor = prompts.find((r) => r.id === run.id);
      assert.ok(rumor, 'nostr-tools opened our prompt');
      assert.deepEqual(JSON.parse(rumor.content), { ver: 1, message: 'wrapped hello' });
      assert.deepEqual(rumor.tags, [['p', agentKeys.pk], ['s', `sender:${client.publicKey}`], ['encryption', 'nip44']]);
    } finally {
      client.dispose();
    }
  });

  it('a live prompt older than maxClockSkew gets no terminal (STALE_PROMPT to onError); its client ends RUN_INCOMPLETE', async () => {
    const peer = ntKeys();
    let ahead = 0; // ms the agent's clock runs ahead of the clients' (its since stays at start)
    await withOurAgent(
      {
        info: { tool_names: [] },
        maxClockSkew: 600,
        now: () => Date.now() + ahead,
        async *handler({ message }) {
          yield `answered ${message}`;
        },
      },
      async (agent, reported) => {
        const watch = ntPool();
        const terminals = [];
        const sub = watch.subscribe([env.relay.url], { kinds: [25803, 25805], authors: [agent.pubkey] }, { onevent: (e) => terminals.push(e) });
        closers.push(() => sub.close());
        // An hour later by the agent's clock, a prompt signed by nostr-tools now: an hour old to the
        // agent (a re-broadcast, or a client clock far behind). The relay still delivers it: the
        // agent subscribed with a since of its start.
        ahead = 3_600_000;
        const stale = peer.sign({ kind: 25802, created_at: nowS(), tags: [['p', agent.pubkey], ['encryption', 'nip44']], content: peer.encrypt(agent.pubkey, JSON.stringify({ ver: 1, message: 'old' })) });
        await Promise.all(watch.publish([env.relay.url], stale));
        await until(() => reported.some((e) => e.code === 'STALE_PROMPT'), 'STALE_PROMPT');
        const report = reported.find((e) => e.code === 'STALE_PROMPT');
        assert.ok(report instanceof nostr.NostrError);
        assert.match(report.message, new RegExp(stale.id));
        // Our own client, an hour behind the agent: no answer, so its idle timeout ends the run.
        const client = LocalSigner.generate();
        try {
          const late = prompt({ pool: env.newPool(), signer: client, agent: agent.pubkey, message: 'late', idleTimeout: 1500 });
          await assert.rejects(late.result, { code: 'RUN_INCOMPLETE' });
          // A fresh prompt after them is answered: the agent went past both without a terminal.
          ahead = 0;
          const fresh = prompt({ pool: env.newPool(), signer: client, agent: agent.pubkey, message: 'now', terminalGrace: 0, idleTimeout: IDLE });
          assert.equal((await fresh.result).text, 'answered now');
          await until(() => terminals.some((e) => e.tags.some((t) => t[0] === 'e' && t[1] === fresh.id)), 'the fresh terminal at the watcher');
          const roots = terminals.map((e) => e.tags.find((t) => t[0] === 'e')[1]);
          assert.ok(!roots.includes(stale.id) && !roots.includes(late.id), 'no terminal for a stale prompt');
          assert.equal(reported.filter((e) => e.code === 'STALE_PROMPT').length, 2);
        } finally {
          client.dispose();
        }
      },
    );
  });

  it('RATE_LIMIT with retry_after 7 reaches the user: the typed error, ask, ask --json', async () => {
    const agent = ntAgent(({ reply }) => reply(25805, { code: 'RATE_LIMIT', message: 'too many prompts', retry_after: 7 }));
    const client = LocalSigner.generate();
    const ctx = cliEnv(env.relay.url);
    try {
      const err = await prompt({ pool: env.newPool(), signer: client, agent: agent.pk, message: 'hi', terminalGrace: 0, idleTimeout: IDLE }).result.then(() => null, (e) => e);
      assert.ok(err instanceof AgentError);
      assert.equal(err.code, 'RATE_LIMIT');
      assert.equal(err.retryAfter, 7);
      assert.equal(err.retry_after, 7);
      const npub = nostr.nip19.npubEncode(agent.pk);
      const text = await cli(['ask', npub, 'hello'], { env: ctx.env });
      assert.equal(text.code, 6, text.stderr);
      assert.match(text.stderr, /RATE_LIMIT: too many prompts \(retry after 7 s\)/);
      const json = await cli(['ask', npub, 'hello', '--json'], { env: ctx.env });
      assert.equal(json.code, 6, json.stderr);
      const last = jsonLines(json.stdout).at(-1);
      assert.equal(last.type, 'terminal');
      assert.deepEqual(last.error, { code: 'RATE_LIMIT', message: 'too many prompts', confirmed: true, retryAfter: 7 });
    } finally {
      ctx.cleanup();
      client.dispose();
    }
  });
});
