// Who the page is: a NIP-07 extension (window.nostr; the page never sees the secret key), or a
// local key. A local key lives in this tab only (memory: a reload or another tab does not see
// it) unless the user chooses to remember it; then it is kept in localStorage as a NIP-49
// ncryptsec under a passphrase, and a later visit asks for the passphrase to unlock it. No secret
// is ever stored in plain text: on a shared origin every other page there could read it.
// NIP-49 (scrypt) runs in a WASM module of its own, loaded only then (./nip49-lazy.js).
import { LocalSigner, Nip07Signer, generateSecretKey, hexToBytes, nip19 } from '../dist/index.browser.js';

const NCRYPTSEC = 'nostr-agents-demo:ncryptsec';
const MODE = 'nostr-agents-demo:identity';
const LEGACY = 'nostr-agents-demo:sk'; // where versions before NIP-49 kept the key, in hex
// NIP-49's recommended work for new keys: 64 MiB of scrypt, a second or so in a browser.
const LOG_N = 16;

export const hasExtension = () => typeof window.nostr === 'object' && window.nostr !== null;

/** The remembered choice: 'nip07', 'local', or null (never chosen). */
export const savedMode = () => localStorage.getItem(MODE);

/** Whether a key is remembered (encrypted) in this browser. */
export const hasRememberedKey = () => localStorage.getItem(NCRYPTSEC) !== null;

// The tab's local key. Its bytes stay in this module (memory only) because exporting it and
// remembering it need them; `exposed`: the key was seen in the clear (imported, exported, or the
// old plain-text copy), which NIP-49's key security byte records; `remembered`: it is the key
// stored as an ncryptsec.
let tab = null;

function adopt(sk, { exposed, remembered }) {
  const signer = new LocalSigner(sk); // throws INVALID_SECRET_KEY for a bad key
  tab?.sk.fill(0);
  tab = { sk, exposed, remembered };
  localStorage.setItem(MODE, 'local');
  return { mode: 'local', signer, pubkey: signer.publicKey, nip44: true };
}

/** Whether the tab's key is the remembered one (null without a tab key). */
export const tabKeyRemembered = () => (tab ? tab.remembered : null);

/** A NIP-07 identity: `{ mode, signer, pubkey }`. Throws SIGNER_* when the extension refuses. */
export async function useExtension() {
  const signer = new Nip07Signer();
  const pubkey = await signer.getPublicKey();
  localStorage.setItem(MODE, 'nip07');
  tab?.sk.fill(0);
  tab = null;
  return { mode: 'nip07', signer, pubkey, nip44: signer.supportsNip44 };
}

/** A fresh key for this tab only (nothing is stored). */
export function useTabKey() {
  return adopt(generateSecretKey(), { exposed: false, remembered: false });
}

/**
 * The key an older version of the page left in localStorage in hex: taken into the tab and
 * removed from storage at once. Null when there is none (an unusable one is removed as well).
 */
export function takeLegacyKey() {
  const hex = localStorage.getItem(LEGACY);
  if (hex === null) return null;
  localStorage.removeItem(LEGACY);
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  try {
    return { ...adopt(hexToBytes(hex), { exposed: true, remembered: false }), legacy: true };
  } catch {
    return null;
  }
}

let nip49Module = null;
/** NIP-49 from its own lazily loaded module (a fresh instance each time: scrypt's memory goes with it). */
async function loadNip49() {
  nip49Module ??= import('./nip49-lazy.js');
  return (await nip49Module).loadNip49();
}

/** Stores the tab's key as an ncryptsec under `passphrase` (replacing a remembered one). */
export async function rememberTabKey(passphrase) {
  const nip49 = await loadNip49();
  localStorage.setItem(NCRYPTSEC, nip49.encrypt(tab.sk, passphrase, LOG_N, tab.exposed ? 0x00 : 0x01));
  tab.remembered = true;
}

/** The remembered key, opened with `passphrase` (NIP49_DECRYPT_FAILED when it is wrong). */
export async function unlockRememberedKey(passphrase) {
  const nip49 = await loadNip49();
  const { secretKey, keySecurity } = nip49.decrypt(localStorage.getItem(NCRYPTSEC), passphrase);
  return adopt(secretKey, { exposed: keySecurity === 0x00, remembered: true });
}

/** Removes the remembered key from this browser (the tab keeps using it until it closes). */
export function forgetRememberedKey() {
  localStorage.removeItem(NCRYPTSEC);
  if (tab) tab.remembered = false;
}

/** The tab's key as nsec (for the export box): it counts as exposed from now on. */
export function exportTabKey() {
  if (!tab) return null;
  tab.exposed = true;
  return nip19.nsecEncode(tab.sk);
}

/** Makes an nsec or 64-hex key the tab's key; throws NostrError for anything else. */
export function importTabKey(text) {
  const t = text.trim();
  let sk;
  if (/^[0-9a-fA-F]{64}$/.test(t)) sk = hexToBytes(t.toLowerCase());
  else {
    const d = nip19.decode(t);
    if (d.type !== 'nsec') throw Object.assign(new Error('that is not an nsec'), { code: 'INVALID_ARGUMENT' });
    sk = d.data;
  }
  try {
    return adopt(sk, { exposed: true, remembered: false });
  } catch (err) {
    sk.fill(0);
    throw err;
  }
}
