// Who the page is: a NIP-07 extension (window.nostr; the page never sees the secret key) or a
// local key kept in this browser's localStorage (exportable as nsec, importable).
import { LocalSigner, Nip07Signer, bytesToHex, generateSecretKey, hexToBytes, nip19 } from '../dist/index.browser.js';

const KEY = 'nostr-agents-demo:sk';
const MODE = 'nostr-agents-demo:identity';

export const hasExtension = () => typeof window.nostr === 'object' && window.nostr !== null;

/** The remembered choice: 'nip07', 'local', or null (never chosen). */
export const savedMode = () => localStorage.getItem(MODE);

/** A NIP-07 identity: `{ mode, signer, pubkey }`. Throws SIGNER_* when the extension refuses. */
export async function useExtension() {
  const signer = new Nip07Signer();
  const pubkey = await signer.getPublicKey();
  localStorage.setItem(MODE, 'nip07');
  return { mode: 'nip07', signer, pubkey, nip44: signer.supportsNip44 };
}

/** The local identity, creating (and saving) a key the first time. */
export function useLocalKey() {
  let hex = localStorage.getItem(KEY);
  let sk;
  if (hex && /^[0-9a-f]{64}$/.test(hex)) sk = hexToBytes(hex);
  else {
    sk = generateSecretKey();
    localStorage.setItem(KEY, bytesToHex(sk));
  }
  hex = null;
  const signer = new LocalSigner(sk);
  sk.fill(0);
  localStorage.setItem(MODE, 'local');
  return { mode: 'local', signer, pubkey: signer.publicKey, nip44: true };
}

/** The saved local key as nsec (for the export box). */
export function exportLocalKey() {
  const hex = localStorage.getItem(KEY);
  if (!hex) return null;
  const sk = hexToBytes(hex);
  try {
    return nip19.nsecEncode(sk);
  } finally {
    sk.fill(0);
  }
}

/** Replaces the local key with an nsec or 64-hex key; throws NostrError for anything else. */
export function importLocalKey(text) {
  const t = text.trim();
  let sk;
  if (/^[0-9a-fA-F]{64}$/.test(t)) sk = hexToBytes(t.toLowerCase());
  else {
    const d = nip19.decode(t);
    if (d.type !== 'nsec') throw Object.assign(new Error('that is not an nsec'), { code: 'INVALID_ARGUMENT' });
    sk = d.data;
  }
  const probe = new LocalSigner(sk); // throws INVALID_SECRET_KEY for a bad key
  probe.dispose();
  localStorage.setItem(KEY, bytesToHex(sk));
  sk.fill(0);
}

/** Whether a local key is stored (tests: the NIP-07 path must never create one). */
export const hasLocalKey = () => localStorage.getItem(KEY) !== null;
