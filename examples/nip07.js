// The module of nip07.html: Nip07Signer is a Signer like LocalSigner, backed by window.nostr.
import { init, Nip07Signer, RelayPool, nip19 } from 'nostr-agents';

await init();
const relay = new URLSearchParams(location.search).get('relay') ?? 'ws://127.0.0.1:7447';
const show = (text) => (document.querySelector('#out').textContent += text + '\n');

document.querySelector('#publish').addEventListener('click', async () => {
  const signer = new Nip07Signer(); // window.nostr, looked up at each call
  if (!signer.available) return show('No NIP-07 extension found (window.nostr).');
  try {
    const pubkey = await signer.getPublicKey();
    show(`signed in as ${nip19.npubEncode(pubkey)}`);
    const content = document.querySelector('#note').value;
    const note = await signer.signEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content });
    const pool = new RelayPool({ relays: [relay] });
    const [outcome] = await pool.publish(note);
    pool.close();
    show(`note ${note.id}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
    if (signer.supportsNip44) show(`NIP-44 to self: ${await signer.nip44Decrypt(pubkey, await signer.nip44Encrypt(pubkey, 'ok'))}`);
  } catch (err) {
    show(`${err.code ?? 'ERROR'}: ${err.message}`); // SIGNER_REJECTED when the user says no
  }
});
document.body.dataset.ready = 'true';
