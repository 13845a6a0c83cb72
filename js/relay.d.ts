// The relay pool (nostr-tools' SimplePool shapes, async where I/O is involved) and the NIP-01
// frame codec of the core.
import type { EventTemplate, Filter, NostrEvent, NostrError } from './index.js';

/** What the pool uses of an AbortSignal (structural, so no DOM or Node types are needed). */
export interface PoolAbortSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What the pool uses of fetch (for NIP-11 documents). */
export type FetchLike = (
  url: string,
  init: { headers: Record<string, string>; signal: any },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** What the pool needs of a Signer (LocalSigner, Nip07Signer or any object like them). */
export interface PoolSigner {
  getPublicKey(): Promise<string>;
  signEvent(template: EventTemplate): Promise<NostrEvent>;
}

/** Exponential backoff with jitter between reconnection attempts. */
export interface BackoffOptions {
  /** First delay, ms. */
  initialDelay?: number;
  /** Cap on the delay, ms. */
  maxDelay?: number;
  /** Growth per attempt. */
  factor?: number;
  /** Fraction of each delay taken off at random: 0 none, 1 "full jitter". */
  jitter?: number;
}

/** How the pool reconnects to a relay that dropped or could not be reached. */
export interface ReconnectOptions extends BackoffOptions {
  /** A connection open this long (ms) resets the attempt count. */
  stableAfter?: number;
}

/** The constructor the pool opens sockets with: browser-shaped (onopen, onmessage, onclose, onerror, send, close). */
export type WebSocketConstructor = new (url: string) => {
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: { data: any }) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
};

/**
 * Options of new RelayPool(). Timeouts, delays and counts must be numbers >= 0 (counts integers):
 * anything else (a string such as '300', NaN, a negative) throws INVALID_ARGUMENT.
 */
export interface RelayPoolOptions {
  /** Relays used when a call names none. */
  relays?: string[];
  /** Default: the global WebSocket in browsers, `ws` in Node. */
  WebSocket?: WebSocketConstructor;
  /** Answers NIP-42 AUTH challenges; what was refused with `auth-required:` is then tried again. */
  signer?: PoolSigner;
  /** Authenticate as soon as a relay sends a challenge (default: only when something is refused). */
  eagerAuth?: boolean;
  /** Reconnect with backoff (default on: 500 ms doubling to 30 s, jitter 0.5); false: never. */
  reconnect?: ReconnectOptions | false;
  /** Backoff of publish and subscription retries after transient refusals. */
  retry?: BackoffOptions;
  /** ms to establish a WebSocket. Default 10 000. */
  connectTimeout?: number;
  /** Liveness: after `interval` ms without traffic, ping (ws) or send a probe REQ; no answer in `timeout` ms drops the connection. false: off. */
  ping?: { interval?: number; timeout?: number } | false;
  /** Default publish timeout per relay (ms, retries included). Default 10 000. */
  publishTimeout?: number;
  /** Default publish retries (transient refusals, lost connections). Default 3. */
  publishRetries?: number;
  /** Retries of a subscription CLOSED with a transient reason. Default 3. */
  subscriptionRetries?: number;
  /** ms for a NIP-42 exchange. Default 10 000. */
  authTimeout?: number;
  /** Fetch each relay's NIP-11 document and honor its limits. Default true. */
  relayInfo?: boolean;
  /** ms for the NIP-11 fetch. Default 3 000. */
  infoTimeout?: number;
  /** The fetch used for NIP-11 (default: global fetch). */
  fetch?: FetchLike;
  /** Larger received frames are dropped unparsed. Default 1 MiB. */
  maxFrameBytes?: number;
  /** Event ids remembered per subscription for dedupe. Default 4096. */
  seenCap?: number;
  /** Seconds taken off the newest created_at seen when resubscribing. Default 60. */
  resubscribeOverlap?: number;
  /** Keep connections up (reconnecting) even when nothing uses them. Default false. */
  keepAlive?: boolean;
  /**
   * ms after which a relay the pool was not given (`relays`), connected on demand for a publish,
   * query or subscription, is closed once nothing uses it (it reconnects when used again).
   * Default 60 000; false: never.
   */
  idleTimeout?: number | false;
  /**
   * Check the signatures of received events in a pool of workers (Web Workers in browsers,
   * worker_threads in Node), each with its own instance of the WASM module, so that a burst of
   * events does not hold the main thread: the same events delivered, dropped for the same reasons,
   * in the same order. true, a worker count, or options. Default off (each worker is another
   * instance of the module: memory, and a start-up of some tens of ms).
   */
  verifyWorkers?: boolean | number | VerifyWorkersOptions;
  /** Injectable time and randomness (tests). */
  timers?: { setTimeout?: (fn: () => void, ms: number) => unknown; clearTimeout?: (id: any) => void };
  now?: () => number;
  random?: () => number;
}

