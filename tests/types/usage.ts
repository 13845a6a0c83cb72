// Type-checked (never run) use of the public API: tsc fails the test run if the declarations
// and this usage disagree.
import * as nostr from 'nostr-agents';
import type { NostrEvent, EventTemplate, Filter } from 'nostr-agents';

async function main(): Promise<void> {
  await nostr.init();
  const sk: Uint8Array = nostr.generateSecretKey();
  const pk: string = nostr.getPublicKey(sk);
  const t: EventTemplate = { kind: 1, tags: [['p', pk]], content: 'hi', created_at: 1 };
  const e: NostrEvent = nostr.finalizeEvent(t, sk);
  const ok: boolean = nostr.verifyEvent(e);
  const f: Filter = { kinds: [1], '#p': [pk] };
  const m: boolean = nostr.matchFilter(f, e);
  const id: string = nostr.getEventHash(e);
  try {
    nostr.assertEvent(e);
  } catch (err) {
    if (err instanceof nostr.NostrError) console.log(err.code);
  }
  console.log(ok, m, id);
}
void main();
