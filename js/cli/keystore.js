// The profile's key and allow list. The secret key is read into a LocalSigner (wasm memory) and
// the JS copy zeroed at once; only `identity export` turns it into an nsec.
import { existsSync, readFileSync } from 'node:fs';
import { nostr } from './nostr.js';
import { publicKeyHex } from '../keys.js'; // internal: shared with the library's peer arguments
import { CliError, EXIT } from './common.js';
import { ensureProfileDir, readJsonFile, requirePrivate, writePrivate } from './settings.js';

const { LocalSigner, nip19, hexToBytes, bytesToHex, generateSecretKey, getPublicKey, isValidPublicKey } = nostr;

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
  if (!/^[0-9a-f]{64}$/.test(text)) throw new CliError(EXIT.SETUP, `${file}: not a 64-hex secret key`);
  return hexToBytes(text);
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

/** The profile's public key without keeping a signer. */
export function loadPublicKey(settings) {
  const { signer, pubkey, npub } = loadSigner(settings);
  signer.dispose();
  return { pubkey, npub };
}

/** Stores `sk` (32 bytes, zeroed by the caller) as the profile's key; EXIT.SETUP if one exists and !force. */
export function storeSecret(settings, sk, force) {
  if (hasIdentity(settings) && !force)
    throw new CliError(EXIT.SETUP, `profile "${settings.profile}" already has an identity (${settings.files.key}); pass --force to replace it`);
  ensureProfileDir(settings);
  const hex = bytesToHex(sk);
  writePrivate(settings.files.key, hex + '\n');
  return getPublicKey(sk);
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
