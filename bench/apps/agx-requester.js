// An AGX requester in a page: one task to a peer agent, its output.
import { init, LocalSigner, agx } from 'nostr-agents';

await init();
const params = new URLSearchParams(location.search);
const requester = new agx.AgxRequester({ signer: LocalSigner.generate(), relays: [params.get('relay') ?? 'ws://127.0.0.1:7447'] });
await requester.start();
const output = await requester.request(params.get('peer'), 'invoice.review', { amount: 4200 }, { timeout: 30_000 });
document.body.textContent = JSON.stringify(output);
