// A NIP-XX chat client (examples/browser-chat.js): a relay pool, a throwaway key, a streamed run.
import { init, LocalSigner, RelayPool, nip19, prompt } from 'nostr-agents';

await init();
const params = new URLSearchParams(location.search);
const pool = new RelayPool({ relays: [params.get('relay') ?? 'ws://127.0.0.1:7447'] });
const signer = LocalSigner.generate();
for await (const update of prompt({ pool, signer, agent: nip19.decode(params.get('agent')).data, message: 'hi' })) {
  if (update.type === 'terminal') document.body.textContent = update.ok ? update.text : update.error.code;
}
