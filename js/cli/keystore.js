// The profile's key and allow list. The secret key is read into a LocalSigner (wasm memory) and
// the JS copy zeroed at once; only `identity export` turns it into an nsec.
//
// The key file holds the secret key as 64 hex characters, or encrypted under a passphrase as a
// NIP-49 ncryptsec followed by a comment line with the public key (so `identity show` and
// `doctor` need no passphrase):
//   ncryptsec1…
//   # public key <64 hex>
import { existsSync, readFileSync } from 'node:fs';
import { nostr } from './nostr.js';
import { publicKeyHex } from '../keys.js'; // internal: shared with the library's peer arguments
import { CliError, EXIT } from './common.js';
import { passphraseFor } from './passphrase.js';
import { ensureProfileDir, readJsonFile, requirePrivate, writePrivate } from './settings.js';

const { LocalSigner, nip19, nip49, hexToBytes, bytesToHex, generateSecretKey, getPublicKey, isValidPublicKey } = nostr;

const NCRYPTSEC = /^ncryptsec1[02-9ac-hj-np-z]+$/;
const PUBKEY_LINE = /^# public key ([0-9a-f]{64})$/m;

/** An ncryptsec's secret key under the passphrase `what` is asked for; EXIT.SETUP for a wrong one. */
function unlock(settings, ncryptsec, what) {
  const passphrase = passphraseFor(settings, what);
  try {
    return nip49.decrypt(ncryptsec, passphrase);
  } catch (err) {
    if (err.code === 'NIP49_DECRYPT_FAILED') throw new CliError(EXIT.SETUP, `wrong passphrase for ${what}`);
    throw new CliError(EXIT.SETUP, `${what}: not a usable ncryptsec (${err.code})`);
  }
}

/**
 * A peer given as npub or 64 hex, as lowercase hex (keys.js publicKeyHex, as the library takes
 * peers); EXIT.USAGE otherwise, with the library's reason. The input is not echoed: it may be a
 * secret key pasted by mistake.
 */
export function peerHex(peer) {
  try {
    return publicKeyHex(peer, 'the public key');
  } catch (err) {
    if (!(err instanceof nostr.NostrError)) throw err;
    throw new CliError(EXIT.USAGE, `not an npub or 64-hex public key: ${err.message}`);
  }
}

export const npubOf = (hex) => nip19.npubEncode(hex);

export function hasIdentity(settings) {
  return existsSync(settings.files.key);
}

/** Reads the secret key bytes (caller zeroes them). */
function readSecret(settings) {
  const file = settings.files.key;
  if (!existsSync(file))
    throw new CliError(EXIT.SETUP, `no identity in profile "${settings.profile}" (create one: nostr-agents identity new --profile ${settings.profile})`);
  requirePrivate(file);
  const text = readFileSync(file, 'utf8').trim();
  const first = text.split('\n')[0].trim();
  if (NCRYPTSEC.test(first)) return unlock(settings, first, file);
  if (!/^[0-9a-f]{64}$/.test(text)) throw new CliError(EXIT.SETUP, `${file}: neither a 64-hex secret key nor an ncryptsec`);
  return hexToBytes(text);
}

/** Whether the profile's key file is encrypted (an ncryptsec). */
export function isEncrypted(settings) {
  return existsSync(settings.files.key) && NCRYPTSEC.test(readFileSync(settings.files.key, 'utf8').trim().split('\n')[0].trim());
}

/** { signer, pubkey, npub }: the profile's LocalSigner (dispose() it when done). */
export function loadSigner(settings) {
  const sk = readSecret(settings);
  try {
    const signer = new LocalSigner(sk);
    return { signer, pubkey: signer.publicKey, npub: nip19.npubEncode(signer.publicKey) };
  } catch (e) {
    throw new CliError(EXIT.SETUP, `${settings.files.key}: not a valid secret key`);
  } finally {
    sk.fill(0);
  }
}

