// An AGX agent that answers `invoice.review` tasks, only from the peers it allows (AGX is
// default-deny), and prints plain messages. It prints its npub; give that to the requester:
//   AGX_ALLOW=npub1...[,npub1...] NOSTR_RELAY=ws://127.0.0.1:7447 node examples/agx-responder.mjs
// AGX_NSEC=nsec1... keeps one identity across restarts (else a new key each run).
import { init, LocalSigner, agx, nip19 } from 'nostr-agents';

await init();
const relays = (process.env.NOSTR_RELAY ?? 'ws://127.0.0.1:7447').split(',');
const allowed = new Set((process.env.AGX_ALLOW ?? '').split(',').filter(Boolean).map((npub) => nip19.decode(npub).data));
const signer = process.env.AGX_NSEC ? new LocalSigner(nip19.decode(process.env.AGX_NSEC).data) : LocalSigner.generate();
const client = new agx.AgxClient({ signer, relays, authorize: ({ from }) => allowed.has(from) });
client.handle('invoice.review', async ({ amount }, { from }) => {
  console.log(`invoice.review from ${nip19.npubEncode(from)}: amount ${amount}`);
  return { approved: amount < 10_000 };
});
client.onMessage((m) => console.log(`message from ${nip19.npubEncode(m.from)}: ${m.text}${m.reason ? ` (${m.reason})` : ''}`));
await client.start(); // also advertises its Agent Card and NIP-65 relay list (start({ advertise: false }) stays unlisted)
console.log(`responder ${nip19.npubEncode(signer.publicKey)} listening on ${relays.join(', ')}`);
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => client.stop().then(() => signer.dispose()));
