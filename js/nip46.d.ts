// NIP-46 remote signing: Nip46Signer (client, a Signer whose key is in a remote signer) and
// startBunker (a remote signer built on the package).
import type { EventTemplate, NostrEvent, NostrError } from './index.js';
import type { PoolAbortSignal, RelayPool } from './relay.js';
import type { Signer } from './signer.js';

/** NIP-46 requests and responses. */
export const NOSTR_CONNECT_KIND: 24133;

/** What a bunker:// URI names: the remote signer, its relays and the connection secret. */
export interface BunkerPointer {
  /** The remote-signer pubkey (hex). */
  pubkey: string;
  relays: string[];
  secret: string | null;
}

/** What a nostrconnect:// URI carries: the client's key, relays, secret and app metadata. */
export interface NostrConnectParams {
  clientPubkey: string;
  relays: string[];
  secret: string;
  perms?: string[];
  name?: string;
  url?: string;
  image?: string;
}

/** Throws NostrError INVALID_ARGUMENT (the message never repeats the URI: it may hold the secret). */
export function parseBunkerURI(uri: string): BunkerPointer;
/** The bunker:// URI of a pointer (the secret, when given, is in it: treat the URI as a credential). */
export function toBunkerURL(pointer: { pubkey: string; relays: string[]; secret?: string | null }): string;
/** The secret is required. Throws INVALID_ARGUMENT. */
export function parseNostrConnectURI(uri: string): Required<Pick<NostrConnectParams, 'clientPubkey' | 'relays' | 'secret' | 'perms'>> &
  Pick<NostrConnectParams, 'name' | 'url' | 'image'>;
/** The nostrconnect:// URI for an app to show (a QR code). Throws INVALID_ARGUMENT. */
export function createNostrConnectURI(params: NostrConnectParams): string;

/**
 * What a Nip46Signer rejects with, besides its NostrError code:
 * SIGNER_UNAVAILABLE (reason 'timeout' | 'approval-timeout' | 'unreachable'): no answer came;
 * SIGNER_REFUSED: the bunker answered with an error (remoteError: its text);
 * SIGNER_DISPOSED (reason 'closed'): close() was called; ABORTED: the caller's signal;
 * INVALID_EVENT, INVALID_PUBLIC_KEY, SIGNER_INVALID_RESPONSE: an answer that does not hold up.
 */
export interface Nip46Error extends NostrError {
  reason?: 'timeout' | 'approval-timeout' | 'unreachable' | 'closed';
  /** The NIP-46 method of the request. */
  method?: string;
  remoteError?: string;
}

/** Per-request options of Nip46Signer. */
export interface Nip46CallOptions {
  /** ms until SIGNER_UNAVAILABLE; default: the signer's requestTimeout. Paused by auth_url. */
  timeout?: number;
  signal?: PoolAbortSignal;
}

/** Options of Nip46Signer.connect and nostrConnect: the pool and the separate connect, request and approval timeouts. */
export interface Nip46SignerOptions {
  /** Default: a RelayPool of its own, closed by close(). */
  pool?: RelayPool;
  /**
   * ms to reach the relays and get the answer to `connect` (SIGNER_UNAVAILABLE after). Default
   * 15 000 for bunker://, 300 000 for nostrconnect:// (the user has to scan the URI).
   */
  connectTimeout?: number;
  /** ms per later request, get_public_key included. Default 30 000. */
  requestTimeout?: number;
  /**
   * ms to wait for the answer once the bunker replied auth_url (the user is approving); replaces
   * the request's clock. Default 300 000.
   */
  approvalTimeout?: number;
  /** Called once per request with the http(s) URL of an auth_url answer: show it to the user. May be async; what it throws or rejects with is ignored. */
  onauth?: (url: string) => void | Promise<void>;
  /** Permissions asked at connect (NIP-46 perms, e.g. 'sign_event:1'). */
  perms?: string[];
  /** Reuse a client key (copied into wasm memory, wiped on close). Default: a fresh one. */
  clientSecretKey?: Uint8Array;
  /** Ask switch_relays after connecting (default true; failures are ignored). */
  switchRelays?: boolean;
  /** Aborts connecting. */
  signal?: PoolAbortSignal;
  /** Injectable timers (tests). */
  timers?: { setTimeout?: (fn: () => void, ms: number) => unknown; clearTimeout?: (id: any) => void };
}

