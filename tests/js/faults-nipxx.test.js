// FAULTS for NIP-XX runs, with a real dev relay and real WebSockets (issue 8, section 2):
// - the relay killed and restarted during a run: exactly one terminal; the text is complete, or
//   the deltas are marked degraded, or the run ends RUN_INCOMPLETE (never a silent truncation);
// - the relay unreachable for a while: the prompt's publish is retried, both subscriptions are
//   resumed, nothing is handled or delivered twice;
// - clocks of client and agent 10 minutes apart, either way, both privacy profiles;
// - one peer flooding prompts: its rate limit holds, the runtime holds at most `burst` of its
//   runs, memory stays bounded, and another peer is served meanwhile.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { nostr, sleep, until } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';

const { LocalSigner, serveAgent, prompt, AgentError, NostrError } = nostr;

const INFO = { tool_names: [], supports_nip59: true };

/** A gate the handler waits on until the test opens it. */
function gate() {
  let open;
  const p = new Promise((r) => (open = r));
  return { wait: () => p, open: () => open() };
}

/** Collects a run's updates; resolves { updates, terminals, deltas, result } once it ends. */
async function follow(run) {
  const updates = [];
  for await (const u of run) updates.push(u);
  const result = await run.result.then(
    (value) => ({ ok: true, value }),
    (error) => ({ ok: false, error }),
  );
  return { updates, terminals: updates.filter((u) => u.type === 'terminal'), deltas: updates.filter((u) => u.type === 'delta'), result };
}

