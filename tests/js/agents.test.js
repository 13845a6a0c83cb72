// NIP-XX end to end: serveAgent and prompt/discover over a REAL dev relay (WebSockets), real
// keys (LocalSigner), NIP-44 both ways. Streaming, tools, cancel, errors surfaced as AgentError,
// admission (model, rate limit, allowlist), discovery; everything is closed at the end.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, sleep } from './helpers.js';
import { FAST, useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, RelayPool, serveAgent, prompt, discover, AgentError, nipxx } = nostr;

const INFO = { supported_models: ['m1', 'm2'], default_model: 'm1', tool_names: ['calc'], tool_schema_version: 1 };

/** An abortable wait, like a model call honoring the handler's signal. */
function waitAborted(signal, ms) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

describe('NIP-XX client and runtime over a real relay', () => {
  const env = useNipxxRelay();
  const { newPool } = env;
  after(async () => {
    // Runs after useNipxxRelay's (pools and relay closed): everything the tests opened is closed,
    // no timers or sockets keep the process alive.
    await sleep(20);
    const left = process.getActiveResourcesInfo().filter((r) => /Timeout|TCP/.test(r));
    assert.deepEqual(left, []);
  });

  /** Serves an agent with `handler`/`policy`, gives `fn` a client; stops and closes everything. */
  async function withAgent({ handler, policy, info = INFO, onError }, fn) {
    const agentSigner = LocalSigner.generate();
    const clientSigner = LocalSigner.generate();
    const agentPool = newPool();
    const clientPool = newPool();
    const observer = newPool();
    const agent = await serveAgent({ signer: agentSigner, pool: agentPool, info, handler, policy, onError });
    try {
      const ask = (message, extra = {}) =>
        prompt({ pool: clientPool, signer: clientSigner, agent: agent.pubkey, message, ...extra });
      await fn({ agent, ask, clientSigner, clientPool, observer, client: clientSigner.publicKey });
    } finally {
      await agent.stop();
      await Promise.all([agentPool.close(), clientPool.close(), observer.close()]);
      agentSigner.dispose();
      clientSigner.dispose();
    }
  }

  /** Counts the terminals (ai.response, ai.error) the agent publishes for a run, live. */
  function countTerminals(observer, promptId) {
    const seen = [];
    const sub = observer.subscribe({ kinds: [25803, 25805], '#e': [promptId] }, { onevent: (e) => seen.push(e) });
    return { seen, close: () => sub.close() };
  }

  it('streams status and deltas; the final text and usage come from ai.response', async () => {
    let ctx = null;
    await withAgent(
      {
        async *handler(c) {
          ctx = c;
          yield { type: 'status', state: 'thinking', progress: 10 };
          yield 'Hel';
          yield 'lo';
          yield ' world';
          yield { type: 'usage', input_tokens: 3, output_tokens: 5 };
        },
      },
      async ({ ask, client, agent, observer, clientSigner, clientPool }) => {
        const run = ask('hi there', { thinking: 'low' });
        const updates = [];
        for await (const u of run) updates.push(u);
        const result = await run.result;
        assert.equal(result.text, 'Hello world');
        assert.deepEqual(result.usage, { input_tokens: 3, output_tokens: 5 });
        assert.deepEqual(updates.filter((u) => u.type === 'delta').map((u) => u.text), ['Hel', 'Hello', 'Hello world']);
        assert.deepEqual(updates.find((u) => u.type === 'status'), { type: 'status', state: 'thinking', progress: 10 });
        assert.equal(updates.at(-1).type, 'terminal');
        assert.equal(updates.at(-1).ok, true);
        assert.equal(run.done, true);
        // What the handler was given: negotiated model (default_model), thinking, default session.
        assert.equal(ctx.message, 'hi there');
        assert.equal(ctx.model, 'm1');
        assert.equal(ctx.thinking, 'low');
        assert.equal(ctx.session, `sender:${client}`);
        assert.equal(ctx.sender, client);
        assert.equal(ctx.signal.aborted, false);

        // A cancel after the terminal: Run.cancel does nothing, and a raw ai.cancel gets no second terminal.
        const terminals = countTerminals(observer, run.id);
        assert.equal(await run.cancel(), false);
        const late = await clientSigner.signEvent({
          kind: 25806,
          tags: [['p', agent.pubkey], ['e', run.id, '', 'root'], ['encryption', 'nip44']],
          content: await clientSigner.nip44Encrypt(agent.pubkey, '{"ver":1,"reason":"user_cancel"}'),
          created_at: Math.floor(Date.now() / 1000),
        });
        await clientPool.publish(late);
        await sleep(300);
        terminals.close();
        assert.equal(terminals.seen.length, 0, 'no terminal after the terminal');
      },
    );
  });

  it('reports tool calls (start and result) as typed updates', async () => {
    await withAgent(
      {
        async *handler() {
          yield { type: 'tool_call', name: 'calc', phase: 'start', arguments: { expr: '6*7' } };
          yield { type: 'tool_call', name: 'calc', phase: 'result', output: { value: 42 }, success: true, duration_ms: 3 };
          yield 'It is 42.';
        },
      },
      async ({ ask }) => {
        const run = ask('what is 6*7?');
        const updates = [];
        for await (const u of run) updates.push(u);
        const calls = updates.filter((u) => u.type === 'tool_call');
        assert.equal(calls.length, 2);
        assert.deepEqual(calls[0], { type: 'tool_call', name: 'calc', phase: 'start', arguments: { expr: '6*7' } });
        assert.equal(calls[1].phase, 'result');
        assert.deepEqual(calls[1].output, { value: 42 });
        assert.equal(calls[1].success, true);
        assert.equal(calls[1].duration_ms, 3);
        assert.equal((await run.result).text, 'It is 42.');
      },
    );
  });

  it('cancel mid-stream aborts the handler and ends the run with one CANCELLED', async () => {
    let signal = null;
    let handlerExited = false;
    await withAgent(
      {
        async *handler(c) {
          signal = c.signal;
          try {
            yield 'partial ';
            await waitAborted(c.signal, 10_000);
            yield 'never sent';
          } finally {
            handlerExited = true;
          }
        },
      },
      async ({ ask, observer }) => {
        const run = ask('long task');
        let terminals = null;
        const updates = [];
        for await (const u of run) {
          updates.push(u);
          if (u.type === 'delta') {
            terminals = countTerminals(observer, run.id);
            await sleep(100); // the observer's subscription is live
            assert.equal(await run.cancel('user_cancel'), true);
            assert.equal(await run.cancel('user_cancel'), false, 'a second cancel sends nothing');
          }
        }
        await assert.rejects(run.result, (err) => err instanceof AgentError && err.code === 'CANCELLED');
        assert.equal(updates.at(-1).error.code, 'CANCELLED');
        assert.equal(updates.filter((u) => u.type === 'delta').length, 1);
        assert.equal(signal.aborted, true);
        await sleep(300);
        assert.equal(handlerExited, true);
        terminals.close();
        assert.equal(terminals.seen.length, 1, 'exactly one terminal');
      },
    );
  });

  it('a cancel that arrives while the prompt is still being admitted is honored', async () => {
    const base = LocalSigner.generate();
    // An agent whose decryption is slow (a remote signer, say): the cancel lands before the run exists.
    const slow = {
      getPublicKey: () => base.getPublicKey(),
      signEvent: (t) => base.signEvent(t),
      nip44Encrypt: (pk, pt) => base.nip44Encrypt(pk, pt),
      nip44Decrypt: async (pk, ct) => {
        await sleep(150);
        return base.nip44Decrypt(pk, ct);
      },
    };
    const agentPool = newPool();
    const clientSigner = LocalSigner.generate();
    let ran = false;
    const agent = await serveAgent({
      signer: slow,
      pool: agentPool,
      info: INFO,
      async *handler(c) {
        ran = true;
        await waitAborted(c.signal, 1500).catch(() => {});
        if (!c.signal.aborted) yield 'not cancelled';
      },
    });
    try {
      const run = prompt({ pool: newPool(), signer: clientSigner, agent: agent.pubkey, message: 'quick' });
      assert.equal(await run.sent, true);
      assert.equal(await run.cancel(), true);
      await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'CANCELLED' && e.eventId !== undefined);
      assert.equal(ran, true);
    } finally {
      await agent.stop();
      base.dispose();
      clientSigner.dispose();
    }
  });

  it('an AbortSignal cancels the run', async () => {
    await withAgent(
      {
        async *handler(c) {
          yield 'x';
          await waitAborted(c.signal, 10_000);
        },
      },
      async ({ ask }) => {
        const ac = new AbortController();
        const run = ask('go', { signal: ac.signal });
        for await (const u of run) if (u.type === 'delta') ac.abort();
        await assert.rejects(run.result, { code: 'CANCELLED' });
      },
    );
  });

  it('a throwing handler gives INTERNAL_ERROR without leaking its message; an AgentError picks the code', async () => {
    const reported = [];
    let mode = 'crash';
    await withAgent(
      {
        onError: (e) => reported.push(e),
        async *handler() {
          yield 'starting';
          if (mode === 'crash') throw new Error('db password is hunter2');
          throw new AgentError('TOOL_ERROR', 'the calculator failed', { retryAfter: 5 });
        },
      },
      async ({ ask }) => {
        const run = ask('boom');
        const err = await run.result.then(() => null, (e) => e);
        assert.ok(err instanceof AgentError);
        assert.equal(err.code, 'INTERNAL_ERROR');
        assert.doesNotMatch(err.message, /hunter2/);
        assert.ok(reported.some((e) => /hunter2/.test(e.message)), 'the operator sees the real error');
        mode = 'chosen';
        const err2 = await ask('again').result.then(() => null, (e) => e);
        assert.equal(err2.code, 'TOOL_ERROR');
        assert.equal(err2.message, 'the calculator failed');
        assert.equal(err2.retryAfter, 5);
      },
    );
  });

  it('no output gives EMPTY_RESPONSE; an unsupported model gives UNSUPPORTED_MODEL without running the handler', async () => {
    let calls = 0;
    await withAgent(
      {
        async *handler() {
          calls++;
        },
      },
      async ({ ask }) => {
        await assert.rejects(ask('say nothing').result, { code: 'EMPTY_RESPONSE' });
        assert.equal(calls, 1);
        const run = ask('hi', { model: 'gpt-9' });
        await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'UNSUPPORTED_MODEL' && /gpt-9/.test(e.message));
        assert.equal(calls, 1);
        await assert.rejects(ask('hi', { toolSchemaVersion: 2 }).result, { code: 'UNSUPPORTED_SCHEMA_VERSION' });
        assert.equal(calls, 1);
        // The seed's (and the issue's) snake_case names work as aliases.
        await assert.rejects(ask('hi', { tool_schema_version: 2 }).result, { code: 'UNSUPPORTED_SCHEMA_VERSION' });
        await assert.rejects(ask('hi', { model: 'm2', fallback_models: ['m1'] }).result, { code: 'EMPTY_RESPONSE' });
        assert.equal(calls, 2);
        assert.throws(() => ask('hi', { toolSchemaVersion: 1, tool_schema_version: 2 }), { code: 'INVALID_ARGUMENT' });
      },
    );
  });

  it('fallback_models never stand in for an unsupported model (UNSUPPORTED_MODEL, handler not run); the handler gets the supported ones', async () => {
    const contexts = [];
    await withAgent(
      {
        async *handler(ctx) {
          contexts.push({ model: ctx.model, fallbackModels: ctx.fallbackModels });
          yield `model ${ctx.model}`;
        },
      },
      async ({ ask }) => {
        // "If model is set, the agent MUST have it listed in supported_models", fallbacks or not.
        const err = await ask('hi', { model: 'gpt-9', fallbackModels: ['m2'] }).result.then(() => null, (e) => e);
        assert.ok(err instanceof AgentError);
        assert.equal(err.code, 'UNSUPPORTED_MODEL');
        assert.match(err.message, /gpt-9/);
        await assert.rejects(ask('hi', { model: 'gpt-9', fallback_models: ['m1', 'm2'] }).result, { code: 'UNSUPPORTED_MODEL' });
        assert.deepEqual(contexts, []);
        // A supported model runs as asked; the supported fallbacks, in the client's order, are the handler's to use.
        assert.equal((await ask('hi', { model: 'm2', fallbackModels: ['gpt-9', 'm1', 'm2'] }).result).text, 'model m2');
        assert.equal((await ask('hi', { fallbackModels: ['m2'] }).result).text, 'model m1');
        assert.equal((await ask('hi').result).text, 'model m1');
        assert.deepEqual(contexts, [
          { model: 'm2', fallbackModels: ['m1'] },
          { model: 'm1', fallbackModels: ['m2'] },
          { model: 'm1', fallbackModels: [] },
        ]);
      },
    );
  });

  it('rate limit gives RATE_LIMIT with retryAfter', async () => {
    await withAgent(
      {
        policy: { promptsPerMinute: 1, burst: 1 },
        async *handler() {
          yield 'ok';
        },
      },
      async ({ ask }) => {
        assert.equal((await ask('one').result).text, 'ok');
        const err = await ask('two').result.then(() => null, (e) => e);
        assert.ok(err instanceof AgentError);
        assert.equal(err.code, 'RATE_LIMIT');
        assert.ok(err.retryAfter >= 1 && err.retryAfter <= 60, String(err.retryAfter));
        assert.equal(err.retry_after, err.retryAfter, 'the seed\'s name is an alias');
      },
    );
  });

  it('an allowlist without the client gives UNAUTHORIZED; a blocklist gives BLOCKED_SENDER', async () => {
    const someoneElse = LocalSigner.generate();
    try {
      await withAgent(
        {
          policy: { allow: [someoneElse.publicKey] },
          async *handler() {
            yield 'secret';
          },
        },
        async ({ ask }) => {
          await assert.rejects(ask('let me in').result, (e) => e instanceof AgentError && e.code === 'UNAUTHORIZED');
        },
      );
    } finally {
      someoneElse.dispose();
    }
    const blocked = LocalSigner.generate();
    const blockedPool = newPool();
    try {
      await withAgent(
        {
          policy: { block: [blocked.publicKey] },
          async *handler() {
            yield 'hi';
          },
        },
        async ({ agent }) => {
          const run = prompt({ pool: blockedPool, signer: blocked, agent: agent.pubkey, message: 'hello' });
          await assert.rejects(run.result, { code: 'BLOCKED_SENDER' });
        },
      );
    } finally {
      blocked.dispose();
    }
  });

  it('discover reads the newest ai.info, and falls back to the seed defaults', async () => {
    await withAgent({ async *handler() {} }, async ({ agent, clientPool }) => {
      const { info, event } = await discover(clientPool, agent.pubkey);
      assert.equal(event.kind, 31340);
      assert.deepEqual(event.tags, [['d', 'agent-info']]);
      assert.equal(info.ver, 1);
      assert.deepEqual(info.supported_models, ['m1', 'm2']);
      assert.equal(info.default_model, 'm1');
      assert.deepEqual(info.encryption, ['nip44']);
    });
    // Newest by created_at wins; nothing published: the defaults.
    const signer = LocalSigner.generate();
    const p = newPool();
    try {
      const base = Math.floor(Date.now() / 1000) - 100;
      for (const [dt, model] of [[0, 'old'], [50, 'new']]) {
        const e = await signer.signEvent({
          kind: 31340,
          tags: [['d', 'agent-info']],
          content: JSON.stringify({ ver: 1, encryption: ['nip44'], tool_names: [], default_model: model }),
          created_at: base + dt,
        });
        await p.publish(e);
      }
      assert.equal((await discover(p, signer.publicKey)).info.default_model, 'new');
      const none = await discover(p, LocalSigner.generate().publicKey);
      assert.equal(none.event, null);
      assert.equal(none.info.ver, 1);
      assert.deepEqual(none.info.encryption, ['nip44']);
      assert.equal(none.info.supports_streaming, true);
    } finally {
      signer.dispose();
    }
  });

  it('bad prompt payloads get PARSE_ERROR / INVALID_SCHEMA; an unadvertised tool UNSUPPORTED_FEATURE; turns SESSION_LIMIT', async () => {
    let mode = 'tool';
    await withAgent(
      {
        policy: { maxSessionTurns: 1 },
        async *handler() {
          if (mode === 'tool') yield { type: 'tool_call', name: 'rm_rf', phase: 'start' };
          yield 'fine';
        },
      },
      async ({ agent, ask, clientSigner, clientPool }) => {
        // Raw prompts with broken content: the error arrives as ai.error on the prompt id.
        const rawError = async (plaintext) => {
          const ev = await clientSigner.signEvent({
            kind: 25802,
            tags: [['p', agent.pubkey], ['encryption', 'nip44']],
            content: await clientSigner.nip44Encrypt(agent.pubkey, plaintext),
            created_at: Math.floor(Date.now() / 1000),
          });
          const got = new Promise((resolve) => {
            const sub = clientPool.subscribe({ kinds: [25805], '#e': [ev.id], authors: [agent.pubkey] }, {
              onevent: async (e) => {
                sub.close();
                resolve(JSON.parse(await clientSigner.nip44Decrypt(e.pubkey, e.content)));
              },
              oneose: () => void clientPool.publish(ev),
            });
          });
          return got;
        };
        assert.equal((await rawError('not json')).code, 'PARSE_ERROR');
        assert.equal((await rawError('{"ver":1}')).code, 'INVALID_SCHEMA');
        await assert.rejects(ask('use a tool', { session: 'session:a' }).result, { code: 'UNSUPPORTED_FEATURE' });
        mode = 'text';
        assert.equal((await ask('one turn', { session: 'session:b' }).result).text, 'fine');
        await assert.rejects(ask('second turn', { session: 'session:b' }).result, { code: 'SESSION_LIMIT' });
      },
    );
  });

  it('stop() aborts running handlers and ends their runs with INTERNAL_ERROR; works with relays and a NIP-07 signer', async () => {
    const agentSigner = LocalSigner.generate();
    const inner = LocalSigner.generate();
    // A NIP-07 extension backed by a local key.
    const ext = {
      getPublicKey: () => inner.getPublicKey(),
      signEvent: (t) => inner.signEvent(t),
      nip44: { encrypt: (pk, pt) => inner.nip44Encrypt(pk, pt), decrypt: (pk, ct) => inner.nip44Decrypt(pk, ct) },
    };
    let aborted = false;
    let started;
    const running = new Promise((r) => (started = r));
    const agent = await serveAgent({
      signer: agentSigner,
      relays: [env.relay.url],
      info: INFO,
      async *handler(c) {
        c.signal.addEventListener('abort', () => (aborted = true));
        yield 'working';
        started();
        await new Promise((r) => setTimeout(r, 300)); // ignores the signal for a while
      },
    });
    const p = newPool();
    try {
      const run = prompt({ pool: p, signer: new nostr.Nip07Signer(ext), agent: agent.pubkey, message: 'hello' });
      await running;
      assert.equal(agent.active, 1);
      await agent.stop();
      assert.equal(aborted, true);
      await assert.rejects(run.result, { code: 'INTERNAL_ERROR' });
      assert.equal(agent.active, 0);
    } finally {
      await agent.stop();
      agentSigner.dispose();
      inner.dispose();
    }
  });

  it('stop(): a handler that ignores its signal past stopTimeout is left behind, and its client still gets INTERNAL_ERROR once', async () => {
    const agentSigner = LocalSigner.generate();
    const client = LocalSigner.generate();
    let started;
    const running = new Promise((r) => (started = r));
    let release;
    const held = new Promise((r) => (release = r));
    let resumed = false;
    const agent = await serveAgent({
      signer: agentSigner,
      relays: [env.relay.url],
      info: INFO,
      stopTimeout: 200,
      async *handler() {
        yield 'working';
        started();
        await held; // deaf to the signal
        resumed = true;
        yield 'too late';
      },
    });
    const p = newPool();
    try {
      const run = prompt({ pool: p, signer: client, agent: agent.pubkey, message: 'hello' });
      const updates = [];
      const collected = (async () => {
        for await (const u of run) updates.push(u.type === 'terminal' ? `terminal:${u.error?.code}` : `${u.type}:${u.text}`);
      })();
      await running;
      await agent.stop();
      await assert.rejects(run.result, (e) => e instanceof AgentError && e.code === 'INTERNAL_ERROR' && /stopped/.test(e.message));
      release(); // the handler ends after all: nothing more is sent
      await collected;
      assert.deepEqual(updates, ['delta:working', 'terminal:INTERNAL_ERROR']);
      for (let i = 0; i < 50 && !resumed; i++) await sleep(10);
      assert.equal(resumed, true);
    } finally {
      release();
      await agent.stop();
      agentSigner.dispose();
      client.dispose();
    }
  });

  it('the agent may be named by npub or hex in either case, like AGX peers; anything else is INVALID_ARGUMENT', async () => {
    await withAgent({ async *handler({ message }) { yield `echo ${message}`; } }, async ({ agent }) => {
      const s = LocalSigner.generate();
      const p = newPool();
      const store = new nostr.MemoryRunStore(); // NIP-XX run events are ephemeral: the dev relay keeps none
      try {
        const npub = nostr.nip19.npubEncode(agent.pubkey);
        for (const name of [npub, agent.pubkey.toUpperCase()]) {
          const { info, event } = await discover(p, name);
          assert.equal(event.pubkey, agent.pubkey);
          assert.deepEqual(info.tool_names, INFO.tool_names);
          const run = prompt({ pool: p, signer: s, agent: name, message: 'hi', store });
          assert.equal(run.agent, agent.pubkey);
          assert.equal((await run.result).text, 'echo hi');
        }
        const runs = await nostr.fetchSessionRuns({ pool: p, signer: s, agent: npub, store, maxWait: 2000 });
        assert.equal(runs.length, 2);
        assert.ok(runs.every((r) => r.agent === agent.pubkey));
        assert.deepEqual((await nostr.fetchSessions({ pool: p, signer: s, agent: npub, store, maxWait: 2000 })).map((x) => x.agent), [agent.pubkey]);
        const nsec = nostr.nip19.nsecEncode(nostr.generateSecretKey());
        for (const bad of [nsec, 'npub1qqqq', 'zz'.repeat(32), '00'.repeat(32), 42, undefined]) {
          assert.throws(() => prompt({ pool: p, signer: s, agent: bad, message: 'x' }), { code: 'INVALID_ARGUMENT', message: /agent must be/ }, String(bad));
          await assert.rejects(discover(p, bad), { code: 'INVALID_ARGUMENT' }, String(bad));
          await assert.rejects(nostr.fetchSessionRuns({ pool: p, signer: s, agent: bad }), { code: 'INVALID_ARGUMENT' }, String(bad));
        }
      } finally {
        s.dispose();
      }
    });
  });

  it('an async onError that rejects is not an unhandled rejection; the client still gets its INTERNAL_ERROR', async () => {
    const reported = [];
    const unhandled = [];
    const onUnhandled = (e) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      await withAgent(
        {
          async *handler() {
            yield 'x';
            throw new Error('handler broke');
          },
          onError: async (e) => {
            reported.push(e.message);
            throw new Error('the logger is down');
          },
        },
        async ({ ask }) => {
          await assert.rejects(ask('go').result, { code: 'INTERNAL_ERROR' });
          assert.deepEqual(reported, ['handler broke']);
          await sleep(50); // an unhandled rejection is reported within a tick or two
        },
      );
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
  });

  it('a cancel before the prompt is sent ends the run locally, and nothing is published', async () => {
    await withAgent({ async *handler() { yield 'x'; } }, async ({ ask, agent }) => {
      const run = ask('never mind');
      assert.equal(await run.cancel(), false);
      await assert.rejects(run.result, (e) => e.code === 'CANCELLED' && e.eventId === undefined);
      assert.equal(await run.sent, false);
      await sleep(100);
      assert.equal(agent.active, 0);
    });
  });

  it('a run whose pool closes ends with POOL_CLOSED instead of waiting forever', async () => {
    const s = LocalSigner.generate();
    const p = new RelayPool({ ...FAST, relays: [env.relay.url] });
    try {
      const run = prompt({ pool: p, signer: s, agent: LocalSigner.generate().publicKey, message: 'anyone?' });
      assert.equal(await run.sent, true);
      await p.close();
      await assert.rejects(run.result, { code: 'POOL_CLOSED' });
      assert.equal(run.done, true);
    } finally {
      s.dispose();
    }
  });

  it('a plain async handler returning a string answers too', async () => {
    await withAgent({ handler: async ({ message }) => `you said ${message}` }, async ({ ask }) => {
      const run = ask('ping');
      const updates = [];
      for await (const u of run) updates.push(u.type);
      assert.deepEqual(updates, ['terminal']);
      assert.equal((await run.result).text, 'you said ping');
    });
  });

  it('rejects bad arguments at once', async () => {
    const s = LocalSigner.generate();
    const p = newPool();
    try {
      assert.throws(() => prompt({ pool: p, signer: s, agent: 'nope', message: 'x' }), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => prompt({ pool: p, signer: s, agent: s.publicKey, message: '' }), { code: 'INVALID_ARGUMENT' });
      assert.throws(() => prompt({ pool: p, signer: s, agent: s.publicKey, message: 'x', thinking: 'extreme' }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(serveAgent({ signer: s, pool: p, handler: null }), { code: 'INVALID_ARGUMENT' });
      await assert.rejects(serveAgent({ signer: s, pool: p, handler() {}, info: { encryption: 'nip44' } }), { code: 'INVALID_ARGUMENT' });
    } finally {
      s.dispose();
    }
  });
});

