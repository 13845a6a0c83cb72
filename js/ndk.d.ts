// The NDK bridge, both ways (duck-typed: the package does not depend on NDK).
import type { NostrEvent } from './index.js';
import type { Signer } from './signer.js';

/** What the bridge uses of an NDK signer (NDKPrivateKeySigner, NDKNip07Signer, NDKNip46Signer...). */
export interface NdkSignerLike {
  user(): Promise<{ pubkey: string }>;
  blockUntilReady?(): Promise<{ pubkey: string }>;
  sign(event: NostrEvent): Promise<string>;
  encrypt(recipient: { pubkey: string }, value: string, scheme?: 'nip04' | 'nip44'): Promise<string>;
  decrypt(sender: { pubkey: string }, value: string, scheme?: 'nip04' | 'nip44'): Promise<string>;
}

/** True for an object with NDK's signer methods. */
export function isNdkSigner(x: unknown): x is NdkSignerLike;

/** Our Signer backed by an NDK signer; every answer is checked (SIGNER_REJECTED, INVALID_EVENT, INVALID_PUBLIC_KEY). */
export class NdkSignerAdapter implements Signer {
  constructor(ndkSigner: NdkSignerLike);
  readonly ndkSigner: NdkSignerLike;
  getPublicKey(): Promise<string>;
  signEvent(template: { kind: number; tags: string[][]; content: string; created_at: number }): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, payload: string): Promise<string>;
}
/** Our Signer from an NDK signer: `fromNdkSigner(new NDKPrivateKeySigner(nsec))`. */
export function fromNdkSigner(ndkSigner: NdkSignerLike): NdkSignerAdapter;

/** An NDK signer backed by our Signer (nip44; nip04 only when the signer has nip04Encrypt/nip04Decrypt). */
export class SignerNdkAdapter {
  constructor(signer: Signer, options?: { ndk?: { getUser(opts: { pubkey: string }): any } });
  readonly signer: Signer;
  readonly pubkey: string;
  readonly userSync: any;
  blockUntilReady(): Promise<any>;
  user(): Promise<any>;
  /** The signature of NDK's event (signed through our Signer). */
  sign(event: NostrEvent): Promise<string>;
  encryptionEnabled(scheme?: 'nip04' | 'nip44'): Promise<('nip04' | 'nip44')[]>;
  encrypt(recipient: { pubkey: string }, value: string, scheme?: 'nip04' | 'nip44'): Promise<string>;
  decrypt(sender: { pubkey: string }, value: string, scheme?: 'nip04' | 'nip44'): Promise<string>;
  /** The public key only: a secret never leaves the signer. */
  toPayload(): string;
}
/** An NDK signer from our Signer: `ndk.signer = toNdkSigner(new LocalSigner(sk), { ndk })`. */
export function toNdkSigner(signer: Signer, options?: { ndk?: { getUser(opts: { pubkey: string }): any } }): SignerNdkAdapter;
