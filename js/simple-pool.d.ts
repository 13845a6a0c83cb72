// SimplePool and Relay: nostr-tools' pool and relay shapes (2.x) on a RelayPool. Reconnect and ping
// are on unless turned off; events are verified and deduplicated by the core.
import type { EventTemplate, Filter, NostrEvent, NostrError } from './index.js';
import type { PoolAbortSignal, RelayPool, VerifyWorkersOptions, WebSocketConstructor } from './relay.js';

/** Signs a NIP-42 AUTH template (kind 22242). */
export type AuthSigner = (template: EventTemplate) => Promise<NostrEvent>;

/** Sets the WebSocket class new pools and relays use (e.g. `ws` in Node 20). */
export function useWebSocketImplementation(websocketImplementation: any): void;

/** What SimplePool.subscribe* return. */
export interface SubCloser {
  close(reason?: string): void;
}

/** params of SimplePool.subscribe, subscribeMany, subscribeMap. */
export interface SubscribeManyParams {
  onevent?: (event: NostrEvent) => void;
  /** Once every relay sent EOSE, closed or failed, or after maxWait ms. */
  oneose?: () => void;
  /** Once every relay closed: the relay's CLOSED message, or the caller's reason. */
  onclose?: (reasons: { url: string; reason: string }[]) => void;
  /** ms before oneose fires anyway (default: maxWaitForConnection + 4400). */
  maxWait?: number;
  abort?: PoolAbortSignal;
  id?: string;
  label?: string;
  /** Answers a NIP-42 challenge of these relays. */
  onauth?: AuthSigner;
  alreadyHaveEvent?: (id: string) => boolean;
  receivedEvent?: (relay: Relay, id: string) => void;
}

/** Options of new SimplePool() (nostr-tools' names). */
export interface SimplePoolOptions {
  /** false: no reconnect (nostr-tools' default). Default here: reconnect with backoff. */
  enableReconnect?: boolean;
  /** false: no liveness pings. Default here: on. */
  enablePing?: boolean;
  /** ms to connect to a relay. Default 3000. */
  maxWaitForConnection?: number;
  automaticallyAuth?: (relayURL: string) => null | AuthSigner;
  onRelayConnectionFailure?: (url: string) => void;
  onRelayConnectionSuccess?: (url: string) => void;
  allowConnectingToRelay?: (url: string, operation: ['read', Filter[]] | ['write', NostrEvent]) => boolean;
  websocketImplementation?: WebSocketConstructor;
  /** RelayPool's verifyWorkers: signature checks in workers, off the main thread. Default off. */
  verifyWorkers?: boolean | number | VerifyWorkersOptions;
  /** Build on this RelayPool instead of a new one. */
  pool?: RelayPool;
}

/** NIP-45 countMany directives. */
export type CountManyDirective = 'reactions' | 'reposts' | 'quotes' | 'replies' | 'comments' | 'followers';

/** nostr-tools' SimplePool on a RelayPool. Relay URLs must be ws:// or wss:// (else NostrError RELAY_URL_INVALID). */
export class SimplePool {
  constructor(options?: SimplePoolOptions);
  /** The RelayPool underneath. */
  readonly relayPool: RelayPool;
  trackRelays: boolean;
  seenOn: Map<string, Set<Relay>>;
  maxWaitForConnection: number;