/** RelayPoolOptions.verifyWorkers. */
export interface VerifyWorkersOptions {
  /** Workers started (on demand). Default: hardwareConcurrency - 1, between 1 and 4. */
  workers?: number;
  /** A connection's frames of one task go to the workers from this many up (fewer are checked on the main thread, unless frames are already with the workers). Default 1. */
  minFrames?: number;
  /** ms for a worker's answer; past it the worker is ended and its frames checked on the main thread. Default 10 000. */
  timeout?: number;
  /** Worker failures (crash, load error, timeout) after which the pool checks on the main thread and emits one 'error' (NostrError VERIFY_WORKER_FAILED). Default 3. */
  maxFailures?: number;
  /** Where the worker script is served (default: verify-worker.js beside the pool's module, which bundlers find). */
  url?: string | { readonly href: string };
}

/** The state of the pool's connection to one relay (the 'status' event reports each change). */
export type RelayState = 'connecting' | 'open' | 'authenticating' | 'auth-required' | 'backing-off' | 'closed';

/** A relay's NIP-11 document; unknown fields are kept. */
export interface RelayInfoDocument {
  name?: string;
  description?: string;
  pubkey?: string;
  contact?: string;
  supported_nips?: number[];
  software?: string;
  version?: string;
  limitation?: {
    max_message_length?: number;
    max_subscriptions?: number;
    max_filters?: number;
    max_limit?: number;
    max_subid_length?: number;
    min_pow_difficulty?: number;
    auth_required?: boolean;
    payment_required?: boolean;
    restricted_writes?: boolean;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** What the pool knows about one relay: pool.status(url). */
export interface RelayStatus {
  relay: string;
  state: RelayState;
  /** Connection attempts since the last stable connection. */
  attempt: number;
  /** When backing off: the time (ms since the epoch) of the next attempt. */
  nextAttemptAt?: number;
  /** Why the last connection failed or AUTH did not succeed. */
  error?: NostrError;
  /** The pubkey the relay accepted through NIP-42. */
  authenticatedAs?: string;
  /** Its NIP-11 document, once fetched. */
  info?: RelayInfoDocument | null;
}

/** The 'status' event: a relay's new state and the one before. */
export interface RelayStatusEvent extends RelayStatus {
  previous: RelayState;
}

/** Why a received frame delivered nothing (counted in pool.stats.dropped). */
export type DropReason = 'duplicate' | 'not-matching' | 'bad-signature' | 'malformed' | 'unknown-subscription';

/** A received frame that delivered nothing, and why. */
export interface DropEvent {
  relay: string;
  reason: DropReason;
  /** A stable code: RELAY_FRAME_INVALID, INVALID_SIGNATURE, RELAY_EVENT_NOT_MATCHING... */
  code: string;
  message: string;
  subId: string;
  eventId: string;
}

/** Machine-readable prefixes of OK and CLOSED messages (NIP-01), 'none' without one, 'unknown' for another. */
export type Reason =
  | 'none'
  | 'duplicate'
  | 'pow'
  | 'blocked'
  | 'rate-limited'
  | 'invalid'
  | 'error'
  | 'auth-required'
  | 'restricted'
  | 'unknown';

/** Why a subscription, or one relay's part of it, ended. */
export interface CloseReason {
  /** '' when not about one relay (closed by the caller, the pool closed, aborted). */
  relay: string;
  /** A relay's CLOSED reason, or the pool's: 'closed', 'aborted', 'too-many-filters', 'too-large'. */
  reason: Reason | 'closed' | 'aborted' | 'too-many-filters' | 'too-large';
  message: string;
  /** For limits the pool enforced: TOO_MANY_FILTERS, MESSAGE_TOO_LARGE. */
  code?: string;
}

/**
 * Options of pool.subscribe (and, without the callbacks, query and get). What a callback throws,
 * or the promise of an async one rejects with, goes to the pool's 'error' listeners (else
 * console.error); it never stops the subscription and is never an unhandled rejection.
 */
export interface SubscribeOptions {
  relays?: string[];
  /** A label for the subscription id. */
  id?: string;
  onevent?: (event: NostrEvent, relay: string) => void | Promise<void>;
  /** Once every relay sent EOSE, closed it, or is unreachable (or after maxWait). */
  oneose?: () => void | Promise<void>;
  /** Once, when the subscription ends. */
  onclose?: (reasons: CloseReason[]) => void | Promise<void>;
  /** ms after which oneose fires even if some relay has not sent EOSE (a number >= 0; Infinity: never; else INVALID_ARGUMENT). */
  maxWait?: number;
  signal?: PoolAbortSignal;
}

/** A live subscription across relays (pool.subscribe): iterate it, or pass onevent. */
export class Subscription implements AsyncIterable<NostrEvent> {
  readonly id: string;
  readonly filters: Filter[];
  readonly relays: string[];
  readonly closed: boolean;
  readonly eosed: boolean;
  readonly closeReasons: CloseReason[];
  /** Sends CLOSE where it is open; iterators end. */
  close(message?: string): void;
  /** Verified, matching, deduplicated events. Breaking out closes the subscription. Throws ABORTED (signal) or RELAY_CLOSED (every relay refused). */
  [Symbol.asyncIterator](): AsyncIterableIterator<NostrEvent>;
}

/** A relay's outcome for one published event. */
export type PublishStatus = 'accepted' | 'rejected' | 'timeout' | 'unreachable' | 'aborted';

/** One relay's outcome of pool.publish. */
export interface PublishResult {
  relay: string;
  status: PublishStatus;
  /** The relay's reason ('duplicate' for an accepted repeat, 'rate-limited', 'auth-required'...), or the pool's 'too-large'. */
  reason?: Reason | 'too-large';
  message?: string;
  /** RELAY_REJECTED, RELAY_TIMEOUT, RELAY_UNREACHABLE, RELAY_CONNECTION_LOST, MESSAGE_TOO_LARGE, POOL_CLOSED, ABORTED. */
  error?: NostrError;
  /** How many times the event was sent to this relay. */
  attempts: number;
}

/** Options of pool.publish. */
export interface PublishOptions {
  relays?: string[];
  /** ms per relay, waiting for a reconnecting relay and retries included (a number >= 0, or Infinity; else INVALID_ARGUMENT). */
  timeout?: number;
  /** An integer >= 0. */
  retries?: number;
  signal?: PoolAbortSignal;
  /** Called as each relay's outcome is known. */
  onresult?: (result: PublishResult) => void | Promise<void>;
}

/** Counters of received frames: delivered events and drops by reason. */
export interface PoolStats {
  frames: number;
  /** Frames that arrived together (a backlog) and were fed to the core as one batch, their signatures checked together. */
  batched: number;
  delivered: number;
  dropped: Record<DropReason, number>;
}

/** Connections to many relays (nostr-tools' SimplePool shapes): reconnects with backoff, resubscribes, verifies and dedupes events, answers NIP-42. close() leaves no timer or socket. */
export class RelayPool {
  constructor(options?: RelayPoolOptions);
  readonly closed: boolean;
  readonly stats: PoolStats;
  /** The relays the pool was given (its defaults), normalized. */
  readonly relays: string[];

  /** Opens a subscription on the relays (default: the pool's); events are verified, match their filter and come once. */
  subscribe(filters: Filter | Filter[], options?: SubscribeOptions): Subscription;
  /** Stored events until EOSE (or maxWait). Rejects RELAY_CLOSED when every relay refused, ABORTED. */
  query(filters: Filter | Filter[], options?: Omit<SubscribeOptions, 'onevent' | 'oneose' | 'onclose'>): Promise<NostrEvent[]>;
  /** The newest matching event, or null. */
  get(filters: Filter | Filter[], options?: Omit<SubscribeOptions, 'onevent' | 'oneose' | 'onclose'>): Promise<NostrEvent | null>;
  /** One outcome per relay; rejects only for an invalid event or an aborted signal. */
  publish(event: NostrEvent, options?: PublishOptions): Promise<PublishResult[]>;

  /** Connects now; RELAY_UNREACHABLE after `timeout` (ms >= 0, or Infinity); ABORTED when `signal` aborts (or already has). */
  ensureRelay(url: string, options?: { timeout?: number; signal?: PoolAbortSignal }): Promise<RelayStatus>;
  /** One relay's status, or every relay's. */
  status(url: string): RelayStatus;
  status(): RelayStatus[];
  /** The relay's NIP-11 document, fetched once per pool (again after a failure). */
  relayInfo(url: string): Promise<RelayInfoDocument>;

  /** Listens to 'status', 'notice', 'drop' or 'error' events; returns the function that stops listening. */
  on(type: 'status', listener: (event: RelayStatusEvent) => void): () => void;
  on(type: 'notice', listener: (event: { relay: string; message: string }) => void): () => void;
  on(type: 'drop', listener: (event: DropEvent) => void): () => void;
  /** What app callbacks (subscription callbacks, other listeners) throw, or their promises reject with. */
  on(type: 'error', listener: (error: unknown) => void): () => void;
  off(type: string, listener: (...args: any[]) => void): void;

  /** Closes everything (or only `relays`); resolves once the sockets are gone. */
  close(relays?: string[]): Promise<void>;
}

/** The core's subscription machine (one per pool), for custom drivers. Call delete() when done. */
export class SubscriptionMachine {
  /** retry: the managed API's retries of a transient CLOSED; seed: for their jitter. Omitted numbers take relayConstants(). */
  constructor(options?: { seenCap?: number; overlap?: number; maxFrameBytes?: number; retry?: { retries?: number; initialDelay?: number; maxDelay?: number; factor?: number; jitter?: number }; seed?: number });
  relay(url: string): number;
  open(subId: string, filters: Filter[]): void;
  reqFor(subId: string, relay: number, nowSeconds: number): string;
  disconnected(relay: number): void;
  resubscribe(relay: number, nowSeconds: number): string[];
  close(subId: string): { frame: string; relays: number[] };
  forget(relay: number): void;
  /** The packed outcome of one received frame (low 4 bits: 0 deliver, 1 eose, 2 closed, 3 dropped, 4 ok, 5 notice, 6 auth, 7 count). */
  feed(relay: number, frame: string, nowMs?: number): number;
  last(): Record<string, string | number | boolean> | undefined;
  /** Frames that arrived together from one relay, in order: their packed outcomes as feed() one by one would give them, with the delivered events' signatures checked together (BIP-340 batch verification). */
  /** valid: a verification worker's answer, one character per frame ('1': an EVENT frame whose event verified there, not checked again). */
  feedBatch(relay: number, frames: string[], nowMs?: number, valid?: string): Int32Array;
  /** The strings of outcome i of the last feedBatch, unless it was a delivery. */
  lastAt(i: number): Record<string, string | number | boolean> | undefined;
  state(subId: string, relay: number): 'pending' | 'live' | 'closed' | 'idle' | 'queued' | undefined;
  resumeSince(subId: string, relay: number, nowSeconds: number): number | undefined;
  seenCount(subId: string): number;
  readonly size: number;
  delete(): void;

  // The managed API (what RelayPool drives): the core decides, actions() says what to do. Times in ms.
  subscribe(subId: string, filters: Filter[], relays: number[], nowMs: number, maxWaitMs?: number): void;
  unsubscribe(subId: string): void;
  setLimits(relay: number, limits: { maxSubscriptions?: number; maxFilters?: number; maxMessageLength?: number }): void;
  connected(relay: number, nowMs: number): void;
  dropped(relay: number, reconnecting: boolean): void;
  removeRelay(relay: number, message: string): void;
  authResult(relay: number, accepted: boolean, nowMs: number): void;
  needsAuth(relay: number, reason: string): boolean;
  authState(relay: number): { challenge?: string; authenticated: boolean; refused: boolean };
  probe(relay: number): string;
  timeout(nowMs: number): void;
  nextDeadline(): number | undefined;
  wantsRelay(relay: number): boolean;
  // Publishing (src/relay/subscriptions_publish.cpp): send, connect, authenticate and settle actions name the publish.
  /** eventJson: the verified event's JSON text; deadlineMs -1: none. One settle action per relay. */
  publish(id: number, relays: number[], eventJson: string, nowMs: number, deadlineMs: number, retries: number): void;
  /** What is not settled settles 'aborted' (ABORTED). */
  abortPublish(id: number): void;
  /** Every publish settles 'aborted' and every COUNT ends (POOL_CLOSED). */
  closePublishes(): void;
  // NIP-45 COUNT (src/relay/subscriptions_count.cpp): send, connect, authenticate and count-done actions name the COUNT (countId).
  /** Asks relay index `relay` to count `filters` under `subId`; deadlineMs -1: none. One count-done action. */
  count(id: number, relay: number, subId: string, filters: Filter[], nowMs: number, deadlineMs: number): void;
  /** Ends COUNT `id` if it still waits (a count-done action with ABORTED). */
  abortCount(id: number): void;
  /** Whether a signer answers NIP-42 (without one, auth-required refuses a publish). */
  setCanAuthenticate(yes: boolean): void;
  // NIP-42 (src/relay/subscriptions_auth.cpp): sign-auth, auth-status and auth-done actions.
  /** Starts or joins AUTH on `relay`: the challenge, then the OK, by deadlineMs (Infinity: none). */
  authenticate(relay: number, nowMs: number, deadlineMs: number): void;
  /** The signer's answer to sign-auth `round`. */
  authSigned(relay: number, round: number, eventJson: string, nowMs: number): void;
  authSignFailed(relay: number, round: number, why: string, nowMs: number): void;
  /** eager: answer every challenge as it arrives, within timeoutMs. */
  setAuthPolicy(eager: boolean, timeoutMs: number): void;
  actions(): Array<{
    type: 'send' | 'connect' | 'authenticate' | 'eose' | 'relay-closed' | 'ended' | 'settle' | 'sign-auth' | 'auth-status' | 'auth-done' | 'count-done';
    relay: number;
    subId: string;
    frame?: string;
    reason?: string;
    message?: string;
    code?: string;
    /** Publishing: the publish id; settle: status, attempts, detail (the error's message); authenticate: deadline. */
    publish?: number;
    status?: 'accepted' | 'rejected' | 'timeout' | 'unreachable' | 'aborted';
    attempts?: number;
    detail?: string;
    deadline?: number;
    /** NIP-45: the COUNT's id; count-done: count and approximate (and hll when the relay sent one), or code and detail (reason and message for the relay's CLOSED). */
    countId?: number;
    count?: number;
    approximate?: boolean;
    hll?: string;
    /** sign-auth: the kind 22242 template to sign and the round to hand back. */
    round?: number;
    template?: { kind: number; created_at: number; tags: string[][]; content: string };
    /** auth-status: the connection's state (and pubkey once accepted); auth-done: accepted. */
    state?: RelayState;
    pubkey?: string;
    accepted?: boolean;
  }>;
  /** {subId, event} of the last feed() that delivered: the core's parse, marked verified. */
  event(): { subId: string; event: NostrEvent } | undefined;
  /** {subId, event} per delivery of the last feedBatch(), in order. */
  batchEvents(): Array<{ subId: string; event: NostrEvent }>;
}

/** The core's relay constants: the defaults RelayPool uses (bindings/relay.cpp, relayConstants). */
export function relayConstants(): {
  seenCap: number;
  resubscribeOverlap: number;
  subscriptionRetries: number;
  /** RelayPool's publishRetries, publishTimeout (ms) and authTimeout (ms) defaults. */
  publishRetries: number;
  publishTimeout: number;
  authTimeout: number;
  retry: { initialDelay: number; maxDelay: number; factor: number; jitter: number };
  reconnect: { initialDelay: number; maxDelay: number; factor: number; jitter: number; stableAfter: number };
  probePrefix: string;
  maxSubIdLength: number;
};

/** Fetches and parses a relay's NIP-11 document. Errors: RELAY_INFO_UNAVAILABLE, RELAY_INFO_INVALID, RELAY_TIMEOUT, ABORTED. */
export function fetchRelayInfo(url: string, options?: { signal?: PoolAbortSignal; timeout?: number; fetch?: FetchLike }): Promise<RelayInfoDocument>;
/** The http(s) URL of a relay's NIP-11 document (ws -> http, wss -> https). */
export function relayInfoUrl(url: string): string;

/** A decoded relay-to-client frame. */
export type RelayMessage =
  | { type: 'EVENT'; subId: string; event: NostrEvent }
  | { type: 'OK'; eventId: string; accepted: boolean; reason: Reason; message: string; text: string }
  | { type: 'EOSE'; subId: string }
  | { type: 'CLOSED'; subId: string; reason: Reason; message: string; text: string }
  | { type: 'NOTICE'; message: string }
  | { type: 'AUTH'; challenge: string }
  | { type: 'COUNT'; subId: string; count: number; approximate: boolean };

/** A decoded client-to-relay frame. */
export type ClientMessage =
  | { type: 'EVENT'; event: NostrEvent }
  | { type: 'REQ'; subId: string; filters: Filter[] }
  | { type: 'CLOSE'; subId: string }
  | { type: 'AUTH'; event: NostrEvent }
  | { type: 'COUNT'; subId: string; filters: Filter[] };

/** Relay-to-client frame (not verified). Throws NostrError RELAY_FRAME_*, INVALID_EVENT, INVALID_FILTER... */
export function decodeRelayMessage(frame: string, options?: { maxBytes?: number }): RelayMessage;
/** Client-to-relay frame (what a relay reads). Throws NostrError RELAY_FRAME_*, INVALID_EVENT, INVALID_FILTER... */
export function decodeClientMessage(frame: string, options?: { maxBytes?: number }): ClientMessage;
/** The `["REQ", subId, ...filters]` frame. */
export function encodeReq(subId: string, filters: Filter | Filter[]): string;
/** The NIP-45 `["COUNT", subId, ...filters]` frame. */
export function encodeCount(subId: string, filters: Filter | Filter[]): string;
/** The `["CLOSE", subId]` frame. */
export function encodeClose(subId: string): string;
/** The `["EVENT", event]` frame. */
export function encodeEvent(event: NostrEvent): string;
/** The NIP-42 `["AUTH", event]` frame. */
export function encodeAuth(event: NostrEvent): string;
/** The machine-readable prefix of an OK or CLOSED message (`rate-limited: slow down`), and whether a retry may help. */
export function parseReason(message: string): { reason: Reason; prefix: string; text: string; transient: boolean };
/** One canonical spelling of a relay URL (lowercase scheme and host, no default port...). Throws NostrError RELAY_URL_INVALID for anything but a ws(s) URL. */
export function normalizeRelayUrl(url: string): string;
/** The unsigned NIP-42 kind 22242 event answering `challenge`. */
export function makeAuthEvent(relayUrl: string, challenge: string, createdAt?: number): EventTemplate;
