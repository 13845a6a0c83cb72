// Type-checked (never run) use of kinds, nip04, nip05, nip10, nip21, nip27, nip42 and nip98, as a
// nostr-tools app writes it, and which of them `nostr-agents/lite` has.
import { init, generateSecretKey, getPublicKey, finalizeEvent, kinds, nip04, nip05, nip10, nip21, nip27, nip42, nip98, LocalSigner } from 'nostr-agents';
import type { EventTemplate, NostrEvent } from 'nostr-agents';
import * as lite from 'nostr-agents/lite';

async function main(): Promise<void> {
  await init();
  const sk = generateSecretKey();
  const pk: string = getPublicKey(sk);

  const regular: boolean = kinds.isRegularKind(kinds.ShortTextNote) && kinds.isAddressableKind(kinds.LongFormArticle);
  const cls: kinds.KindClassification = kinds.classifyKind(30023);
  const note: kinds.ShortTextNote = kinds.ShortTextNote;
  const ev: NostrEvent = finalizeEvent({ kind: note, created_at: 0, tags: [], content: '' }, sk);
  if (kinds.isKind(ev, [kinds.ShortTextNote, kinds.Reaction])) {
    const k: 1 | 7 = ev.kind;
    void k;
  }

  const ciphertext: string = await nip04.encrypt(sk, pk, 'hi');
  const plain: string = await nip04.decrypt(sk, pk, ciphertext);

  const profile = await nip05.queryProfile('bob@example.com', { timeout: 3000, lookup: async () => ['93.184.216.34'] });
  const relays: string[] | undefined = profile?.relays;
  const valid: boolean = await nip05.isValid(pk, 'bob@example.com');
  const names: { [name: string]: string } = await nip05.searchDomain('example.com');
  const strict = await nip05.lookupProfile('bob@example.com', { signal: new AbortController().signal });
  const isId: boolean = nip05.isNip05('bob@example.com') && nip05.NIP05_REGEX.test('x');
  nip05.useFetchImplementation(fetch);

  const thread = nip10.parse(ev);
  const rootId: string | undefined = thread.root?.id;
  const mentionRelays: string[] = thread.mentions.flatMap((m) => m.relays);

  const uri = nip21.parse('nostr:npub1...');
  if (uri.decoded.type === 'npub') {
    const hex: string = uri.decoded.data;
    void hex;
  }
  const looks: boolean = nip21.test('nostr:x') && nip21.NOSTR_URI_REGEX.test('x');

  for (const block of nip27.parse(ev)) {
    if (block.type === 'reference') void block.pointer;
    if (block.type === 'image') void block.url;
    if (block.type === 'hashtag') void block.value;
    const at: number = block.start + block.end;
    void at;
  }

  const auth: EventTemplate = nip42.makeAuthEvent('wss://relay.example.com', 'challenge');
  const who: string = nip42.validateAuthEvent(finalizeEvent(auth, sk), 'wss://relay.example.com', 'challenge', { now: 1 });

  const token: string = await nip98.getToken('https://x.example.com/', 'post', (e) => finalizeEvent(e, sk), true, { a: 1 });
  const token2: string = await nip98.getToken('https://x.example.com/', 'put', LocalSigner.generate(), false, new Uint8Array(3));
  const ok: boolean = (await nip98.validateToken(token, 'https://x.example.com/', 'post')) && nip98.validateEventKind(ev);
  const unpacked: NostrEvent = await nip98.unpackEventFromToken(token2);
  const hash: string = nip98.hashPayload('raw body');

  const liteHas: string = await lite.nip04.encrypt(sk, pk, 'in the lite entry');
  // @ts-expect-error the other nostr-tools modules are in the main entry only
  lite.kinds;
  // @ts-expect-error
  lite.nip05;
  // @ts-expect-error
  lite.nip98;

  void [regular, cls, plain, relays, valid, names, strict, isId, rootId, mentionRelays, looks, who, ok, unpacked, hash, liteHas];
}
void main;
