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
  /** connect: the permissions asked. */
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

/** Options of startBunker. */
export interface BunkerOptions {
  /** The user's key. */
  signer: Signer;
  /** The key clients talk to (default: signer). */
  remoteSigner?: Signer;
  relays: string[];
  /** Default: a RelayPool of its own, closed by stop(). */
  pool?: RelayPool;
  /** Single-use connection secret for bunker:// clients; without one any client may connect. */
  secret?: string;
  /** true approves; false or a string (the message) denies. May wait (the user deciding). */
  authorize?: (request: BunkerRequest, ctx: BunkerAuthorizeContext) => boolean | string | Promise<boolean | string>;
  /** What switch_relays answers (default: relays to bunker:// clients, null to nostrconnect:// ones). */
  switchRelays?: string[];
}

/** A running bunker (startBunker). */
export interface Bunker {
  /** The remote-signer pubkey. */
  readonly pubkey: string;
  readonly userPubkey: string;
  readonly relays: string[];
  /** bunker://… with the secret while it is unused. */
  readonly bunkerUri: string;
  readonly clients: string[];
  readonly stopped: boolean;
  /** nostrconnect:// flow: answers the client's URI. Rejects SIGNER_REFUSED when authorize denies. */
  connectTo(uri: string): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves once it listens on its relays. */
export function startBunker(options: BunkerOptions): Promise<Bunker>;
