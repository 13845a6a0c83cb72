// The Signer seam: everything that needs a secret key (public key, signing, NIP-44) behind four
// async methods, so protocol code (nip59) runs the same with a key held in wasm memory
// (LocalSigner) or in a NIP-07 browser extension (Nip07Signer) that never shows the key.
import { core, checked } from './core.js';
import { NostrError } from './errors.js';
import { checkTemplate, signWithHandle, signedTemplateCopy, verifyEventError } from './event.js';
import { isHex32 } from './hex.js';
import { createKeyHandle } from './keys.js';
import { asPayload, asPlaintext, asPubkeyHex, encryptWithHandle, decryptWithHandle } from './nip44.js';

// nip59 and AGX reach a LocalSigner's key handle through this (registered, so no export is needed)
// to run a whole wrap or unwrap in one wasm call. A handle is only good in the module instance that
// made it: asked by another one (the demo page runs AGX on a module of its own), the signer
// answers 0 and the caller goes through the four Signer methods, so the key never leaves its module.
const HANDLE = Symbol.for('nostr-agents.LocalSigner.handle');

// Backstop for signers that are dropped without dispose(): the key is wiped when collected.
const registry = /* @__PURE__ */ new FinalizationRegistry((handle) => {
  try {
    core().keyDispose(handle);
  } catch {
    // the module is gone: nothing left to wipe
  }
});

function disposedError() {
  return new NostrError('SIGNER_DISPOSED', 'this LocalSigner was disposed; its secret key is wiped');
}

/** A secret key kept inside wasm memory behind a handle; JS keeps only the public key. */
export class LocalSigner {
  #handle = 0;
  #pubkey = '';
  #module; // the WASM instance that holds the key

  /** Takes a 32-byte secret key (copied into wasm memory), or generates one when none is given. */
  constructor(secretKey) {
    const c = core();
    this.#module = c;
    const handle = secretKey === undefined ? c.keyGenerate() : createKeyHandle(secretKey);
    this.#handle = handle;
    this.#pubkey = checked(c.keyPublic(handle));
    registry.register(this, handle, this);
  }

  /** A signer with a fresh random key (platform CSPRNG). */
  static generate() {
    return new LocalSigner();
  }

  #live() {
    if (this.#handle === 0) throw disposedError();
    return this.#handle;
  }

  /** Hex public key, synchronously. */
  get publicKey() {
    this.#live();
    return this.#pubkey;
  }

  get disposed() {
    return this.#handle === 0;
  }

  async getPublicKey() {
    return this.publicKey;
  }

  async signEvent(template) {
    return signWithHandle(template, this.#live());
  }

  async nip44Encrypt(pubkey, plaintext) {
    return encryptWithHandle(this.#live(), pubkey, plaintext);
  }

  async nip44Decrypt(pubkey, payload) {
    return decryptWithHandle(this.#live(), pubkey, payload);
  }

  /** Wipes the secret key (and its cached conversation keys); later calls throw SIGNER_DISPOSED. */
  dispose() {
    if (this.#handle === 0) return;
    const handle = this.#handle;
    this.#handle = 0;
    registry.unregister(this);
    core().keyDispose(handle);
  }

  /** `using signer = …` disposes of it at the end of the block. */
  [Symbol.dispose]() {
    this.dispose();
  }

  /** The key's handle in module `c`, or 0 when `c` is not the module that holds the key. */
  [HANDLE](c) {
    return c === this.#module ? this.#live() : 0;
  }
}

function rejected(what, err) {
  const reason = err instanceof Error ? err.message : String(err);
  return new NostrError('SIGNER_REJECTED', `the NIP-07 extension refused ${what}: ${reason}`, { cause: err });
}

/**
 * A NIP-07 browser extension (window.nostr) as a Signer. Every answer it gives is checked before
 * use: public keys must be hex, signed events must verify and match the template.
 */
export class Nip07Signer {
  #nostr;

  /** `nostr` defaults to window.nostr, looked up at each call (extensions may inject it late). */
  constructor(nostr) {
    this.#nostr = nostr;
  }

  #ext() {
    const ext = this.#nostr ?? globalThis.window?.nostr;
    if (!ext || typeof ext !== 'object' || typeof ext.getPublicKey !== 'function' || typeof ext.signEvent !== 'function')
      throw new NostrError('SIGNER_UNAVAILABLE', 'no NIP-07 extension found (window.nostr is missing)');
    return ext;
  }

  #nip44(ext) {
    const n = ext.nip44;
    if (!n || typeof n.encrypt !== 'function' || typeof n.decrypt !== 'function')
      throw new NostrError(
        'SIGNER_UNSUPPORTED',
        'this NIP-07 extension does not offer NIP-44 (window.nostr.nip44); gift wraps need it',
      );
    return n;
  }

  /** True when an extension is present now. */
  get available() {
    try {
      this.#ext();
      return true;
    } catch {
      return false;
    }
  }

  /** True when the extension offers window.nostr.nip44. */
  get supportsNip44() {
    try {
      this.#nip44(this.#ext());
      return true;
    } catch {
      return false;
    }
  }

  async getPublicKey() {
    const ext = this.#ext();
    let pubkey;
    try {
      pubkey = await ext.getPublicKey();
    } catch (err) {
      throw rejected('getPublicKey', err);
    }
    if (!isHex32(pubkey))
      throw new NostrError('INVALID_PUBLIC_KEY', 'the NIP-07 extension returned a public key that is not 64 lowercase hex');
    return pubkey;
  }

  async signEvent(template) {
    const ext = this.#ext();
    // What LocalSigner refuses is refused here too, with the same error, before the extension
    // would show its user a request to sign it.
    checkTemplate(template);
    const t = { kind: template.kind, created_at: template.created_at, tags: template.tags, content: template.content };
    let signed;
    try {
      // A copy: the extension gets nothing it could change under us.
      signed = await ext.signEvent({ ...t, tags: t.tags.map((tag) => [...tag]) });
    } catch (err) {
      throw rejected('signEvent', err);
    }
    const err = verifyEventError(signed);
    if (err) throw err;
    const copy = signedTemplateCopy(signed, t);
    if (!copy) throw new NostrError('INVALID_EVENT', 'the NIP-07 extension signed an event that differs from the template');
    return copy;
  }

  async nip44Encrypt(pubkey, plaintext) {
    const n = this.#nip44(this.#ext());
    asPubkeyHex(pubkey);
    asPlaintext(plaintext);
    let out;
    try {
      out = await n.encrypt(pubkey.toLowerCase(), plaintext);
    } catch (err) {
      throw rejected('nip44.encrypt', err);
    }
    if (typeof out !== 'string') throw rejected('nip44.encrypt', new Error('it returned no string'));
    return out;
  }

  async nip44Decrypt(pubkey, payload) {
    const n = this.#nip44(this.#ext());
    asPubkeyHex(pubkey);
    asPayload(payload);
    let out;
    try {
      out = await n.decrypt(pubkey.toLowerCase(), payload);
    } catch (err) {
      throw rejected('nip44.decrypt', err);
    }
    if (typeof out !== 'string') throw rejected('nip44.decrypt', new Error('it returned no string'));
    return out;
  }
}

/** True for anything with the four Signer methods (LocalSigner, Nip07Signer, your own). */
export function isSigner(x) {
  return (
    x !== null &&
    typeof x === 'object' &&
    typeof x.getPublicKey === 'function' &&
    typeof x.signEvent === 'function' &&
    typeof x.nip44Encrypt === 'function' &&
    typeof x.nip44Decrypt === 'function'
  );
}
