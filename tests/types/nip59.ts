// Type-checked (never run) use of nip59 and the signers: sync with a key, Promises with a Signer.
import * as nostr from 'nostr-agents';
import { nip59, LocalSigner, Nip07Signer } from 'nostr-agents';
import type { NostrEvent, Signer, WindowNostr } from 'nostr-agents';
type Rumor = nip59.Rumor;

async function main(): Promise<void> {
  await nostr.init();
  const sk: Uint8Array = nostr.generateSecretKey();
  const pk: string = nostr.getPublicKey(nostr.generateSecretKey());

  // Secret key: synchronous, nostr-tools' shapes.
  const rumor = nip59.createRumor({ kind: 14, content: 'hi', tags: [['p', pk]] }, sk);
  const id: string = rumor.id;
  const seal: NostrEvent = nip59.createSeal(rumor, sk, pk, { now: 1 });
  const wrap: NostrEvent = nip59.createWrap(seal, pk, [['expiration', '2']]);
  const w2: NostrEvent = nip59.wrapEvent({ kind: 14, content: 'x' }, sk, pk, { extraTags: [['nonce', '1']] });
  const ws: NostrEvent[] = nip59.wrapManyEvents({ kind: 14, content: 'x' }, sk, [pk]);
  const back = nip59.unwrapEvent(wrap, sk, { requireRecipientTag: true });
  const content: string = back.content;
  const all = nip59.unwrapManyEvents([wrap, w2, ...ws], sk);
  const n: number = all.length;

  // Signers: the same calls, awaited.
  const local = new LocalSigner(sk);
  const gen: LocalSigner = LocalSigner.generate();
  const mine: string = local.publicKey;
  const ext: WindowNostr = {
    getPublicKey: async () => pk,
    signEvent: async (t) => nostr.finalizeEvent(t, sk),
  };
  const signers: Signer[] = [local, new Nip07Signer(ext), new Nip07Signer()];
  for (const s of signers) {
    const r: Rumor = await nip59.createRumor({ kind: 1 }, s);
    const sl: NostrEvent = await nip59.createSeal(r, s, pk);
    const wp: NostrEvent = await nip59.wrapEvent({ kind: 1, content: 'x' }, s, pk, { now: 5 });
    const wm: NostrEvent[] = await nip59.wrapManyEvents({ kind: 1 }, s, [pk]);
    const u: Rumor = await nip59.unwrapEvent(wp, s);
    const us: Rumor[] = await nip59.unwrapManyEvents(wm, s, { requireRecipientTag: false });
    console.log(sl, u, us);
  }
  const nip07 = new Nip07Signer();
  const ok: boolean = nip07.available && nip07.supportsNip44;
  const isOne: boolean = nostr.isSigner(local);
  local.dispose();
  gen.dispose();
  try {
    await local.getPublicKey();
  } catch (err) {
    if (err instanceof nostr.NostrError && err.code === 'SIGNER_DISPOSED') console.log(err.message);
  }
  console.log(id, content, n, mine, ok, isOne, nip59.GIFT_WRAP_KIND, nip59.SEAL_KIND);
}
void main();
