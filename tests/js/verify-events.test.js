// verifyEvents (BIP-340 batch verification in the core, single checks where a batch fails)
// against verifyEvent and nostr-tools' verifyEvent on random batches of 1 to 4,096 events with
// planted bad signatures, bad ids, keys swapped between events, malformed fields and repeats;
// and RelayPool delivering a relay's backlog through the batch path: exactly the valid events,
// in order, the bad ones dropped by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyEvent as ntVerify } from 'nostr-tools/pure';
import { nostr, prng, randomText } from './helpers.js';
import { pool, startScriptedRelay, until, now } from './pool-helpers.js';

const { verifyEvents, verifyEvent, finalizeEvent, generateSecretKey } = nostr;

function signedEvents(rand, n, keys) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const sk = keys[Math.floor(rand() * keys.length)];
    out.push(finalizeEvent({ kind: 1 + (i % 3), created_at: 1_700_000_000 + i, tags: [['t', String(i)]], content: randomText(rand, 60) }, sk));
  }
  return out;
}

const flip = (hex, at) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

// Damages event i in one of several ways; some keep it valid-shaped, some do not.
function plant(rand, events, i) {
  const e = { ...events[i] };
  const other = events[Math.floor(rand() * events.length)];
  switch (Math.floor(rand() * 10)) {
    case 0: e.sig = flip(e.sig, 64 + Math.floor(rand() * 64)); break; // s
    case 1: e.sig = flip(e.sig, Math.floor(rand() * 64)); break; // r
    case 2: e.content += 'x'; break; // id mismatch
    case 3: e.pubkey = other.pubkey; break; // another (repeated) key: id mismatch or bad signature
    case 4: e.sig = other.sig; break;
    case 5: e.id = e.id.toUpperCase(); break;
    case 6: e.sig = 'é' + e.sig.slice(1); break; // non-ASCII in a hex field
    case 7: e.sig = 'f'.repeat(128); break; // r and s out of range
    case 8: events[i] = i % 2 ? null : { ...e, tags: 'nope' }; return;
    default: e.id = other.id; break;
  }
  events[i] = e;
}

test('verifyEvents agrees with verifyEvent and nostr-tools on random batches with planted faults', () => {
  const rand = prng(0x340);
  const keys = Array.from({ length: 200 }, () => generateSecretKey());
  let bad = 0;
  for (const n of [1, 2, 3, 4, 17, 100, 513, 1500, 4096]) {
    const some = keys.slice(0, 1 + Math.floor(rand() * keys.length));
    const events = signedEvents(rand, n, some);
    const faults = n < 4 ? n - 1 : Math.floor(n / 20) + 1;
    for (let k = 0; k < faults; k++) plant(rand, events, Math.floor(rand() * n));
    if (n > 10) events.push(events[3], events[3]); // repeats
    const got = verifyEvents(events);
    assert.equal(got.length, events.length);
    for (let i = 0; i < events.length; i++) {
      const single = verifyEvent(events[i]);
      assert.equal(got[i], single, `event ${i} of ${events.length}`);
      const e = events[i];
      // nostr-tools (pure JS, slow) on the small batches and, in the large ones, on every bad event and a sample
      if (e && typeof e === 'object' && (n <= 513 || !single || i % 16 === 0))
        assert.equal(got[i], ntVerify({ ...e }), `nostr-tools on event ${i}`);
      bad += single ? 0 : 1;
    }
  }
  assert.ok(bad > 100, `planted faults were rejected (${bad})`);
});

test('verifyEvents of valid events from one author and an empty list', () => {
  const sk = generateSecretKey();
  const events = signedEvents(prng(7), 700, [sk]);
  assert.deepEqual(verifyEvents(events), events.map(() => true));
  assert.deepEqual(verifyEvents([]), []);
  // the last event of the second chunk bad: only it is named
  events[699] = { ...events[699], sig: flip(events[699].sig, 127) };
  const got = verifyEvents(events);
  assert.equal(got.indexOf(false), 699);
  assert.equal(got.filter((x) => !x).length, 1);
  assert.throws(() => verifyEvents('x'), { code: 'INVALID_ARGUMENT' });
});

test('RelayPool verifies a backlog together: exactly the valid events, in order, bad ones dropped', async () => {
  const rand = prng(0xb10c);
  const keys = Array.from({ length: 20 }, () => generateSecretKey());
  const base = now() - 1000;
  const events = Array.from({ length: 400 }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: base + i, tags: [], content: randomText(rand, 200) }, keys[i % 20]));
  const frames = [];
  const expected = [];
  const badIds = new Set();
  events.forEach((e, i) => {
    if (i % 37 === 5) {
      const forged = { ...e, sig: flip(e.sig, 100) };
      badIds.add(forged.id);
      frames.push(forged); // a forged copy first: dropped, and it must not shadow the real one
    }
    frames.push(e);
    expected.push(e.id);
    if (i % 50 === 7) frames.push(e); // a duplicate
  });
  const relay = await startScriptedRelay((ws, msg) => {
    if (!Array.isArray(msg) || msg[0] !== 'REQ') return;
    for (const e of frames) ws.send(JSON.stringify(['EVENT', msg[1], e]));
    ws.send(JSON.stringify(['EOSE', msg[1]]));
  });
  const p = pool({ relays: [relay.url], relayInfo: false });
  const drops = [];
  p.on('drop', (d) => drops.push(d));
  try {
    const got = [];
    let eose = false;
    const sub = p.subscribe({ kinds: [1] }, { onevent: (e) => got.push(e), oneose: () => (eose = true) });
    await until(() => eose, 'EOSE');
    sub.close();
    assert.deepEqual(got.map((e) => e.id), expected);
    for (const e of got) assert.equal(e[nostr.verifiedSymbol], true);
    const sigDrops = drops.filter((d) => d.reason === 'bad-signature');
    assert.equal(sigDrops.length, badIds.size);
    for (const d of sigDrops) {
      assert.ok(badIds.has(d.eventId));
      assert.equal(d.code, 'INVALID_SIGNATURE');
    }
    assert.equal(drops.filter((d) => d.reason === 'duplicate').length, 8);
    assert.ok(p.stats.batched > 100, `the backlog went through the batch path (${p.stats.batched} frames)`);
  } finally {
    await p.close();
    await relay.close();
  }
});
