// AGX beyond one shared relay (NIP-65 outbox routing): every wrap goes to our relays plus the
// recipient's inbox relays; agents that share no relay find each other's lists on a third
// (discovery) relay; a recipient without a list still gets ours; only wss:// public relays count
// unless local ones are allowed; a requester that never advertised still gets its answers (polls
// read the peer's outbox relays while the request waits). Real relays over real WebSockets: our
// dev relay and @nostr-relay/core (third-party) in a child process.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nostr, until } from './agx-helpers.js';
import { startDevRelay, startThirdPartyRelay } from '../support/relays.js';

const { agx, LocalSigner, RelayPool } = nostr;

describe('AGX outbox routing over disjoint relays', () => {
  let aliceRelay; // only alice reads it
  let bobRelay; // only bob reads it (third-party)
  let index; // where both relay lists can be found
  let carolRelay;
  const stops = [];
  before(async () => {
    [aliceRelay, index, carolRelay] = await Promise.all([
      startDevRelay({ memory: true, agxPolicy: true }),
      startDevRelay({ memory: true }),
      startDevRelay({ memory: true, agxPolicy: true }),
    ]);
    bobRelay = await startThirdPartyRelay();
  });
  after(async () => {
    for (const f of stops.reverse()) await f();
    await Promise.all([aliceRelay, bobRelay, index, carolRelay].map((r) => r?.close()));
  });

  // An agent on its own relay that looks lists up (and advertises its own) on the index too.
  function agent(relay, opts = {}) {
    const signer = opts.signer ?? LocalSigner.generate();
    const inbox = [];
    const c = new agx.AgxClient({
      signer,
      relays: [relay.url],
      discoveryRelays: [index.url],
      allowLocalRelays: true, // the test relays are on 127.0.0.1
      authorize: 'accept-all',
      pollInterval: 0,
      onWarning: () => {},
      onMessage: (m) => {
        inbox.push(m);
        return opts.autoReply ? `re: ${m.text}` : undefined;
      },
      ...opts.client,
    });
    c.handle('echo', (payload, ctx) => ({ echo: payload, by: ctx.capability }));
    stops.push(async () => {
      await c.stop();
      signer.dispose();
    });
    return { c, signer, pk: signer.publicKey, inbox };
  }

  // Everything stored on a relay, by kind.
  async function stored(relay, filter) {
    const pool = new RelayPool({ relays: [relay.url], relayInfo: false });
    try {
      return await pool.query([filter], { maxWait: 5000 });
    } finally {
      await pool.close();
    }
  }

  it('two agents on disjoint relays find each other through a third relay and complete tasks and messages both ways', async () => {
    const alice = agent(aliceRelay, { autoReply: true });
    const bob = agent(bobRelay, { autoReply: true });
    const [a, b] = await Promise.all([alice.c.start(), bob.c.start()]);
    // start() advertised: card and relay list on the agent's relay and on the index
    assert.equal(a.relayList.event.kind, 10002);
    assert.deepEqual(b.relayList.event.tags, [['r', bobRelay.url]]);
    const onIndex = await stored(index, { kinds: [10002, 11337], authors: [alice.pk, bob.pk] });
    assert.equal(onIndex.length, 4, 'both lists and both cards are on the index');
    assert.deepEqual(await alice.c.relaysFor(bob.pk), [aliceRelay.url, bobRelay.url]);
    assert.deepEqual(await bob.c.relaysFor(nostr.nip19.npubEncode(alice.pk)), [bobRelay.url, aliceRelay.url]);

    // tasks, both ways (request, receipt, result: each wrap reaches the other's relay)
    assert.deepEqual(await bob.c.request(alice.pk, 'echo', { n: 1 }, { timeout: 20_000 }), { echo: { n: 1 }, by: 'echo' });
    assert.deepEqual(await alice.c.request(bob.pk, 'echo', { n: 2 }, { timeout: 20_000 }), { echo: { n: 2 }, by: 'echo' });

    // messages, both ways, each answered automatically by the other side
    const sent = await alice.c.send(bob.pk, 'hello bob');
    assert.deepEqual(sent.results.map((r) => [r.relay, r.status]), [[aliceRelay.url, 'accepted'], [bobRelay.url, 'accepted']]);
    await until(() => bob.inbox.some((m) => m.text === 'hello bob'), 'bob gets alice\'s message');
    await until(() => alice.inbox.some((m) => m.text === 're: hello bob'), "alice gets bob's automated reply");
    await bob.c.send(alice.pk, 'hello alice');
    await until(() => alice.inbox.some((m) => m.text === 'hello alice'), 'alice gets bob\'s message');
    await until(() => bob.inbox.some((m) => m.text === 're: hello alice'), "bob gets alice's automated reply");

    // what bob wrote reached alice's relay, and the other way round
    const onAlice = await stored(aliceRelay, { kinds: [1059], '#p': [alice.pk] });
    const onBob = await stored(bobRelay, { kinds: [1059], '#p': [bob.pk] });
    assert.ok(onAlice.length >= 4 && onBob.length >= 4, `${onAlice.length} wraps for alice on hers, ${onBob.length} for bob on his`);
  });

  it('a recipient without a relay list still gets ours (and answers on ours)', async () => {
    const alice = agent(aliceRelay);
    const carol = agent(aliceRelay, { client: { discoveryRelays: [] } }); // shares alice's relay, advertises nothing
    await Promise.all([alice.c.start(), carol.c.start({ advertise: false })]);
    assert.equal((await stored(index, { kinds: [10002], authors: [carol.pk] })).length, 0);
    assert.deepEqual(await alice.c.relaysFor(carol.pk), [aliceRelay.url]);
    const sent = await alice.c.send(carol.pk, 'no list, no problem');
    assert.deepEqual(sent.results.map((r) => r.relay), [aliceRelay.url]);
    await until(() => carol.inbox.some((m) => m.text === 'no list, no problem'), 'carol gets it on our relay');
    // and her request to alice is answered where carol reads
    assert.deepEqual(await carol.c.request(alice.pk, 'echo', 'hi', { timeout: 20_000 }), { echo: 'hi', by: 'echo' });
  });

  it('a requester that never advertised gets its answer from the peer\'s outbox relays', async () => {
    const alice = agent(aliceRelay);
    await alice.c.start();
    const signer = LocalSigner.generate();
    const frank = new agx.AgxRequester({ signer, relays: [carolRelay.url], discoveryRelays: [index.url], allowLocalRelays: true, pollInterval: 0 });
    stops.push(async () => {
      await frank.stop();
      signer.dispose();
    });
    await frank.start();
    assert.equal((await stored(index, { kinds: [10002], authors: [signer.publicKey] })).length, 0);
    // alice publishes the result to her relays (and frank's list: none); frank reads alice's
    // write relays while his request waits (pendingPollInterval's polls)
    assert.deepEqual(await frank.request(alice.pk, 'echo', 7, { timeout: 20_000 }), { echo: 7, by: 'echo' });
  });
});

