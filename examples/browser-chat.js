// The module of browser-chat.html: a throwaway key, one relay pool, and a streamed run per message.
import { init, LocalSigner, RelayPool, nip19, prompt } from 'nostr-agents';

await init();
const params = new URLSearchParams(location.search);
const agent = nip19.decode(params.get('agent')).data; // the agent's npub, as hex
const pool = new RelayPool({ relays: [params.get('relay') ?? 'ws://127.0.0.1:7447'] });
const signer = LocalSigner.generate(); // or new Nip07Signer(): the key stays in the extension
const log = document.querySelector('#log');

document.querySelector('#chat').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = document.querySelector('#message');
  log.appendChild(document.createElement('p')).textContent = `you: ${input.value}`;
  const line = log.appendChild(document.createElement('p'));
  const run = prompt({ pool, signer, agent, message: input.value });
  input.value = '';
  for await (const update of run) {
    if (update.type === 'delta') line.textContent = `agent: ${update.text}`;
    if (update.type === 'terminal') line.textContent = update.ok ? `agent: ${update.text}` : `error: ${update.error.code}`;
  }
  line.dataset.done = 'true';
});
document.body.dataset.ready = 'true';