/** Options of Nip46Signer.nostrConnect: the relays and metadata of the URI. */
export interface NostrConnectOptions extends Nip46SignerOptions {
  /** Where the remote signer should answer. */
  relays: string[];
  /** Default: 16 random bytes, hex. */
  secret?: string;
  name?: string;
  url?: string;
  image?: string;
}

/** A nostrconnect:// offer waiting for a remote signer. */
export interface NostrConnectSession {
  /** nostrconnect://… to show the user. */
  uri: string;
  clientPubkey: string;
  /** Resolves once a remote signer answered with the secret. */
  signer: Promise<Nip46Signer>;
  /** Stops waiting (`signer` rejects SIGNER_DISPOSED; no unhandled rejection); does nothing once connected. */
  cancel(): Promise<void>;
}

/**
 * A NIP-46 remote signer as a Signer (NIP-44 transport, kind 24133). Every call settles: with the
 * answer or a Nip46Error. Bad input is refused before the bunker is asked, with LocalSigner's
 * codes: INVALID_EVENT (template), INVALID_PUBLIC_KEY, INVALID_ARGUMENT (plaintext not a string),
 * NIP44_INVALID_PAYLOAD (payload not a string).
 */
export class Nip46Signer implements Signer {
  private constructor();
  /** bunker:// flow: connect (with the URI's secret), get_public_key, switch_relays. */
  static connect(bunker: string | BunkerPointer, options?: Nip46SignerOptions): Promise<Nip46Signer>;
  /** nostrconnect:// flow. Throws INVALID_ARGUMENT for bad relays. */
  static nostrConnect(options: NostrConnectOptions): NostrConnectSession;

  readonly remotePubkey: string;
  readonly clientPubkey: string;
  readonly relays: string[];
  readonly closed: boolean;
  readonly pendingCount: number;

  /** The user's pubkey, learned at connect (no request). */
  getPublicKey(): Promise<string>;
  /** The answer is verified, must be the user's and match the template. */
  signEvent(template: EventTemplate, options?: Nip46CallOptions): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string, options?: Nip46CallOptions): Promise<string>;
  nip44Decrypt(pubkey: string, payload: string, options?: Nip46CallOptions): Promise<string>;
  ping(options?: Nip46CallOptions): Promise<void>;
  /** Moves to the relays the bunker names; resolves to the relays now in use. */
  switchRelays(options?: Nip46CallOptions): Promise<string[]>;
  /** Any method; resolves to the raw result. */
  sendRequest(method: string, params: string[], options?: Nip46CallOptions): Promise<unknown>;
  /** Rejects every pending request (SIGNER_DISPOSED), stops listening, wipes the client key. */
  close(): Promise<void>;
}

/** A client's request as the bunker's authorize callback sees it. */
export interface BunkerRequest {
  method: string;
  /** connect: [remote-signer pubkey] (never the secret). */
  params: string[];
  clientPubkey: string;
  /** sign_event: the parsed template. */
  template?: EventTemplate;
  /** connect: the permissions asked (the ones the bunker knows, comma-separated). */
  perms?: string;
  /** nostrconnect:// connect: the app's name and url. */
  name?: string;
  url?: string;
}

/** What authorize can do while the user decides. */
export interface BunkerAuthorizeContext {
  /** Sends the NIP-46 auth_url answer now (the client pauses its request clock). */
  sendAuthUrl(url: string): Promise<void>;
}

/**
 * Where a bunker keeps what must outlive a restart: the digests of spent secrets and the clients
 * that connected, with their grants (string values under keys it prefixes with "nip46-bunker:").
 * A Map works, and so does localStorage. The store decides who may sign: keep it where only the
 * bunker's owner can write.
 */