describe('AGX relay lists are checked before we connect', () => {
  let relay;
  let pool;
  const signers = [];
  const key = () => {
    const s = LocalSigner.generate();
    signers.push(s);
    return s;
  };
  before(async () => {
    relay = await startDevRelay({ memory: true });
    pool = new RelayPool({ relays: [relay.url], relayInfo: false });
  });
  after(async () => {
    await pool.close();
    await relay.close();
    for (const s of signers) s.dispose();
  });

  it('only wss:// relays on public hosts count, by spelling and by DNS; local ones only when allowed', async () => {
    const dave = key();
    await agx.publishRelayList(dave, pool, {
      relays: [
        'ws://127.0.0.1:7447',
        'wss://localhost',
        'wss://10.1.2.3',
        'wss://printer.local',
        'ws://relay.example.com',
        'wss://rebinds.example.com', // DNS: a private address
        'wss://gone.example.com', // DNS: no answer
        'wss://public.example.com', // DNS: a public address
        { url: 'wss://write-only.example.com', read: false },
      ],
      relaysToPublish: [relay.url],
    });
    const asked = [];
    const lookup = async (host) => {
      asked.push(host);
      if (host === 'rebinds.example.com') return ['93.184.216.34', '192.168.1.20'];
      if (host === 'public.example.com') return ['93.184.216.34'];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const erin = key();
    const strict = new agx.AgxRequester({ signer: erin, pool, relays: [relay.url], lookup, pollInterval: 0 });
    assert.deepEqual(await strict.relaysFor(dave.publicKey), [relay.url, 'wss://public.example.com']);
    // only names that passed the spelling rules reached DNS, each once
    assert.deepEqual(asked.sort(), ['gone.example.com', 'public.example.com', 'rebinds.example.com', 'write-only.example.com']);
    await strict.stop();

    const dev = new agx.AgxRequester({ signer: erin, pool, relays: [relay.url], allowLocalRelays: true, pollInterval: 0, lookup });
    assert.deepEqual((await dev.relaysFor(dave.publicKey)).slice(0, 4), [relay.url, 'ws://127.0.0.1:7447', 'wss://localhost', 'wss://10.1.2.3']);
    await dev.stop();
  });

  it('a list is looked up once, cached, and a long one is cut to ten relays', async () => {
    const gina = key();
    const many = Array.from({ length: 40 }, (_, i) => `wss://r${i}.example.com`);
    await agx.publishRelayList(gina, pool, { relays: many, relaysToPublish: [relay.url] });
    let lookups = 0;
    const counting = new Proxy(pool, {
      get(target, prop) {
        if (prop === 'query')
          return (filters, opts) => {
            if (filters[0].kinds?.includes(10002)) lookups++;
            return target.query(filters, opts);
          };
        const v = target[prop];
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const r = new agx.AgxRequester({ signer: key(), pool: counting, relays: [relay.url], lookup: async () => ['93.184.216.34'], pollInterval: 0 });
    const [first, second] = await Promise.all([r.relaysFor(gina.publicKey), r.relaysFor(gina.publicKey)]);
    assert.deepEqual(first, [relay.url, ...many.slice(0, 10)]);
    assert.deepEqual(second, first);
    assert.deepEqual(await r.relaysFor(gina.publicKey), first);
    assert.equal(lookups, 1, 'one lookup for three asks');
    await r.stop();
  });
});