describe('NIP-XX faults over a real dev relay', () => {
  const env = useNipxxRelay({ poolOptions: { publishTimeout: 10_000 } });
  const { newPool } = env;

  for (const privacy of ['default', 'nip59']) {
    it(`${privacy}: relay killed and restarted mid-run: one terminal, full text, a gap marked degraded`, { timeout: 60_000 }, async () => {
      const words = ['alpha ', 'beta ', 'gamma ', 'delta ', 'epsilon'];
      const full = words.join('');
      const down = gate();
      const resume = gate();
      let calls = 0;
      const errors = [];
      const agentPool = newPool();
      const clientPool = newPool();
      const agent = await serveAgent({
        signer: LocalSigner.generate(),
        pool: agentPool,
        info: INFO,
        onError: (e) => errors.push(e),
        async *handler() {
          calls++;
          yield words[0];
          yield words[1];
          await down.wait(); // the test kills the relay here
          yield words[2]; // published while the relay is down: the agent's pool waits and retries
          await resume.wait();
          yield words[3];
          yield words[4];
        },
      });
      try {
        const run = prompt({ pool: clientPool, signer: LocalSigner.generate(), agent: agent.pubkey, message: 'go', privacy });
        const followed = follow(run);
        let seen = 0;
        const it = run[Symbol.asyncIterator]();
        while (seen < 2) if ((await it.next()).value?.type === 'delta') seen++;
        await env.relay.stop();
        down.open();
        await sleep(300);
        await env.relay.restart();
        await until(() => clientPool.status(env.relay.url).state === 'open' && agentPool.status(env.relay.url).state === 'open', 'both pools back');
        // The pool re-sends its REQs as the socket opens: once a later frame on that socket is
        // answered, the relay holds the client's subscription again.
        const probe = nostr.finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'probe' }, nostr.generateSecretKey());
        assert.equal((await clientPool.publish(probe))[0].status, 'accepted');
        resume.open();
        const { terminals, deltas, result } = await followed;
        assert.equal(calls, 1, 'the prompt was handled once');
        assert.equal(terminals.length, 1, 'exactly one terminal');
        assert.ok(result.ok, `the run succeeded: ${result.error?.code} ${result.error?.message}`);
        assert.equal(result.value.text, full, 'the terminal carries the whole text');
        const last = deltas.at(-1);
        assert.ok(last.text === full || last.degraded === true, `the streamed text is whole or marked degraded: ${JSON.stringify(last)}`);
        for (const d of deltas) assert.ok(d.degraded || full.startsWith(d.text), 'no delta applied twice or out of order');
        if (privacy === 'nip59') assert.equal(last.text, full, 'gift wraps are stored: the resubscription recovers every delta');
        assert.deepEqual(errors, []);
      } finally {
        down.open();
        resume.open();
        await agent.stop();
      }
    });
  }

  it('gift wraps dated back (NIP-59) that arrive while a subscriber is away are delivered after its resubscribe', { timeout: 60_000 }, async () => {
    // Regression: the pool resubscribed from the newest created_at seen minus 60 s, which skips
    // every wrap dated further back (NIP-59 dates wraps at random up to two days back).
    const sk = nostr.generateSecretKey();
    const to = nostr.getPublicKey(nostr.generateSecretKey());
    const now = Math.floor(Date.now() / 1000);
    const wrap = (ago, content) => nostr.finalizeEvent({ kind: 1059, created_at: now - ago, tags: [['p', to]], content }, sk);
    const subscriber = newPool({ reconnect: { initialDelay: 1500, maxDelay: 1500, jitter: 0 } });
    const publisher = newPool();
    const got = new Map();
    const sub = subscriber.subscribe([{ kinds: [1059], '#p': [to], since: now - 3 * 86400 }], { onevent: (e) => got.set(e.content, (got.get(e.content) ?? 0) + 1) });
    try {
      assert.equal((await publisher.publish(wrap(10, 'recent')))[0].status, 'accepted');
      await until(() => got.has('recent'), 'the first wrap');
      await env.relay.stop();
      await env.relay.restart();
      // The subscriber is still backing off: these are stored, dated back like real wraps.
      for (const [ago, name] of [[86_400, 'a day back'], [7200, 'two hours back'], [5, 'now']])
        assert.equal((await publisher.publish(wrap(ago, name)))[0].status, 'accepted');
      await until(() => got.size === 4, `every wrap (${[...got.keys()]})`);
      await sleep(200);
      assert.deepEqual([...got.values()], [1, 1, 1, 1], 'each once');
    } finally {
      sub.close();
    }
  });

  it('default: the terminal published while the client is away ends the run RUN_INCOMPLETE, never a truncated success', { timeout: 60_000 }, async () => {
    // The seed's run kinds are ephemeral: a relay forwards them to whoever is subscribed at that
    // moment. The client here reconnects slowly, so the agent's last delta and terminal go out
    // before its REQ is back. The run must end with one local terminal saying so.
    const down = gate();
    let published = 0;
    const agentPool = newPool();
    const clientPool = newPool({ reconnect: { initialDelay: 4000, maxDelay: 4000, jitter: 0 } });
    const agent = await serveAgent({
      signer: LocalSigner.generate(),
      pool: agentPool,
      info: INFO,
      async *handler() {
        yield 'one ';
        await down.wait();
        yield 'two';
        published++;
      },
    });
    try {
      const run = prompt({ pool: clientPool, signer: LocalSigner.generate(), agent: agent.pubkey, message: 'go', idleTimeout: 2500 });
      const followed = follow(run);
      const it = run[Symbol.asyncIterator]();
      while ((await it.next()).value?.type !== 'delta');
      await env.relay.stop();
      await env.relay.restart();
      down.open();
      await until(() => published === 1 && agent.active === 0, 'the agent to finish its run');
      const { terminals, deltas, result } = await followed;
      assert.equal(terminals.length, 1, 'exactly one terminal');
      assert.equal(result.ok, false);
      assert.ok(result.error instanceof NostrError);
      assert.equal(result.error.code, 'RUN_INCOMPLETE');
      assert.equal(deltas.at(-1).text, 'one ', 'what arrived is all that is shown, and the run says it is incomplete');
    } finally {
      down.open();
      await agent.stop();
    }
  });

  // Prompts sent while the relay is down wait in the client's pool and go out when it returns.
  // Privacy-first, the prompt is a stored gift wrap: the agent's resubscription finds it whatever
  // the order in which the two reconnect. In the default profile the prompt's kind is ephemeral:
  // if the client's pool is back before the agent's, the relay has no one to forward it to and
  // it is gone; the run then ends RUN_INCOMPLETE after idleTimeout (never a second run, never a
  // duplicated delta).
  for (const privacy of ['nip59', 'default'])
    it(`${privacy}: relay unreachable for a while: prompts retried, subscriptions resume, nothing twice`, { timeout: 60_000 }, async () => {
      let calls = 0;
      const agentPool = newPool();
      const clientPool = newPool();
      const agent = await serveAgent({
        signer: LocalSigner.generate(),
        pool: agentPool,
        info: INFO,
        async *handler({ message }) {
          calls++;
          for (const w of message.split(' ')) yield `${w} `;
        },
      });
      try {
        // The client learned the agent's ai.info before the outage (the pool keeps it): privacy-first
        // needs supports_nip59, which a client cannot learn while the relay is down.
        if (privacy === 'nip59') assert.equal((await nostr.discover(clientPool, agent.pubkey)).info.supports_nip59, true);
        await env.relay.stop();
        await until(() => agentPool.status(env.relay.url).state === 'backing-off', 'the agent to notice');
        const message = 'one two three four';
        const runs = [0, 1, 2].map(() =>
          prompt({ pool: clientPool, signer: LocalSigner.generate(), agent: agent.pubkey, message, privacy, idleTimeout: 8000 }),
        );
        const followed = runs.map(follow);
        await sleep(1500); // unreachable: the prompts' publishes wait for it
        await env.relay.restart();
        assert.deepEqual(await Promise.all(runs.map((r) => r.sent)), [true, true, true], 'each prompt accepted once the relay is back');
        let completed = 0;
        for (const { terminals, deltas, result } of await Promise.all(followed)) {
          assert.equal(terminals.length, 1);
          if (!result.ok) {
            assert.equal(privacy, 'default', `${result.error.code}: ${result.error.message}`);
            assert.equal(result.error.code, 'RUN_INCOMPLETE');
            assert.deepEqual(deltas, []);
            continue;
          }
          completed++;
          assert.equal(result.value.text, 'one two three four ');
          assert.deepEqual(deltas.map((d) => d.text), ['one ', 'one two ', 'one two three ', 'one two three four '], 'each delta once, in order');
          assert.ok(deltas.every((d) => !d.degraded));
        }
        if (privacy === 'nip59') assert.equal(completed, 3, 'every privacy-first run completes');
        await sleep(300); // a re-sent prompt (resubscription overlap) would start a second run here
        assert.equal(calls, completed, 'each prompt that reached the agent handled exactly once');
      } finally {
        await agent.stop();
      }
    });

  describe('clock skew of 10 minutes between client and agent', () => {
    const MIN10 = 600_000;
    for (const privacy of ['default', 'nip59'])
      for (const [who, skew] of [['client', -MIN10], ['client', +MIN10], ['agent', -MIN10], ['agent', +MIN10]]) {
        it(`${privacy}: the ${who}'s clock ${skew < 0 ? 'behind' : 'ahead'} by 10 minutes: the run completes`, { timeout: 60_000 }, async () => {
          const agentNow = who === 'agent' ? () => Date.now() + skew : undefined;
          const clientNow = who === 'client' ? () => Date.now() + skew : undefined;
          const agent = await serveAgent({
            signer: LocalSigner.generate(),
            pool: newPool({ now: agentNow }),
            info: INFO,
            now: agentNow,
            policy: { promptsPerMinute: 1, burst: 2 },
            async *handler({ message }) {
              yield 'echo: ';
              yield message;
            },
          });
          try {
            const clientPool = newPool({ now: clientNow });
            const signer = LocalSigner.generate();
            const ask = (message) => prompt({ pool: clientPool, signer, agent: agent.pubkey, message, privacy, now: clientNow, idleTimeout: 8000 });
            const { terminals, deltas, result } = await follow(ask('hi'));
            assert.equal(terminals.length, 1);
            assert.ok(result.ok, `${result.error?.code}: ${result.error?.message}`);
            assert.equal(result.value.text, 'echo: hi');
            assert.equal(deltas.at(-1).text, 'echo: hi');
            assert.ok(!deltas.at(-1).degraded);
            // The rate limit runs on the agent's clock alone: skew neither lifts nor trips it.
            assert.ok((await follow(ask('two'))).result.ok);
            const third = await follow(ask('three'));
            assert.ok(third.result.error instanceof AgentError);
            assert.equal(third.result.error.code, 'RATE_LIMIT');
          } finally {
            await agent.stop();
          }
        });
      }

    it('a stored prompt older than the start is still not answered (the skew window is for live prompts)', { timeout: 60_000 }, async () => {
      const agentSigner = LocalSigner.generate();
      const handled = [];
      const serve = () =>
        serveAgent({
          signer: agentSigner,
          pool: newPool(),
          info: INFO,
          async *handler({ message }) {
            handled.push(message);
            yield 'x';
          },
        });
      await (await serve()).stop(); // its ai.info (supports_nip59) stays on the relay
      // A gift-wrapped prompt dated 5 minutes ago waits on the relay while the agent is away.
      const clientPool = newPool();
      const old = prompt({ pool: clientPool, signer: LocalSigner.generate(), agent: agentSigner.publicKey, message: 'old', privacy: 'nip59', now: () => Date.now() - 300_000 });
      assert.equal(await old.sent, true);
      const agent = await serve();
      try {
        const fresh = await follow(prompt({ pool: clientPool, signer: LocalSigner.generate(), agent: agent.pubkey, message: 'new', privacy: 'nip59' }));
        assert.ok(fresh.result.ok);
        assert.deepEqual(handled, ['new'], 'only the live prompt was answered');
      } finally {
        await old.cancel().catch(() => {});
        await agent.stop();
      }
    });
  });

  it('a peer flooding prompts: its rate limit holds, memory stays bounded, another peer is served', { timeout: 60_000 }, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const burst = 3;
    const flooder = LocalSigner.generate();
    const flooderPk = flooder.publicKey;
    const handled = new Map();
    let peak = 0;
    const agent = await serveAgent({
      signer: LocalSigner.generate(),
      pool: newPool(),
      info: INFO,
      policy: { promptsPerMinute: 2, burst, maxTracked: 100 },
      async *handler({ sender, message }) {
        handled.set(sender, (handled.get(sender) ?? 0) + 1);
        yield `${message} `;
        await sleep(50);
        yield 'done';
      },
    });
    const sampler = setInterval(() => (peak = Math.max(peak, agent.active)), 5);
    try {
      // Warm-up, then the heap baseline.
      const floodPool = newPool();
      assert.ok((await follow(prompt({ pool: floodPool, signer: LocalSigner.generate(), agent: agent.pubkey, message: 'warm' }))).result.ok);
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      // 200 prompts from one key, all at once (raw events: the flooder follows none of them).
      const N = 200;
      const events = [];
      for (let i = 0; i < N; i++) {
        const content = await flooder.nip44Encrypt(agent.pubkey, JSON.stringify({ ver: 1, message: `flood ${i}` }));
        events.push(await flooder.signEvent({ kind: 25802, tags: [['p', agent.pubkey], ['encryption', 'nip44']], content, created_at: Math.floor(Date.now() / 1000) }));
      }
      // What the agent sends back to the flooder, read by a plain subscription.
      const replies = [];
      const watch = floodPool.subscribe([{ kinds: [25805, 25803], '#p': [flooderPk], authors: [agent.pubkey] }], { onevent: (e) => replies.push(e) });
      await sleep(100);
      const publishing = Promise.all(events.map((e) => floodPool.publish(e)));
      // Meanwhile, another peer is served.
      const other = await follow(prompt({ pool: newPool(), signer: LocalSigner.generate(), agent: agent.pubkey, message: 'me too' }));
      assert.ok(other.result.ok, other.result.error?.message);
      assert.equal(other.result.value.text, 'me too done');
      const outcomes = (await publishing).map(([r]) => r.status);
      assert.ok(outcomes.every((s) => s === 'accepted'), 'the relay took every flood prompt (the limit is the agent\'s)');
      await until(() => replies.length >= N, `a reply to each flood prompt (${replies.length})`, 30_000);
      await until(() => agent.active === 0, 'the flooder\'s admitted runs to end');
      assert.ok(handled.get(flooderPk) <= burst + 1, `at most a burst of the flood handled: ${handled.get(flooderPk)}`);
      assert.ok(peak <= burst + 2, `runs held at once stay bounded: ${peak}`);
      // Every other prompt was refused with RATE_LIMIT and a retry_after.
      const errors = [];
      for (const e of replies.filter((r) => r.kind === 25805)) errors.push(JSON.parse(await flooder.nip44Decrypt(agent.pubkey, e.content)));
      assert.equal(errors.length, N - handled.get(flooderPk));
      assert.ok(errors.every((p) => p.code === 'RATE_LIMIT' && p.retry_after > 0), JSON.stringify(errors[0]));
      watch.close();
      for (let i = 0; i < 4; i++) {
        gc();
        await sleep(10);
      }
      const grown = process.memoryUsage().heapUsed - heapBefore;
      assert.ok(grown < 8 * 1024 * 1024, `heap grew ${(grown / 1048576).toFixed(1)} MB over a 200-prompt flood`);
    } finally {
      clearInterval(sampler);
      await agent.stop();
    }
  });
});