export type BunkerStore =
  | { get(key: string): string | null | undefined | Promise<string | null | undefined>; set(key: string, value: string): unknown }
  | { getItem(key: string): string | null | Promise<string | null>; setItem(key: string, value: string): unknown };

/**
 * NIP-46 permissions a bunker knows: `sign_event` (any kind), `sign_event:<kind>`,
 * `nip44_encrypt`, `nip44_decrypt`. `ping`, `get_public_key` and `switch_relays` need none.
 */
export type BunkerPerm = string;

/**
 * Options of startBunker. Deny by default: a client gets in with a valid one-time secret (the
 * bunker:// URI the user handed it) or when `authorize` returns true, and may then do exactly
 * what it was granted. A client with the secret, or one answered through connectTo, is granted
 * the perms it asked for at connect within `perms` (all of `perms` when it asked for none, as
 * nostr-tools' BunkerSigner does); one that authorize let in, only the perms it asked for.
 * Anything else goes to `authorize`, and without one is refused with a NIP-46 error answer.
 */
export interface BunkerOptions {
  /** The user's key. */
  signer: Signer;
  /**
   * The key clients talk to: the bunker's address. Default: a fresh key per start (wiped by
   * stop()), so knowing the user's npub does not find the bunker; pass one for an address that
   * outlives a restart. The user's own signer is allowed (NIP-46 permits it) but makes the bunker
   * findable by anyone who knows the npub.
   */
  remoteSigner?: Signer;
  relays: string[];
  /** Default: a RelayPool of its own, closed by stop(). */
  pool?: RelayPool;
  /**
   * The one-time connection secret of `bunkerUri` (compared in constant time). Default: 32 random
   * bytes (hex) per start. A secret the store lists as spent stays spent; without a store, the
   * same secret passed to a new start is valid once more there.
   */
  secret?: string;
  /** The most a connection may be granted (default: all of sign_event, nip44_encrypt, nip44_decrypt; [] sends every request to authorize). */
  perms?: BunkerPerm[];
  /**
   * Asked for a connect without a secret and for every request outside the client's grants:
   * true approves; false or a string (the message) denies; it may wait (the user deciding).
   * Default: none, and all of those are refused.
   */
  authorize?: (request: BunkerRequest, ctx: BunkerAuthorizeContext) => boolean | string | Promise<boolean | string>;
  /** Remembers spent secrets and connected clients across restarts. Without one, a restart forgets both. */
  store?: BunkerStore;
  /** What switch_relays answers (default: relays to bunker:// clients, null to nostrconnect:// ones). */
  switchRelays?: string[];
}

/** A running bunker (startBunker). */
export interface Bunker {
  /** The remote-signer pubkey (the bunker's address). */
  readonly pubkey: string;
  readonly userPubkey: string;
  readonly relays: string[];
  /** bunker://… with the one-time secret while it is unspent (treat it as a credential). */
  readonly bunkerUri: string;
  /** The one-time secret of bunkerUri while it is unspent, else null. */
  readonly secret: string | null;
  /** Clients connected since this start (and those the store brought back when they came). */
  readonly clients: string[];
  readonly stopped: boolean;
  /** What a connected client was granted, or null. */
  permsOf(clientPubkey: string): BunkerPerm[] | null;
  /** A further one-time secret (another app), granting at most `perms`; resolves to its bunker:// URI. */
  issueSecret(options?: { perms?: BunkerPerm[] }): Promise<string>;
  /** Forgets a client's grants (in the store too): it must connect again with a new secret. */
  revoke(clientPubkey: string): Promise<void>;
  /**
   * nostrconnect:// flow: answering the client's URI is the user's consent (authorize, when given,
   * may still deny); grants what the URI asks within `perms`. Rejects SIGNER_REFUSED when denied.
   */
  connectTo(uri: string): Promise<void>;
  /** Stops answering; closes its own pool and wipes its own remote-signer key. */
  stop(): Promise<void>;
}

/** Resolves once it listens on its relays. */
export function startBunker(options: BunkerOptions): Promise<Bunker>;
