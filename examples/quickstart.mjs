// What `npm run demo` runs until the web demo lands: the package's core operations end to end,
// through the built WASM module, printing what each step did.
import {
  init,
  generateSecretKey,
  getPublicKey,
  finalizeEvent,
  verifyEvent,
  nip19,
  nip44,
  nip59,
  nip13,
  LocalSigner,
} from 'nostr-agents';

const t0 = performance.now();
await init();
console.log(`core ready in ${(performance.now() - t0).toFixed(1)} ms`);

const alice = generateSecretKey();
const bob = generateSecretKey();
const alicePub = getPublicKey(alice);
const bobPub = getPublicKey(bob);
console.log(`alice ${nip19.npubEncode(alicePub)}`);
console.log(`bob   ${nip19.npubEncode(bobPub)}`);

const note = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'hello nostr' }, alice);
console.log(`signed note ${note.id} by alice: verify -> ${verifyEvent(note)}`);
console.log(`tampered copy: verify -> ${verifyEvent({ ...note, content: 'hello nostr!' })}`);
console.log(`note as nevent: ${nip19.neventEncode({ id: note.id, author: alicePub, kind: 1 })}`);

const key = nip44.getConversationKey(alice, bobPub);
const payload = nip44.encrypt('meet at noon', key);
console.log(`NIP-44 payload (${payload.length} chars): ${payload.slice(0, 48)}...`);
console.log(`bob decrypts: ${nip44.decrypt(payload, nip44.getConversationKey(bob, alicePub))}`);

const wrap = nip59.wrapEvent({ kind: 14, created_at: Math.floor(Date.now() / 1000), tags: [['p', bobPub]], content: 'a private hello' }, alice, bobPub);
console.log(`gift wrap ${wrap.id}: kind ${wrap.kind}, one-time author ${wrap.pubkey.slice(0, 16)}..., created_at ${new Date(wrap.created_at * 1000).toISOString()}`);
const rumor = nip59.unwrapEvent(wrap, bob);
console.log(`bob unwraps: "${rumor.content}" from ${rumor.pubkey === alicePub ? 'alice' : 'someone else'}`);

const signer = LocalSigner.generate();
const viaSigner = await nip59.wrapEvent({ kind: 14, created_at: Math.floor(Date.now() / 1000), tags: [['p', bobPub]], content: 'sealed by a signer' }, signer, bobPub);
console.log(`signer-sealed wrap unwraps to: "${nip59.unwrapEvent(viaSigner, bob).content}"`);
signer.dispose();

const mined = nip13.minePow({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: 'work', pubkey: alicePub }, 12);
console.log(`mined id ${mined.id} with ${nip13.getPow(mined.id)} leading zero bits, nonce tag ${JSON.stringify(mined.tags.at(-1))}`);
