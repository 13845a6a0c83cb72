// A NIP-XX AI agent in Node: publishes its ai.info, then answers every prompt by streaming a reply
// word by word. Put your model call in the handler. Run it next to a relay (`npx nostr-agents relay`):
//   NOSTR_RELAY=ws://127.0.0.1:7447 node examples/agent.mjs        (prints the agent's npub)
import { init, LocalSigner, nip19, serveAgent } from 'nostr-agents';

await init();
const relays = (process.env.NOSTR_RELAY ?? 'ws://127.0.0.1:7447').split(',');
const signer = LocalSigner.generate(); // new LocalSigner(secretKey) keeps one identity across restarts
const agent = await serveAgent({
  signer,
  relays,
  info: { name: 'echo agent', supported_models: ['echo-1'], default_model: 'echo-1', tool_names: [] },
  async *handler({ message, signal }) {
    const words = `You said: ${message}`.split(' ');
    for (let i = 0; i < words.length && !signal.aborted; i++) yield (i ? ' ' : '') + words[i];
  },
});
console.log(`agent ${nip19.npubEncode(agent.pubkey)} listening on ${relays.join(', ')}`);
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => agent.stop().then(() => signer.dispose()));
