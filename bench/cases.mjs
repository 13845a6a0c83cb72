// The rows of the benchmark. Each row has, per library, either a builder `(n) => timedClosure`
// (the builder prepares n ops' inputs untimed; the closure runs the n ops) or a status string:
// 'n/a' (the library has no such operation) or 'pending' (ours, not implemented on this branch).
// `check(lib)` runs once, untimed, and throws unless the library's output is right.

const NOTES = {
  rustJson: { mark: '‡', text: 'rust-nostr takes a JS event object in through `Event.fromJson(JSON.stringify(obj))` (its objects live in wasm); `.free()` after use.' },
  oursSigner: { mark: '◊', text: 'ours through a `LocalSigner` (key pair and conversation keys cached in wasm per handle), the counterpart of rust-nostr\'s `Keys` / `NostrSigner`; async API, awaited one by one.' },
  rustNoCache: { mark: '†', text: 'rust-nostr has no cached-conversation-key API: `nip44Encrypt/Decrypt(secretKey, publicKey, …)` repeats the ECDH on every call.' },
  rustAsync: { mark: '§', text: 'rust-nostr gift wrap/unwrap are async (`EventBuilder.giftWrap`, `UnwrappedGift.fromGiftWrap` with a `NostrSigner.keys` signer); awaited one by one.' },
  rustPow: { mark: '¶', text: 'rust-nostr PoW is `EventBuilder.textNote(…).pow(12).signWithKeys(keys)`: it also signs (one Schnorr signature, small next to ~4096 hashes).' },
  ntPow: { mark: '¤', text: 'nostr-tools restarts its nonce count when the clock second changes; attempts before a restart are not counted (under 1 % of attempts).' },
  oursRaw: { mark: '※', text: 'raw path: the event text (sliced out of the frame) goes to the core (`verifyJson`, internal binding, not public API yet), then `JSON.parse(frame)` for the object.' },
  rustFeed: { mark: '‖', text: 'rust-nostr feed: the event text sliced out of the frame goes to `Event.fromJson(text).verify()` (no JS object is built).' },
};

const has = (obj, ...names) => obj && names.every((n) => typeof obj[n] === 'function');
const PENDING = 'pending';
const assert = (cond, msg) => {
  if (!cond) throw new Error(`check failed: ${msg}`);
};

/** Leading zero bits of a hex id. */
function powOf(hexId) {
  let bits = 0;
  for (const c of hexId) {
    const v = parseInt(c, 16);
    if (v === 0) bits += 4;
    else return bits + Math.clz32(v) - 28;
  }
  return bits;
}

const clones = (pool, n) => Array.from({ length: n }, (_, i) => ({ ...pool[i % pool.length] }));
const nowSec = () => Math.floor(Date.now() / 1000);

