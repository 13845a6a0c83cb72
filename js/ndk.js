// The NDK bridge: an NDK signer (NDKPrivateKeySigner, NDKNip07Signer, NDKNip46Signer...) as our
// Signer, and our Signer (LocalSigner, Nip07Signer, Nip46Signer...) as an NDK signer. Duck-typed:
// nothing here imports NDK. Whatever the other side answers is checked before it is used, as
// Nip07Signer checks an extension's answers.
import { NostrError } from './errors.js';
import { checkTemplate, getEventHash, signedTemplateCopy, verifyEventError } from './event.js';
import { isHex32 } from './hex.js';
import { asPayload, asPlaintext, asPubkeyHex } from './nip44.js';

/** True for an object with NDK's signer methods (sign, user, encrypt, decrypt). */
export function isNdkSigner(x) {
  return (
    x !== null &&
    typeof x === 'object' &&
    typeof x.sign === 'function' &&
    typeof x.user === 'function' &&
    typeof x.encrypt === 'function' &&
    typeof x.decrypt === 'function'
  );
}

function refused(what, err) {
  const reason = err instanceof Error ? err.message : String(err);
  return new NostrError('SIGNER_REJECTED', `the NDK signer refused ${what}: ${reason}`, { cause: err });
}

/** Our Signer backed by an NDK signer: getPublicKey, signEvent, nip44Encrypt, nip44Decrypt. */
export class NdkSignerAdapter {
  #ndk;
  #pubkey = '';

  constructor(ndkSigner) {
    if (!isNdkSigner(ndkSigner))
      throw new NostrError('INVALID_ARGUMENT', 'fromNdkSigner takes an NDK signer (sign, user, encrypt, decrypt)');
    this.#ndk = ndkSigner;
  }

  /** The NDK signer underneath. */
  get ndkSigner() {
    return this.#ndk;
  }

