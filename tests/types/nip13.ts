// Type-checked (never run) use of nip13 and nip40.
import * as nostr from 'nostr-agents';
import type { UnsignedEvent, EventTemplate, NostrEvent } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const sk: Uint8Array = nostr.generateSecretKey();
  const unsigned: UnsignedEvent = { pubkey: nostr.getPublicKey(sk), kind: 1, tags: [], content: 'pow', created_at: 1 };
  const mined: UnsignedEvent & { id: string } = nostr.nip13.minePow(unsigned, 12);
  const bits: number = nostr.nip13.getPow(mined.id);
  const ac = new AbortController();
  const later: UnsignedEvent & { id: string } = await nostr.nip13.minePowAsync(unsigned, 16, { signal: ac.signal, start: 0 });
  const committed: number | undefined = nostr.nip13.getCommittedTarget(later);
  const ok: boolean = nostr.nip13.checkPow(later, 16, { requireCommitment: true });

  const t: EventTemplate = { kind: 1, tags: [], content: 'bye', created_at: 1 };
  const expiring: EventTemplate = nostr.nip40.withExpiration(t, 2);
  const signed: NostrEvent = nostr.finalizeEvent(expiring, sk);
  const exp: number | undefined = nostr.nip40.getExpiration(signed);
  const expired: boolean = nostr.nip40.isEventExpired(signed) || nostr.nip40.isEventExpired(signed, 5);
  console.log(bits, committed, ok, exp, expired);
}
void main();
