// Type-checked in a scratch project against the installed tarball (module nodenext): the published
// declarations must resolve for both entry points and be precise (the @ts-expect-error lines fail
// the check if the types degrade to `any`).
import * as nostr from 'nostr-agents';
import * as single from 'nostr-agents/single';
import type { EventTemplate, NostrEvent } from 'nostr-agents';

export async function main(): Promise<boolean> {
  await nostr.init();
  await single.init();
  const sk: Uint8Array = nostr.generateSecretKey();
  const template: EventTemplate = { kind: 1, tags: [['t', 'pkg']], content: 'hi', created_at: 1 };
  const event: NostrEvent = nostr.finalizeEvent(template, sk);
  const pk: string = single.getPublicKey(sk);
  // @ts-expect-error created_at is required
  nostr.finalizeEvent({ kind: 1, tags: [], content: 'x' }, sk);
  // @ts-expect-error verifyEvent returns a boolean
  const notAString: string = nostr.verifyEvent(event);
  try {
    nostr.assertEvent(event);
  } catch (err) {
    if (err instanceof nostr.NostrError) return err.code.length > 0;
  }
  return single.verifyEvent(event) && pk === event.pubkey && notAString !== '';
}