  async getPublicKey() {
    if (this.#pubkey) return this.#pubkey;
    let user;
    try {
      user = await (typeof this.#ndk.blockUntilReady === 'function' ? this.#ndk.blockUntilReady() : this.#ndk.user());
    } catch (err) {
      throw refused('its public key', err);
    }
    const pubkey = user?.pubkey;
    if (!isHex32(pubkey)) throw new NostrError('INVALID_PUBLIC_KEY', 'the NDK signer gave a public key that is not 64 lowercase hex');
    this.#pubkey = pubkey;
    return pubkey;
  }

  async signEvent(template) {
    checkTemplate(template);
    const pubkey = await this.getPublicKey();
    const t = { kind: template.kind, created_at: template.created_at, tags: template.tags.map((tag) => [...tag]), content: template.content };
    const unsigned = { ...t, pubkey };
    const id = getEventHash(unsigned);
    let sig;
    try {
      // NDK signers return the signature only.
      sig = await this.#ndk.sign({ ...unsigned, tags: unsigned.tags.map((tag) => [...tag]), id });
    } catch (err) {
      throw refused('signEvent', err);
    }
    const signed = { ...unsigned, id, sig };
    const err = verifyEventError(signed);
    if (err) throw err;
    const copy = signedTemplateCopy(signed, template);
    if (!copy) throw new NostrError('INVALID_EVENT', 'the NDK signer signed an event that differs from the template');
    return copy;
  }

  async nip44Encrypt(pubkey, plaintext) {
    asPubkeyHex(pubkey);
    asPlaintext(plaintext);
    let out;
    try {
      out = await this.#ndk.encrypt({ pubkey: pubkey.toLowerCase() }, plaintext, 'nip44');
    } catch (err) {
      throw refused('nip44 encrypt', err);
    }
    if (typeof out !== 'string') throw refused('nip44 encrypt', new Error('it returned no string'));
    return out;
  }

  async nip44Decrypt(pubkey, payload) {
    asPubkeyHex(pubkey);
    asPayload(payload);
    let out;
    try {
      out = await this.#ndk.decrypt({ pubkey: pubkey.toLowerCase() }, payload, 'nip44');
    } catch (err) {
      throw refused('nip44 decrypt', err);
    }
    if (typeof out !== 'string') throw refused('nip44 decrypt', new Error('it returned no string'));
    return out;
  }
}

/** Our Signer from an NDK signer (e.g. `fromNdkSigner(new NDKPrivateKeySigner(nsec))`). */
export function fromNdkSigner(ndkSigner) {
  return new NdkSignerAdapter(ndkSigner);
}

function unsupported(scheme) {
  return new NostrError('SIGNER_UNSUPPORTED', `this signer encrypts with nip44 only, not ${scheme ?? 'nip04 (NDK\'s default scheme)'}`);
}

/**
 * An NDK signer backed by our Signer: pubkey, user(), blockUntilReady(), sign(event) -> sig,
 * encrypt/decrypt with scheme 'nip44' (and 'nip04' when the signer has nip04Encrypt/nip04Decrypt),
 * encryptionEnabled(), toPayload() (the public key only: a secret never leaves the signer).
 */
export class SignerNdkAdapter {
  #signer;
  #ndk;
  #pubkey = '';
  #user = null;

  /** `options.ndk`: the NDK instance whose getUser() makes the NDKUser objects (else plain { pubkey }). */
  constructor(signer, { ndk } = {}) {
    if (signer === null || typeof signer !== 'object' || typeof signer.getPublicKey !== 'function' || typeof signer.signEvent !== 'function')
      throw new NostrError('INVALID_ARGUMENT', 'toNdkSigner takes a Signer (getPublicKey, signEvent, nip44Encrypt, nip44Decrypt)');
    this.#signer = signer;
    this.#ndk = ndk;
    // LocalSigner knows its key synchronously: NDK reads `pubkey` without waiting.
    try {
      const pk = signer.publicKey;
      if (isHex32(pk)) this.#pubkey = pk;
    } catch {
      // a disposed signer: getPublicKey() says so
    }
  }

  /** Our Signer underneath. */
  get signer() {
    return this.#signer;
  }

  get pubkey() {
    if (!this.#pubkey) throw new Error('Not ready');
    return this.#pubkey;
  }

  #userOf(pubkey) {
    return this.#ndk && typeof this.#ndk.getUser === 'function' ? this.#ndk.getUser({ pubkey }) : { pubkey };
  }

  async blockUntilReady() {
    if (!this.#user) {
      const pk = await this.#signer.getPublicKey();
      if (!isHex32(pk)) throw new NostrError('INVALID_PUBLIC_KEY', 'the signer gave a public key that is not 64 lowercase hex');
      this.#pubkey = pk;
      this.#user = this.#userOf(pk);
    }
    return this.#user;
  }

  user() {
    return this.blockUntilReady();
  }

  get userSync() {
    if (!this.#user) {
      if (!this.#pubkey) throw new Error('Not ready');
      this.#user = this.#userOf(this.#pubkey);
    }
    return this.#user;
  }

  /** Signs NDK's event (its kind, tags, content, created_at) and returns the signature, as NDK expects. */
  async sign(event) {
    const signed = await this.#signer.signEvent({ kind: event.kind, tags: event.tags, content: event.content, created_at: event.created_at });
    if (event.pubkey && event.pubkey !== signed.pubkey)
      throw new NostrError('INVALID_EVENT', `the event's pubkey ${event.pubkey} is not the signer's ${signed.pubkey}`);
    return signed.sig;
  }

  async encryptionEnabled(scheme) {
    const out = [];
    if ((!scheme || scheme === 'nip04') && typeof this.#signer.nip04Encrypt === 'function') out.push('nip04');
    if ((!scheme || scheme === 'nip44') && typeof this.#signer.nip44Encrypt === 'function') out.push('nip44');
    return out;
  }

  async encrypt(recipient, value, scheme) {
    const pubkey = recipient?.pubkey;
    if (scheme === 'nip44' && typeof this.#signer.nip44Encrypt === 'function') return this.#signer.nip44Encrypt(pubkey, value);
    if ((scheme === undefined || scheme === 'nip04') && typeof this.#signer.nip04Encrypt === 'function') return this.#signer.nip04Encrypt(pubkey, value);
    throw unsupported(scheme);
  }

  async decrypt(sender, value, scheme) {
    const pubkey = sender?.pubkey;
    if (scheme === 'nip44' && typeof this.#signer.nip44Decrypt === 'function') return this.#signer.nip44Decrypt(pubkey, value);
    if ((scheme === undefined || scheme === 'nip04') && typeof this.#signer.nip04Decrypt === 'function') return this.#signer.nip04Decrypt(pubkey, value);
    throw unsupported(scheme);
  }

  toPayload() {
    return JSON.stringify({ type: 'nostr-agents', payload: this.#pubkey });
  }
}

/** An NDK signer from our Signer (e.g. `ndk.signer = toNdkSigner(new LocalSigner(sk), { ndk })`). */
export function toNdkSigner(signer, options) {
  return new SignerNdkAdapter(signer, options);
}
