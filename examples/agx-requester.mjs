// Sends one AGX task (`invoice.review`) to a responder and prints its output as JSON.
//   AGX_PEER=npub1... AGX_NSEC=nsec1... NOSTR_RELAY=ws://127.0.0.1:7447 node examples/agx-requester.mjs [amount]
// The responder must allow this key (AGX_ALLOW): a denied request gets no answer (AGX_TIMEOUT).
import { init, LocalSigner, agx, nip19 } from 'nostr-agents';

await init();
const relays = (process.env.NOSTR_RELAY ?? 'ws://127.0.0.1:7447').split(',');
const signer = process.env.AGX_NSEC ? new LocalSigner(nip19.decode(process.env.AGX_NSEC).data) : LocalSigner.generate();
console.error(`requester ${nip19.npubEncode(signer.publicKey)}`);
const client = new agx.AgxClient({ signer, relays, pollInterval: 0 });
await client.start({ advertise: false }); // a requester publishes no card; the answer comes to these relays or the responder's
try {
  const payload = { amount: Number(process.argv[2] ?? 4200) };
  const output = await client.request(process.env.AGX_PEER, 'invoice.review', payload, { timeout: Number(process.env.AGX_TIMEOUT ?? 30_000) });
  console.log(JSON.stringify(output));
} catch (err) {
  console.error(`${err.code ?? 'ERROR'}: ${err.message}`); // AGX_TIMEOUT, AGX_TASK_FAILED (err.result)...
  process.exitCode = 1;
} finally {
  await client.stop();
  signer.dispose();
}
