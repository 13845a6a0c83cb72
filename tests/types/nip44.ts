// Type-checked (never run) use of nip44, with nostr-tools' names.
import * as nostr from 'nostr-agents';
import { nip44 } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const sk: Uint8Array = nostr.generateSecretKey();
  const pk: string = nostr.getPublicKey(nostr.generateSecretKey());
  const ck: Uint8Array = nip44.getConversationKey(sk, pk);
  const payload: string = nip44.encrypt('hi', ck);
  const fixed: string = nip44.encrypt('hi', ck, new Uint8Array(32));
  const text: string = nip44.decrypt(payload, ck);
  const padded: number = nip44.calcPaddedLen(text.length);
  const v2: string = nip44.v2.decrypt(nip44.v2.encrypt('x', nip44.v2.utils.getConversationKey(sk, pk)), ck);
  const same: number = nip44.v2.calcPaddedLen(1) + nip44.v2.utils.calcPaddedLen(2);
  try {
    nip44.decrypt('#', ck);
  } catch (err) {
    if (err instanceof nostr.NostrError && err.code === 'NIP44_INVALID_MAC') console.log(err.message);
  }
  console.log(fixed, padded, v2, same);
}
void main();
