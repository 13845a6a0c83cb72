// Issue 16 item 6, first two bullets: defaults that do not invite abuse. serveAgent limits each
// sender's prompts and the runs in progress by default (documented, tunable, and off only when
// asked), and a prompt to an agent that never answers ends with a typed error after a default idle
// timeout, in the API and in the CLI's `ask`. A real dev relay, real keys, real child processes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr } from './helpers.js';
import { useNipxxRelay } from './nipxx-helpers.js';
import { cli, cliEnv } from './cli-helpers.js';

const { LocalSigner, serveAgent, prompt, AgentError, NostrError, DEFAULT_IDLE_TIMEOUT } = nostr;

describe('serveAgent: a default rate limit per sender and a default concurrency cap', () => {
  const env = useNipxxRelay();

  async function withAgent({ handler, policy, now }, fn) {
    const agentSigner = LocalSigner.generate();
    const pool = env.newPool();
    const agent = await serveAgent({ signer: agentSigner, pool, handler, policy, now });
    const signers = [];
    const client = () => {
      const s = LocalSigner.generate();
      signers.push(s);
      return s;
    };
    const clientPool = env.newPool();
    const ask = (signer, message) => prompt({ pool: clientPool, signer, agent: agent.pubkey, message, idleTimeout: 20_000 });
    try {
      await fn({ agent, ask, client });
    } finally {
      await agent.stop();
      agentSigner.dispose();
      for (const s of signers) s.dispose();
    }
  }

  const outcome = (run) => run.result.then((r) => r.text, (e) => e);

  it('one sender: a burst of 10 is answered, the 11th gets RATE_LIMIT with retryAfter (no policy given)', async () => {
    // The agent's clock runs at a tenth of real time, so the bucket (1 token per 3 s) cannot refill
    // while a loaded machine answers the 11 prompts: the rule, not the machine's speed, is tested.
    const t0 = Math.floor(Date.now() / 1000);
    const slowClock = () => t0 + Math.floor((Date.now() / 1000 - t0) / 10);
    await withAgent({ handler: async () => 'ok', now: slowClock }, async ({ ask, client }) => {
      const me = client();
      const got = [];
      for (let i = 0; i < 11; i++) got.push(await outcome(ask(me, `p${i}`))); // one at a time: the rate, not the concurrency cap
      const limited = got.filter((g) => g instanceof AgentError && g.code === 'RATE_LIMIT');
      assert.equal(got.filter((g) => g === 'ok').length, 10);
      assert.equal(limited.length, 1);
      assert.ok(limited[0].retryAfter >= 1 && limited[0].retryAfter <= 60, String(limited[0].retryAfter));
      // another sender is not limited by the first one's use
      assert.equal(await outcome(ask(client(), 'mine')), 'ok');
    });
  });

  it('8 runs at once in all (no policy given): a 9th prompt from another sender gets RATE_LIMIT "busy"; a slot freed serves again', async () => {
    let release;
    const held = new Promise((r) => (release = r));
    let running = 0;
    let peak = 0;
    const handler = async () => {
      running++;
      peak = Math.max(peak, running);
      await held;
      running--;
      return 'done';
    };
    await withAgent({ handler }, async ({ agent, ask, client }) => {
      const first = Array.from({ length: 8 }, (_, i) => ask(client(), `slow ${i}`));
      const deadline = Date.now() + 20_000;
      while (agent.active < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(agent.active, 8);
      const ninth = await outcome(ask(client(), 'one too many'));
      assert.ok(ninth instanceof AgentError, String(ninth));
      assert.equal(ninth.code, 'RATE_LIMIT');
      assert.match(ninth.message, /busy/);
      assert.equal(ninth.retryAfter, 5);
      release();
      assert.deepEqual(await Promise.all(first.map(outcome)), Array(8).fill('done'));
      assert.equal(await outcome(ask(client(), 'now there is room')), 'done');
      assert.equal(peak, 8);
    });
  });

  it('tunable, and off only when asked: promptsPerMinute 0 and maxConcurrent 0', async () => {
    await withAgent({ handler: async () => 'ok', policy: { promptsPerMinute: 0, maxConcurrent: 0 } }, async ({ ask, client }) => {
      const me = client();
      const got = await Promise.all(Array.from({ length: 14 }, (_, i) => outcome(ask(me, `p${i}`))));
      assert.deepEqual(got, Array(14).fill('ok'));
    });
    await withAgent({ handler: async () => 'ok', policy: { promptsPerMinute: 60, burst: 2 } }, async ({ ask, client }) => {
      const me = client();
      const got = await Promise.all(Array.from({ length: 3 }, (_, i) => outcome(ask(me, `p${i}`))));
      assert.equal(got.filter((g) => g === 'ok').length, 2);
      assert.equal(got.filter((g) => g?.code === 'RATE_LIMIT').length, 1);
    });
    const signer = LocalSigner.generate();
    await assert.rejects(serveAgent({ signer, relays: [env.relay.url], handler: async () => 'x', policy: { maxConcurrent: -1 } }), { code: 'INVALID_ARGUMENT' });
    signer.dispose();
  });
});

describe('no wait is infinite by default: prompt and ask to an agent that never answers', () => {
  const env = useNipxxRelay();

  it(`prompt() ends with RUN_INCOMPLETE after the default idle timeout (${DEFAULT_IDLE_TIMEOUT} ms), not before`, async (t) => {
    assert.equal(DEFAULT_IDLE_TIMEOUT, 120_000);
    const pool = env.newPool();
    const me = LocalSigner.generate();
    const nobody = LocalSigner.generate(); // no agent serves this key
    t.mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const run = prompt({ pool, signer: me, agent: nobody.publicKey, message: 'anyone there?' });
      assert.equal(await run.sent, true);
      t.mock.timers.tick(DEFAULT_IDLE_TIMEOUT - 1);
      await new Promise((r) => setImmediate(r));
      assert.equal(run.done, false, 'still waiting just before the timeout');
      t.mock.timers.tick(1);
      const err = await run.result.then(() => null, (e) => e);
      assert.ok(err instanceof NostrError, String(err));
      assert.equal(err.code, 'RUN_INCOMPLETE');
    } finally {
      t.mock.timers.reset();
      me.dispose();
      nobody.dispose();
    }
  });

  describe('ask', () => {
    let ctx;
    before(() => {
      ctx = cliEnv(env.relay.url);
    });
    after(() => ctx.cleanup());

    it('ask --idle-timeout 1 to a silent agent: exit 5 (timeout) with RUN_INCOMPLETE named, long before --timeout', async () => {
      assert.equal((await cli(['identity', 'new', '--profile', 'me'], { env: ctx.env })).code, 0);
      const nobody = LocalSigner.generate();
      const npub = nostr.nip19.npubEncode(nobody.publicKey);
      nobody.dispose();
      const r = await cli(['ask', npub, 'hello?', '--profile', 'me', '--idle-timeout', '1', '--json'], { env: ctx.env });
      assert.equal(r.code, 5, r.stderr);
      const last = JSON.parse(r.stdout.trim().split('\n').pop());
      assert.equal(last.type, 'terminal');
      assert.equal(last.error.code, 'RUN_INCOMPLETE');
      assert.match(r.stderr, /sent nothing for 1 s/);
      const usage = await cli(['ask', npub, 'x', '--profile', 'me', '--idle-timeout', '-1'], { env: ctx.env });
      assert.equal(usage.code, 2);
    });
  });
});