  /** Connects; RELAY_UNREACHABLE after connectionTimeout ms, ABORTED on abort. */
  ensureRelay(url: string, params?: { connectionTimeout?: number; abort?: PoolAbortSignal }): Promise<Relay>;
  close(relays: string[]): Promise<void>;
  subscribe(relays: string[], filter: Filter | Filter[], params?: SubscribeManyParams): SubCloser;
  subscribeMany(relays: string[], filter: Filter | Filter[], params?: SubscribeManyParams): SubCloser;
  subscribeMap(requests: { url: string; filter: Filter }[], params?: SubscribeManyParams): SubCloser;
  subscribeEose(relays: string[], filter: Filter | Filter[], params?: Omit<SubscribeManyParams, 'oneose'>): SubCloser;
  subscribeManyEose(relays: string[], filter: Filter | Filter[], params?: Omit<SubscribeManyParams, 'oneose'>): SubCloser;
  querySync(relays: string[], filter: Filter | Filter[], params?: Pick<SubscribeManyParams, 'id' | 'label' | 'maxWait' | 'abort'>): Promise<NostrEvent[]>;
  get(relays: string[], filter: Filter, params?: Pick<SubscribeManyParams, 'id' | 'label' | 'maxWait' | 'abort'>): Promise<NostrEvent | null>;
  countMany(
    relays: string[],
    target: string,
    directive: CountManyDirective,
    params?: { id?: string | null; maxWait?: number; abort?: PoolAbortSignal },
  ): Promise<{ count: number; hll?: string }>;
  /** One Promise per relay: the relay's OK message, or a NostrError (never an unhandled rejection). */
  publish(relays: string[], event: NostrEvent, params?: { onauth?: AuthSigner; maxWait?: number; abort?: PoolAbortSignal }): Promise<string>[];
  listConnectionStatus(): Map<string, boolean>;
  /** Closes every connection; the pool stays usable. */
  destroy(): Promise<void>;
  pruneIdleRelays(idleThresholdMs?: number): string[];
}

/** nostr-tools' Subscription of one relay. */
export interface RelaySubscription {
  readonly relay: Relay;
  readonly id: string;
  readonly filters: Filter[];
  closed: boolean;
  eosed: boolean;
  onevent?: (event: NostrEvent) => void;
  oneose?: () => void;
  onclose?: (reason: string) => void;
  fire(): void;
  close(reason?: string): void;
}

/** params of Relay.subscribe (nostr-tools' names); eoseTimeout defaults to relay.baseEoseTimeout. */
export interface RelaySubscriptionParams {
  onevent?: (event: NostrEvent) => void;
  oneose?: () => void;
  onclose?: (reason: string) => void;
  alreadyHaveEvent?: (id: string) => boolean;
  receivedEvent?: (relay: Relay, id: string) => void;
  eoseTimeout?: number;
  abort?: PoolAbortSignal;
  id?: string;
  label?: string;
}

/** Options of new Relay() and Relay.connect(). */
export interface RelayOptions {
  enableReconnect?: boolean;
  enablePing?: boolean;
  websocketImplementation?: WebSocketConstructor;
}

/** nostr-tools' Relay: one relay (its own RelayPool, or a view of a SimplePool's). */
export class Relay {
  constructor(url: string, options?: RelayOptions);
  static connect(url: string, options?: RelayOptions & { timeout?: number; abort?: PoolAbortSignal }): Promise<Relay>;
  readonly url: string;
  readonly connected: boolean;
  onclose: (() => void) | null;
  onnotice: (msg: string) => void;
  onauth: undefined | AuthSigner;
  baseEoseTimeout: number;
  publishTimeout: number;
  /** The pool's ping interval and timeout (ms), read when a connection opens (0 with enablePing: false). */
  pingFrequency: number;
  pingTimeout: number;
  openSubs: Map<string, RelaySubscription>;
  connect(options?: { timeout?: number; abort?: PoolAbortSignal }): Promise<void>;
  subscribe(filters: Filter[] | Filter, params: RelaySubscriptionParams): RelaySubscription;
  prepareSubscription(filters: Filter[] | Filter, params: RelaySubscriptionParams): RelaySubscription;
  /** The relay's OK message; rejects with NostrError RELAY_REJECTED (with `reason`), RELAY_TIMEOUT... */
  publish(event: NostrEvent): Promise<string>;
  auth(signAuthEvent: AuthSigner): Promise<string>;
  /** NIP-45: rejects with NostrError RELAY_CLOSED (the relay refused; `reason`), RELAY_TIMEOUT, RELAY_CONNECTION_LOST, RELAY_UNREACHABLE; auth-required runs `onauth` and asks again. */
  count(filters: Filter[], params?: { id?: string | null }): Promise<number>;
  countWithHLL(filters: Filter[], params?: { id?: string | null }): Promise<{ count: number; hll?: string }>;
  send(message: string): Promise<void>;
  close(): Promise<void>;
}

/** A publish rejection: the NostrError, with the relay and its reason. */
export type PublishError = NostrError & { relay?: string; reason?: string };
