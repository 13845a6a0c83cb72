// Type-checked (never run) use of `nostr-agents/lite`, and that it leaves the protocol layers out.
import * as lite from 'nostr-agents/lite';
import { LocalSigner, finalizeEvent, nip44, nip59, verifyEvent, type NostrEvent } from 'nostr-agents/lite';
import { nip49 } from 'nostr-agents';

async function main(): Promise<void> {
  await lite.init();
  const sk: Uint8Array = lite.generateSecretKey();
  const ev: NostrEvent = finalizeEvent({ kind: 1, created_at: 0, tags: [], content: 'hi' }, sk);
  const ok: boolean = verifyEvent(ev) && lite.isReady();
  const signer = new LocalSigner(sk);
  const key: Uint8Array = nip44.getConversationKey(sk, ev.pubkey);
  const text: string = nip44.decrypt(nip44.encrypt('x', key), key);
  const wrap: NostrEvent = await nip59.wrapEvent({ kind: 14, created_at: 0, tags: [], content: text }, signer, ev.pubkey);
  const npub: string = lite.nip19.npubEncode(wrap.pubkey);
  const ncryptsec: string = nip49.encrypt(sk, 'passphrase', 16, 0x01);
  const back: Uint8Array = nip49.decrypt(ncryptsec, 'passphrase');
  // @ts-expect-error the key security byte is 0, 1 or 2
  nip49.encrypt(sk, 'passphrase', 16, 3);
  void back;
  // @ts-expect-error the relay pool is not part of the lite entry
  lite.RelayPool;
  // @ts-expect-error nor are the protocol layers
  lite.agx;
  // @ts-expect-error nor NIP-49 (scrypt: ~8 KB gz of WASM)
  lite.nip49;
  void ok;
  void npub;
}
void main;