/** The profile's public key without keeping a signer (nor asking the passphrase of an encrypted key). */
export function loadPublicKey(settings) {
  if (isEncrypted(settings)) {
    requirePrivate(settings.files.key);
    const line = PUBKEY_LINE.exec(readFileSync(settings.files.key, 'utf8'));
    if (line && isValidPublicKey(line[1])) return { pubkey: line[1], npub: nip19.npubEncode(line[1]) };
  }
  const { signer, pubkey, npub } = loadSigner(settings);
  signer.dispose();
  return { pubkey, npub };
}

function checkReplace(settings, force) {
  if (hasIdentity(settings) && !force)
    throw new CliError(EXIT.SETUP, `profile "${settings.profile}" already has an identity (${settings.files.key}); pass --force to replace it`);
}

/**
 * Stores `sk` (32 bytes, zeroed by the caller) as the profile's key; EXIT.SETUP if one exists and
 * !force. With `encrypt`, as an ncryptsec under a passphrase (asked twice, or --passphrase-file);
 * `keySecurity` is NIP-49's byte: 0x01 for a key never seen in the clear (identity new), 0x00 for
 * one that was (an import).
 */
export function storeSecret(settings, sk, force, { encrypt = false, keySecurity = 0x00 } = {}) {
  checkReplace(settings, force);
  const pubkey = getPublicKey(sk);
  let text;
  if (encrypt) {
    const passphrase = passphraseFor(settings, `the new key of profile "${settings.profile}"`, { confirm: true });
    text = `${nip49.encrypt(sk, passphrase, 16, keySecurity)}\n# public key ${pubkey}\n`;
  } else text = bytesToHex(sk) + '\n';
  ensureProfileDir(settings);
  writePrivate(settings.files.key, text);
  return pubkey;
}

/** Stores an ncryptsec as it is, once its passphrase opened it (which also gives the public key). */
export function storeNcryptsec(settings, ncryptsec, force) {
  checkReplace(settings, force);
  const sk = unlock(settings, ncryptsec, 'the imported ncryptsec');
  let pubkey;
  try {
    pubkey = getPublicKey(sk);
  } catch {
    throw new CliError(EXIT.USAGE, 'the ncryptsec does not hold a valid secret key');
  } finally {
    sk.fill(0);
  }
  ensureProfileDir(settings);
  writePrivate(settings.files.key, `${ncryptsec}\n# public key ${pubkey}\n`);
  return pubkey;
}

export function newSecret() {
  return generateSecretKey();
}

/** The nsec of the profile's key (only `identity export` calls this). */
export function exportNsec(settings) {
  const sk = readSecret(settings);
  try {
    return nip19.nsecEncode(sk);
  } finally {
    sk.fill(0);
  }
}

/** An ncryptsec (as given) when `text` is one, else null. */
export function asNcryptsec(text) {
  const s = String(text).trim();
  return NCRYPTSEC.test(s) ? s : null;
}

/** nsec or 64-hex secret key to 32 bytes; EXIT.USAGE otherwise. */
export function parseSecret(text) {
  const s = String(text).trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return hexToBytes(s.toLowerCase());
  if (s.startsWith('nsec1')) {
    try {
      const d = nip19.decode(s);
      if (d.type === 'nsec') return d.data;
    } catch {
      // fall through
    }
  }
  throw new CliError(EXIT.USAGE, 'not an nsec or 64-hex secret key');
}

/** [{ pubkey, capability }] from allow.json. */
export function readAllow(settings) {
  const value = readJsonFile(settings.files.allow, { allow: [] });
  const list = Array.isArray(value?.allow) ? value.allow : [];
  return list.filter((e) => e && isValidPublicKey(e.pubkey) && typeof e.capability === 'string');
}

export function writeAllow(settings, list) {
  ensureProfileDir(settings);
  writePrivate(settings.files.allow, JSON.stringify({ allow: list }, null, 2) + '\n');
}