export function makeCases(libs, fx) {
  const { ours, oursCore, nt, nw, rust } = libs;
  const rows = [];

  // rust-nostr objects reused across ops (as a rust-nostr user would hold them).
  const rSenderKeys = new rust.Keys(rust.SecretKey.parse(Buffer.from(fx.senderSk).toString('hex')));
  const rRecipientKeys = new rust.Keys(rust.SecretKey.parse(Buffer.from(fx.recipientSk).toString('hex')));
  const rSenderSigner = rust.NostrSigner.keys(rSenderKeys);
  const rRecipientSigner = rust.NostrSigner.keys(rRecipientKeys);
  const rSenderSecret = rust.SecretKey.parse(Buffer.from(fx.senderSk).toString('hex'));
  const rRecipientPub = rust.PublicKey.parse(fx.recipientPub);
  const rSenderPub = rust.PublicKey.parse(fx.senderPub);
  const rRecipientSecret = rust.SecretKey.parse(Buffer.from(fx.recipientSk).toString('hex'));

  // ------------------------------------------------------------ keygen
  rows.push({
    key: 'keygen',
    title: 'keygen (secret key + public key)',
    impl: {
      ours: (n) => () => {
        for (let i = 0; i < n; i++) ours.getPublicKey(ours.generateSecretKey());
      },
      'nostr-tools': (n) => () => {
        for (let i = 0; i < n; i++) nt.getPublicKey(nt.generateSecretKey());
      },
      'nostr-wasm': (n) => () => {
        for (let i = 0; i < n; i++) nw.getPublicKey(nw.generateSecretKey());
      },
      'rust-nostr': (n) => () => {
        // Keys.generate() is lazy: reading publicKey derives the key pair.
        for (let i = 0; i < n; i++) {
          const k = rust.Keys.generate();
          k.publicKey.free();
          k.free();
        }
      },
    },
    check: (lib) => {
      if (lib === 'ours') {
        const sk = ours.generateSecretKey();
        assert(ours.getPublicKey(sk) === nt.getPublicKey(sk), 'ours getPublicKey = nostr-tools');
      }
    },
  });

  // ------------------------------------------------------------ sign
  const note = (i) => ({ kind: 1, created_at: fx.baseTs + i, tags: [], content: `hello nostr, this is short note #${i}` });
  rows.push({
    key: 'sign',
    title: 'sign (finalizeEvent, short note)',
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    impl: {
      ours: (n) => () => {
        for (let i = 0; i < n; i++) ours.finalizeEvent(note(i), fx.senderSk);
      },
      'nostr-tools': (n) => () => {
        for (let i = 0; i < n; i++) nt.finalizeEvent(note(i), fx.senderSk);
      },
      'nostr-wasm': (n) => () => {
        for (let i = 0; i < n; i++) nw.finalizeEvent(note(i), fx.senderSk);
      },
      'rust-nostr': (n) => () => {
        for (let i = 0; i < n; i++) rust.EventBuilder.textNote(`hello nostr, this is short note #${i}`).signWithKeys(rSenderKeys).free();
      },
    },
    check: (lib) => {
      let e;
      if (lib === 'ours') e = ours.finalizeEvent(note(7), fx.senderSk);
      else if (lib === 'nostr-tools') e = nt.finalizeEvent(note(7), fx.senderSk);
      else if (lib === 'nostr-wasm') nw.finalizeEvent((e = note(7)), fx.senderSk);
      else {
        const ev = rust.EventBuilder.textNote('hello').signWithKeys(rSenderKeys);
        e = JSON.parse(ev.asJson());
        ev.free();
      }
      assert(nt.verifyEvent({ ...e }) && e.pubkey === fx.senderPub, `${lib} signature verifies with nostr-tools`);
    },
  });

  // The same op through a held key: ours LocalSigner (key pair kept in wasm) against rust-nostr
  // signWithKeys (Keys keeps its key pair too). nostr-tools and nostr-wasm have no such object.
  let hasSigner = typeof ours.LocalSigner === 'function';
  let oursSigner = null;
  let oursRecipientSigner = null;
  if (hasSigner) {
    try {
      oursSigner = new ours.LocalSigner(fx.senderSk);
      oursRecipientSigner = new ours.LocalSigner(fx.recipientSk);
    } catch (err) {
      console.error(`  LocalSigner: ${String(err && err.message)}`);
      hasSigner = 'FAIL';
    }
  }
  const signerImpl = (impl) => (hasSigner === true ? impl : hasSigner === 'FAIL' ? 'FAIL' : PENDING);
  rows.push({
    key: 'sign-signer',
    title: 'sign, held key (ours `LocalSigner.signEvent`, awaited)',
    notes: { ours: NOTES.oursSigner },
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    impl: {
      ours: signerImpl((n) => async () => {
        for (let i = 0; i < n; i++) await oursSigner.signEvent(note(i));
      }),
      'nostr-tools': 'n/a',
      'nostr-wasm': 'n/a',
      'rust-nostr': (n) => () => {
        for (let i = 0; i < n; i++) rust.EventBuilder.textNote(`hello nostr, this is short note #${i}`).signWithKeys(rSenderKeys).free();
      },
    },
    check: async (lib) => {
      if (lib !== 'ours') return;
      const e = await oursSigner.signEvent(note(3));
      assert(nt.verifyEvent({ ...e }) && e.pubkey === fx.senderPub, 'LocalSigner signature verifies with nostr-tools');
    },
  });

  // ------------------------------------------------------------ verify
  rows.push({
    key: 'verify',
    title: 'verify (fresh event object each op)',
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    notes: { 'rust-nostr': NOTES.rustJson },
    impl: {
      ours: (n) => {
        const objs = clones(fx.verifyPool, n);
        return () => {
          for (let i = 0; i < n; i++) if (!ours.verifyEvent(objs[i])) throw new Error('ours: verify false');
        };
      },
      'nostr-tools': (n) => {
        const objs = clones(fx.verifyPool, n);
        return () => {
          for (let i = 0; i < n; i++) if (!nt.verifyEvent(objs[i])) throw new Error('nostr-tools: verify false');
        };
      },
      'nostr-wasm': (n) => {
        const objs = clones(fx.verifyPool, n);
        return () => {
          for (let i = 0; i < n; i++) nw.verifyEvent(objs[i]); // throws when invalid
        };
      },
      'rust-nostr': (n) => {
        const objs = clones(fx.verifyPool, n);
        return () => {
          for (let i = 0; i < n; i++) {
            const ev = rust.Event.fromJson(JSON.stringify(objs[i]));
            const ok = ev.verify();
            ev.free();
            if (!ok) throw new Error('rust-nostr: verify false');
          }
        };
      },
    },
    check: (lib) => {
      // A tampered event must fail (so nobody "wins" by not checking).
      const bad = { ...fx.verifyPool[0], content: fx.verifyPool[0].content + '!' };
      const badSig = { ...fx.verifyPool[0], sig: fx.verifyPool[1].sig };
      for (const e of [bad, badSig]) {
        let ok;
        if (lib === 'ours') ok = ours.verifyEvent({ ...e });
        else if (lib === 'nostr-tools') ok = nt.verifyEvent({ ...e });
        else if (lib === 'nostr-wasm') {
          try {
            nw.verifyEvent({ ...e });
            ok = true;
          } catch {
            ok = false;
          }
        } else {
          const ev = rust.Event.fromJson(JSON.stringify(e));
          ok = ev.verify();
          ev.free();
        }
        assert(ok === false, `${lib} rejects a tampered event`);
      }
    },
  });

  // ------------------------------------------------------------ relay feed
  // One op is one frame; the frames cycle through the 1,000-event feed (whole feeds per round in
  // a full run). Cells show the time per 1,000-event feed and events per second.
  const frames = fx.feedFrames;
  const F = frames.length;
  const eventText = (f) => f.slice(f.indexOf('{'), f.lastIndexOf('}') + 1);
  const feedRow = (key, title, oursImpl, notes, frames = fx.feedFrames, F = frames.length) => ({
    key,
    title,
    unit: 'feed',
    perUnit: F,
    rateLabel: 'ev/s',
    roundTo: F,
    weight: 1.5,
    notes,
    impl: {
      ours: oursImpl,
      'nostr-tools': (n) => () => {
        for (let i = 0; i < n; i++) {
          const m = JSON.parse(frames[i % F]);
          if (m[0] !== 'EVENT' || !nt.verifyEvent(m[2])) throw new Error('nostr-tools: feed verify false');
        }
      },
      'nostr-wasm': (n) => () => {
        for (let i = 0; i < n; i++) {
          const m = JSON.parse(frames[i % F]);
          if (m[0] !== 'EVENT') throw new Error('bad frame');
          nw.verifyEvent(m[2]); // throws when invalid
        }
      },
      'rust-nostr': (n) => () => {
        for (let i = 0; i < n; i++) {
          const ev = rust.Event.fromJson(eventText(frames[i % F]));
          const ok = ev.verify();
          ev.free();
          if (!ok) throw new Error('rust-nostr: feed verify false');
        }
      },
    },
  });
  rows.push(
    feedRow(
      'feed',
      'relay feed: 1,000 `["EVENT",…]` frames, JSON.parse + verifyEvent',
      (n) => () => {
        for (let i = 0; i < n; i++) {
          const m = JSON.parse(frames[i % F]);
          if (m[0] !== 'EVENT' || !ours.verifyEvent(m[2])) throw new Error('ours: feed verify false');
        }
      },
      { 'rust-nostr': NOTES.rustFeed },
    ),
  );
  rows.push(
    feedRow(
      'feed-raw',
      'relay feed, ours: raw event text → core, + JSON.parse',
      typeof oursCore.verifyJson === 'function'
        ? (n) => () => {
            for (let i = 0; i < n; i++) {
              const f = frames[i % F];
              if (oursCore.verifyJson(eventText(f)) !== 0) throw new Error('ours: verifyJson failed');
              const m = JSON.parse(f);
              if (m[0] !== 'EVENT') throw new Error('bad frame');
            }
          }
        : 'n/a',
      { ours: NOTES.oursRaw, 'rust-nostr': NOTES.rustFeed },
    ),
  );
  for (const r of rows.slice(-2)) {
    r.target = { label: '≥3× rust', peer: 'rust-nostr', min: 3 };
    // Untimed: every library accepts the first frames (the timed loops also throw on a failure).
    r.check = (lib) => r.impl[lib](100)();
  }

  // The 200-author feed: ours one event at a time, and the whole feed through verifyEvents (one
  // BIP-340 batch per chunk); the peers take their single path in both rows. ours(feed-batch) /
  // ours(feed-200) is the batch's gain over our single verification.
  const f200 = fx.feed200Frames;
  const oursBatch = typeof ours.verifyEvents === 'function';
  rows.push(
    feedRow(
      'feed-200',
      'relay feed, 200 authors: JSON.parse + verifyEvent per event',
      (n) => () => {
        for (let i = 0; i < n; i++) {
          const m = JSON.parse(f200[i % f200.length]);
          if (m[0] !== 'EVENT' || !ours.verifyEvent(m[2])) throw new Error('ours: feed verify false');
        }
      },
      { 'rust-nostr': NOTES.rustFeed },
      f200,
    ),
    feedRow(
      'feed-batch',
      'relay feed, 200 authors, ours: JSON.parse + `verifyEvents` of the feed (peers: per event)',
      oursBatch
        ? (n) => () => {
            // n frames (whole feeds in the timed rounds: roundTo), one verifyEvents call per feed
            for (let start = 0; start < n; start += f200.length) {
              const len = Math.min(f200.length, n - start);
              const events = new Array(len);
              for (let i = 0; i < len; i++) {
                const m = JSON.parse(f200[i]);
                if (m[0] !== 'EVENT') throw new Error('bad frame');
                events[i] = m[2];
              }
              if (ours.verifyEvents(events).includes(false)) throw new Error('ours: verifyEvents false');
            }
          }
        : 'pending',
      { 'rust-nostr': NOTES.rustFeed },
      f200,
    ),
  );
  rows[rows.length - 1].target = { label: '≥6× rust', peer: 'rust-nostr', min: 6 };
  for (const r of rows.slice(-2)) r.check = (lib) => r.impl[lib](r.key === 'feed-batch' && lib === 'ours' ? 1000 : 100)();

  // ------------------------------------------------------------ NIP-44
  const oursNip44 = has(ours.nip44, 'getConversationKey', 'encrypt', 'decrypt');
  rows.push({
    key: 'nip44-key',
    title: 'NIP-44 conversation key',
    impl: {
      ours: oursNip44
        ? (n) => () => {
            for (let i = 0; i < n; i++) ours.nip44.getConversationKey(fx.senderSk, fx.peerPubs[i & 63]);
          }
        : PENDING,
      'nostr-tools': (n) => () => {
        for (let i = 0; i < n; i++) nt.nip44.getConversationKey(fx.senderSk, fx.peerPubs[i & 63]);
      },
      'nostr-wasm': 'n/a',
      'rust-nostr': 'n/a',
    },
    check: (lib) => {
      if (lib !== 'ours') return;
      const a = ours.nip44.getConversationKey(fx.senderSk, fx.recipientPub);
      assert(Buffer.from(a).equals(Buffer.from(fx.conversationKey)), 'ours conversation key = nostr-tools');
    },
  });
  for (const size of ['1k', '16k']) {
    const pt = fx.plain[size];
    const label = size === '1k' ? '1 KiB' : '16 KiB';
    const target = size === '1k' ? { label: '≥3× nostr-tools', peer: 'nostr-tools', min: 3 } : null;
    rows.push({
      key: `nip44-enc-${size}`,
      title: `NIP-44 encrypt ${label} (cached conversation key)`,
      notes: { 'rust-nostr': NOTES.rustNoCache },
      target,
      impl: {
        ours: oursNip44
          ? (n) => () => {
              for (let i = 0; i < n; i++) ours.nip44.encrypt(pt, fx.conversationKey);
            }
          : PENDING,
        'nostr-tools': (n) => () => {
          for (let i = 0; i < n; i++) nt.nip44.encrypt(pt, fx.conversationKey);
        },
        'nostr-wasm': 'n/a',
        'rust-nostr': (n) => () => {
          for (let i = 0; i < n; i++) rust.nip44Encrypt(rSenderSecret, rRecipientPub, pt, rust.NIP44Version.V2);
        },
      },
      check: (lib) => {
        let p;
        if (lib === 'ours') p = ours.nip44.encrypt(pt, fx.conversationKey);
        else if (lib === 'nostr-tools') p = nt.nip44.encrypt(pt, fx.conversationKey);
        else p = rust.nip44Encrypt(rSenderSecret, rRecipientPub, pt, rust.NIP44Version.V2);
        assert(nt.nip44.decrypt(p, fx.conversationKey) === pt, `${lib} payload decrypts with nostr-tools`);
      },
    });
    const pls = fx.payloads[size];
    rows.push({
      key: `nip44-dec-${size}`,
      title: `NIP-44 decrypt ${label} (cached conversation key)`,
      notes: { 'rust-nostr': NOTES.rustNoCache },
      target,
      impl: {
        ours: oursNip44
          ? (n) => () => {
              for (let i = 0; i < n; i++) ours.nip44.decrypt(pls[i & 7], fx.conversationKey);
            }
          : PENDING,
        'nostr-tools': (n) => () => {
          for (let i = 0; i < n; i++) nt.nip44.decrypt(pls[i & 7], fx.conversationKey);
        },
        'nostr-wasm': 'n/a',
        'rust-nostr': (n) => () => {
          // The payloads are from sender to recipient; decrypting with the recipient's secret and
          // the sender's public key gives the same conversation key.
          for (let i = 0; i < n; i++) rust.nip44Decrypt(rRecipientSecret, rSenderPub, pls[i & 7]);
        },
      },
      check: (lib) => {
        let out;
        if (lib === 'ours') out = ours.nip44.decrypt(pls[0], fx.conversationKey);
        else if (lib === 'nostr-tools') out = nt.nip44.decrypt(pls[0], fx.conversationKey);
        else out = rust.nip44Decrypt(rRecipientSecret, rSenderPub, pls[0]);
        assert(out === pt, `${lib} decrypts to the plaintext`);
      },
    });
  }

  // ------------------------------------------------------------ NIP-59 gift wrap
  const oursNip59 = has(ours.nip59, 'wrapEvent', 'unwrapEvent');
  const rumorTemplate = () => ({ kind: 14, content: fx.rumorContent, tags: [['p', fx.recipientPub]], created_at: fx.baseTs });
  const rustWrap = async () => {
    const rumor = rust.EventBuilder.privateMsgRumor(rRecipientPub, fx.rumorContent).build(rSenderPub);
    return rust.EventBuilder.giftWrap(rSenderSigner, rRecipientPub, rumor, null);
  };
  rows.push({
    key: 'wrap',
    title: 'NIP-59 gift wrap (kind 14 rumor)',
    notes: { 'rust-nostr': NOTES.rustAsync },
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    weight: 1.5,
    impl: {
      ours: oursNip59
        ? (n) => () => {
            for (let i = 0; i < n; i++) ours.nip59.wrapEvent(rumorTemplate(), fx.senderSk, fx.recipientPub);
          }
        : PENDING,
      'nostr-tools': (n) => () => {
        for (let i = 0; i < n; i++) nt.nip59.wrapEvent(rumorTemplate(), fx.senderSk, fx.recipientPub);
      },
      'nostr-wasm': 'n/a',
      'rust-nostr': (n) => async () => {
        for (let i = 0; i < n; i++) (await rustWrap()).free();
      },
    },
    check: async (lib) => {
      let w;
      if (lib === 'ours') w = ours.nip59.wrapEvent(rumorTemplate(), fx.senderSk, fx.recipientPub);
      else if (lib === 'nostr-tools') w = nt.nip59.wrapEvent(rumorTemplate(), fx.senderSk, fx.recipientPub);
      else {
        const ev = await rustWrap();
        w = JSON.parse(ev.asJson());
        ev.free();
      }
      assert(w && typeof w.then !== 'function', `${lib} wrapEvent is synchronous`);
      const rumor = nt.nip59.unwrapEvent(w, fx.recipientSk);
      assert(rumor.kind === 14 && rumor.content === fx.rumorContent && rumor.pubkey === fx.senderPub, `${lib} wrap unwraps with nostr-tools`);
    },
  });
  rows.push({
    key: 'unwrap',
    title: 'NIP-59 unwrap (kind 14 rumor)',
    notes: { 'rust-nostr': NOTES.rustAsync },
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    weight: 1.5,
    impl: {
      ours: oursNip59
        ? (n) => {
            const ws = clones(fx.wraps, n);
            return () => {
              for (let i = 0; i < n; i++) ours.nip59.unwrapEvent(ws[i], fx.recipientSk);
            };
          }
        : PENDING,
      'nostr-tools': (n) => {
        const ws = clones(fx.wraps, n);
        return () => {
          for (let i = 0; i < n; i++) nt.nip59.unwrapEvent(ws[i], fx.recipientSk);
        };
      },
      'nostr-wasm': 'n/a',
      'rust-nostr': (n) => {
        const ws = clones(fx.wraps, n);
        return async () => {
          for (let i = 0; i < n; i++) {
            const ev = rust.Event.fromJson(JSON.stringify(ws[i]));
            const u = await rust.UnwrappedGift.fromGiftWrap(rRecipientSigner, ev);
            u.free();
            ev.free();
          }
        };
      },
    },
    check: async (lib) => {
      const w = { ...fx.wraps[0] };
      let content, kind;
      if (lib === 'ours') ({ content, kind } = ours.nip59.unwrapEvent(w, fx.recipientSk));
      else if (lib === 'nostr-tools') ({ content, kind } = nt.nip59.unwrapEvent(w, fx.recipientSk));
      else {
        const ev = rust.Event.fromJson(JSON.stringify(w));
        const u = await rust.UnwrappedGift.fromGiftWrap(rRecipientSigner, ev);
        const r = u.rumor;
        content = r.content;
        kind = r.kind.asU16();
        u.free();
        ev.free();
      }
      assert(kind === 14 && content === fx.rumorContent, `${lib} unwraps the rumor`);
    },
  });

  // Gift wrap / unwrap through held keys: ours LocalSigner (cached key pair and conversation
  // keys: a repeat sender or recipient costs no ECDH) against rust-nostr's NostrSigner.keys path,
  // which is the same as the row above.
  rows.push({
    key: 'wrap-signer',
    title: 'NIP-59 gift wrap, held key (ours `LocalSigner`)',
    notes: { ours: NOTES.oursSigner, 'rust-nostr': NOTES.rustAsync },
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    weight: 1.5,
    impl: {
      ours: oursNip59
        ? signerImpl((n) => async () => {
            for (let i = 0; i < n; i++) await ours.nip59.wrapEvent(rumorTemplate(), oursSigner, fx.recipientPub);
          })
        : PENDING,
      'nostr-tools': 'n/a',
      'nostr-wasm': 'n/a',
      'rust-nostr': rows.find((r) => r.key === 'wrap').impl['rust-nostr'],
    },
    check: async (lib) => {
      if (lib !== 'ours') return;
      const w = await ours.nip59.wrapEvent(rumorTemplate(), oursSigner, fx.recipientPub);
      const rumor = nt.nip59.unwrapEvent(w, fx.recipientSk);
      assert(rumor.kind === 14 && rumor.content === fx.rumorContent && rumor.pubkey === fx.senderPub, 'LocalSigner wrap unwraps with nostr-tools');
    },
  });
  rows.push({
    key: 'unwrap-signer',
    title: 'NIP-59 unwrap, held key (ours `LocalSigner`)',
    notes: { ours: NOTES.oursSigner, 'rust-nostr': NOTES.rustAsync },
    target: { label: '≥3× rust', peer: 'rust-nostr', min: 3 },
    weight: 1.5,
    impl: {
      ours: oursNip59
        ? signerImpl((n) => {
            const ws = clones(fx.wraps, n);
            return async () => {
              for (let i = 0; i < n; i++) await ours.nip59.unwrapEvent(ws[i], oursRecipientSigner);
            };
          })
        : PENDING,
      'nostr-tools': 'n/a',
      'nostr-wasm': 'n/a',
      'rust-nostr': rows.find((r) => r.key === 'unwrap').impl['rust-nostr'],
    },
    check: async (lib) => {
      if (lib !== 'ours') return;
      const r = await ours.nip59.unwrapEvent({ ...fx.wraps[0] }, oursRecipientSigner);
      assert(r.kind === 14 && r.content === fx.rumorContent, 'LocalSigner unwraps the rumor');
    },
  });

  // ------------------------------------------------------------ NIP-13 PoW
  // A different template every op. Each op's nonce search is random (about 2^12 attempts, with a
  // spread as large as the mean), so the row counts attempts (the nonce in the result) and
  // reports time per attempt × 4096: the expected time of one 12-bit PoW.
  const oursNip13 = has(ours.nip13, 'minePow');
  const DIFF = 12;
  const powSeq = { ours: 0, 'nostr-tools': 0, 'rust-nostr': 0 };
  const powTemplate = (lib) => ({ kind: 1, created_at: nowSec(), tags: [], content: `proof of work note #${powSeq[lib]++}`, pubkey: fx.senderPub });
  const nonceOf = (tags) => Number(tags.find((t) => t[0] === 'nonce')[1]);
  rows.push({
    key: 'pow',
    title: `NIP-13 PoW ${DIFF} bits (different template each op; expected time = 4096 × time per attempt)`,
    notes: { 'rust-nostr': NOTES.rustPow, 'nostr-tools': NOTES.ntPow },
    target: { label: '≥4× best peer', peer: 'best', min: 4 },
    unit: 'PoW',
    perUnit: 2 ** DIFF,
    rateLabel: 'H/s',
    weight: 2,
    maxOps: 10000,
    impl: {
      ours: oursNip13
        ? (n) => () => {
            let attempts = 0;
            for (let i = 0; i < n; i++) attempts += nonceOf(ours.nip13.minePow(powTemplate('ours'), DIFF).tags) + 1;
            return attempts;
          }
        : PENDING,
      'nostr-tools': (n) => () => {
        let attempts = 0;
        for (let i = 0; i < n; i++) attempts += nonceOf(nt.nip13.minePow(powTemplate('nostr-tools'), DIFF).tags);
        return attempts;
      },
      'nostr-wasm': 'n/a',
      'rust-nostr': (n) => () => {
        let attempts = 0;
        for (let i = 0; i < n; i++) {
          const ev = rust.EventBuilder.textNote(`proof of work note #${powSeq['rust-nostr']++}`).pow(DIFF).signWithKeys(rSenderKeys);
          attempts += nonceOf(JSON.parse(ev.asJson()).tags);
          ev.free();
        }
        return attempts;
      },
    },
    check: (lib) => {
      let id;
      if (lib === 'ours') {
        const t = powTemplate('ours');
        const e = ours.nip13.minePow(t, DIFF);
        assert(e.created_at === t.created_at, 'ours keeps created_at');
        assert(e.id === ours.getEventHash(e), 'ours id is the hash');
        id = e.id;
      } else if (lib === 'nostr-tools') id = nt.nip13.minePow(powTemplate('nostr-tools'), DIFF).id;
      else {
        const ev = rust.EventBuilder.textNote('pow check').pow(DIFF).signWithKeys(rSenderKeys);
        const j = JSON.parse(ev.asJson());
        assert(nonceOf(j.tags) > 0, 'rust-nostr has a nonce tag');
        id = j.id;
        ev.free();
      }
      assert(powOf(id) >= DIFF, `${lib} id has ${DIFF} leading zero bits`);
    },
  });

  return rows;
}
