// A relay that never pushes live events (stored events and EOSE only, like the AGX reference's dev
// relay, tests/support/no-push-relay.js): the live subscription brings nothing, so answers come by
// polls. While a request waits the requester polls after pendingPollInterval (3 s by default) and
// backs off, so the request resolves well within its timeout although the catch-up interval is the
// default 60 s (before, `agx request` timed out there). The CLI's --poll-interval sets it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, until } from './agx-helpers.js';
import { startNoPushRelay } from '../support/no-push-relay.js';
import { cli, cliEnv, startCli } from './cli-helpers.js';

const { agx, LocalSigner, RelayPool, finalizeEvent, generateSecretKey } = nostr;

describe('AGX on a relay that never pushes', () => {
  let relay;
  const stops = [];
  before(async () => {
    relay = await startNoPushRelay();
  });
  after(async () => {
    for (const f of stops.reverse()) await f();
    await relay.close();
  });

  it('the relay answers a REQ with stored events and EOSE, and never pushes a later event', async () => {
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false });
    try {
      const live = [];
      let eose = false;
      const sub = pool.subscribe([{ kinds: [1] }], { onevent: (e) => live.push(e), oneose: () => (eose = true) });
      await until(() => eose, 'EOSE');
      const ev = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'later' }, generateSecretKey());
      const [r] = await pool.publish(ev);
      assert.equal(r.status, 'accepted');
      // a fresh REQ finds it: the relay stored it ...
      assert.deepEqual((await pool.query([{ ids: [ev.id] }])).map((e) => e.id), [ev.id]);
      // ... and the subscription open all along never got it
      assert.equal(live.length, 0);
      sub.close();
    } finally {
      await pool.close();
    }
  });

  it('a request resolves within its timeout: the requester polls while it waits', async () => {
    const served = LocalSigner.generate();
    const asking = LocalSigner.generate();
    // The serving side polls often (it has no request of its own waiting); the requester keeps the
    // default catch-up interval (60 s): only its short polls can bring the answer in time.
    const alice = new agx.AgxClient({ signer: served, relays: [relay.url], authorize: 'accept-all', pollInterval: 500, onWarning: () => {} });
    alice.handle('echo', (payload) => ({ echo: payload }));
    const bob = new agx.AgxRequester({ signer: asking, relays: [relay.url] });
    stops.push(async () => {
      await bob.stop();
      await alice.stop();
      served.dispose();
      asking.dispose();
    });
    await alice.start({ advertise: false });
    await bob.start();
    const updates = [];
    const out = await bob.request(served.publicKey, 'echo', { n: 42 }, { timeout: 25_000, onUpdate: (u) => updates.push(u) });
    assert.deepEqual(out, { echo: { n: 42 } });
    assert.equal(bob.pendingCount, 0);
  });

  it('without the short polls (pendingPollInterval: 0) the answer sits on the relay until a poll', async () => {
    const served = LocalSigner.generate();
    const asking = LocalSigner.generate();
    const alice = new agx.AgxClient({ signer: served, relays: [relay.url], authorize: 'accept-all', pollInterval: 500, onWarning: () => {} });
    alice.handle('echo', (payload) => ({ echo: payload }));
    const bob = new agx.AgxRequester({ signer: asking, relays: [relay.url], pendingPollInterval: 0 });
    stops.push(async () => {
      await bob.stop();
      await alice.stop();
      served.dispose();
      asking.dispose();
    });
    await alice.start({ advertise: false });
    await bob.start();
    let settled = false;
    const answer = bob.request(served.publicKey, 'echo', 'late', { timeout: 60_000 }).finally(() => (settled = true));
    // the result is on the relay ...
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false });
    try {
      await until(async () => {
        const wraps = await pool.query([{ kinds: [1059], '#p': [asking.publicKey] }]);
        return wraps.some((w) => agx.unwrapAgx(w, asking).class === 'task-result');
      }, 'the result published');
    } finally {
      await pool.close();
    }
    // ... and bob, reading a relay that does not push and making no short polls, has not seen it
    assert.equal(settled, false);
    assert.equal(bob.pendingCount, 1);
    // a poll brings it
    const polled = await bob.poll();
    assert.ok(polled.processed >= 1);
    assert.deepEqual(await answer, { echo: 'late' });
  });

  describe('CLI', () => {
    let ctx;
    before(() => (ctx = cliEnv(relay.url)));
    after(() => ctx?.cleanup());

    it('request --poll-interval: answered on a relay that never pushes, from serve --poll-interval', async () => {
      for (const p of ['srv', 'cli']) assert.equal((await cli(['identity', 'new', '--profile', p], { env: ctx.env })).code, 0);
      const server = JSON.parse((await cli(['identity', 'show', '--profile', 'srv', '--json'], { env: ctx.env })).stdout).npub;
      const s = startCli(['serve', '--profile', 'srv', '--allow-all', '--poll-interval', '0.5'], { env: ctx.env });
      try {
        await s.waitFor(/serving npub1/);
        const r = await cli(['request', server, 'invoice.review', '--payload', '{"amount":12}', '--timeout', '25', '--poll-interval', '1', '--profile', 'cli', '--json'], {
          env: ctx.env,
        });
        assert.equal(r.code, 0, r.stderr);
        const line = JSON.parse(r.stdout.trim().split('\n').pop());
        assert.equal(line.ok, true);
        assert.equal(line.output.approved, true);
        const bad = await cli(['request', server, 'invoice.review', '--poll-interval=-1', '--profile', 'cli'], { env: ctx.env });
        assert.equal(bad.code, 2, 'a negative interval is a usage error');
        assert.match(bad.stderr, /--poll-interval must be a number >= 0/);
      } finally {
        await s.stop();
      }
    });
  });
});
