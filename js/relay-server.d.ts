// nostr-agents/relay-server: the local dev relay, in-process (Node only).
import type { NostrEvent, Filter } from './index.js';

/** A per-connection token bucket. */
export interface RateLimit {
  /** Tokens added per second (one EVENT, REQ or COUNT costs one). Default 1000. */
  rate?: number;
  /** Bucket size: messages allowed in a burst. Default 5000. */
  burst?: number;
}

/** The AGX write policy for gift wraps (`agxPolicy`). */
export interface AgxPolicyOptions {
  /** Minimum leading zero bits of a gift wrap id. Default 12. */
  minPow?: number;
  /** Furthest a gift wrap's expiration may be, in seconds from now. Default 31 days. */
  maxExpirationSeconds?: number;
}

/** Record handed to a store (internal shape, exposed for custom stores). */
export interface StoredRecord {
  id: string;
  pubkey: string;
  kind: number;
  created_at: number;
  tags: string[][];
  json: string;
  key?: string;
  expiresAt?: number;
}

/** Where a relay keeps events: MemoryStore, SqliteStore or your own. */
export interface EventStore {
  readonly kind: 'sqlite' | 'memory';
  readonly size: number;
  put(record: StoredRecord): 'stored' | 'duplicate' | 'superseded' | 'deleted';
  applyDeletion(deletion: NostrEvent): number;
  query(
    filter: Filter,
    options: { limit: number; now: number; match: (row: { id: string; created_at: number; json: string }) => boolean },
  ): Array<{ id: string; created_at: number; json: string }>;
  purgeExpired(now: number): number;
  close(): void;
}

/** Options of startRelay (the CLI's `relay` flags). */
export interface RelayOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /**
   * SQLite database file. Without it (and without `memory`) events live in an in-memory SQLite
   * database. startRelay rejects RELAY_STORE_UNAVAILABLE when no SQLite driver loads.
   */
  db?: string;
  /** Keep events in a plain JS in-memory store. */
  memory?: boolean;
  /** A store to use instead of opening one (not closed by close()); lets a relay restart with its events. */
  store?: EventStore;
  /** Gift wraps (kind 1059) need an expiration at most 31 days ahead and at least 12 bits of PoW. */
  agxPolicy?: boolean | AgxPolicyOptions;
  /**
   * Kinds in NIP-01's ephemeral range (20000-29999) to store anyway, e.g. NIP-XX's durable
   * prompts and terminals [25802, 25803, 25805] (what the seed's session recovery reads).
   */
  storeKinds?: number[];
  /** true: NIP-42 required before EVENT/REQ/COUNT; 'optional': challenge sent, not required. */
  auth?: boolean | 'optional';
  /** Only these pubkeys, once authenticated, may read and write (others get `restricted:`). */
  allowedPubkeys?: string[];
  /** Largest message accepted, in bytes. Default 262144. */
  maxMessageLength?: number;
  /** Open connections; one more gets NOTICE `blocked:` and is closed (1013). Default 1024. */
  maxConnections?: number;
  /** Open subscriptions per connection (over it: CLOSED `blocked:`). Default 50. */
  maxSubscriptions?: number;
  /** Filters per REQ (over it: CLOSED `invalid:`). Default 10. */
  maxFilters?: number;
  /** JSON bytes of filters one connection's open subscriptions may hold (over it: CLOSED `blocked:`). Default 16 MiB. */
  maxFilterBytes?: number;
  /** JSON bytes of filters all connections together may hold (over it: CLOSED `blocked:`). Default 64 MiB. */
  maxTotalFilterBytes?: number;
  /** Stored events one COUNT looks at; beyond it the answer is `{count, approximate: true}` (NIP-45). Default 10000. */
  maxCountScan?: number;
  /** Cap on a filter's limit (and the limit when none is given). Default 5000. */
  maxLimit?: number;
  /** Per-connection token bucket; false turns rate limiting off. */
  rateLimit?: RateLimit | false;
  /** Extra fields merged into the NIP-11 document. */
  info?: Record<string, unknown>;
  /** Receives diagnostic lines. Default: silent. */
  log?: (line: string) => void;
}

/** The NIP-11 document the dev relay serves. */
export interface RelayInfoDocument {
  name: string;
  description: string;
  software: string;
  version: string;
  supported_nips: number[];
  limitation: {
    max_message_length: number;
    max_subscriptions: number;
    max_filters: number;
    /** Not in NIP-11's list: JSON bytes of filters one connection may hold open. */
    max_filter_bytes: number;
    /** Not in NIP-11's list: open connections the relay accepts. */
    max_connections: number;
    /** Not in NIP-11's list: stored events one COUNT looks at before answering approximate. */
    max_count_scan: number;
    max_limit: number;
    default_limit: number;
    max_subid_length: number;
    min_pow_difficulty: number;
    auth_required: boolean;
    payment_required: boolean;
    restricted_writes: boolean;
  };
  [field: string]: unknown;
}

/** A started dev relay. */
export interface RunningRelay {
  /** ws://host:port */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly storage: 'sqlite' | 'memory';
  readonly store: EventStore;
  /** Open client connections. */
  readonly connections: number;
  /** The NIP-11 document served over HTTP. */
  info(): RelayInfoDocument;
  /** Drops every connection, stops listening, closes the store it opened. Idempotent. */
  close(): Promise<void>;
}

/** Starts the dev relay (NIP-01, 09, 11, 40, 42) on `host:port`; resolves once it listens. */
export function startRelay(options?: RelayOptions): Promise<RunningRelay>;

/**
 * SQLite by default (in `db`, or in memory) through better-sqlite3, else node:sqlite (Node >=
 * 22.13); `memory: true` for the JS store. When neither SQLite loads: with a `db` file it throws
 * NostrError RELAY_STORE_UNAVAILABLE (the message names the fix), never keeping events in memory
 * silently; without one it says so through `log` and returns a MemoryStore.
 */
export function openStore(options?: { db?: string; memory?: boolean; log?: (line: string) => void }): EventStore;

/** Events in a plain JS in-memory store. */
export class MemoryStore implements EventStore {
  readonly kind: 'memory';
  readonly size: number;
  put(record: StoredRecord): 'stored' | 'duplicate' | 'superseded' | 'deleted';
  applyDeletion(deletion: NostrEvent): number;
  query(
    filter: Filter,
    options: { limit: number; now: number; match: (row: { id: string; created_at: number; json: string }) => boolean },
  ): Array<{ id: string; created_at: number; json: string }>;
  purgeExpired(now: number): number;
  close(): void;
}

/** Events in SQLite through better-sqlite3 (an optional peer dependency) or node:sqlite, in `file` or in memory. */
export class SqliteStore implements EventStore {
  constructor(file?: string);
  readonly kind: 'sqlite';
  /** The driver in use. */
  readonly driver: 'better-sqlite3' | 'node:sqlite';
  readonly file: string;
  readonly size: number;
  put(record: StoredRecord): 'stored' | 'duplicate' | 'superseded' | 'deleted';
  applyDeletion(deletion: NostrEvent): number;
  query(
    filter: Filter,
    options: { limit: number; now: number; match: (row: { id: string; created_at: number; json: string }) => boolean },
  ): Array<{ id: string; created_at: number; json: string }>;
  purgeExpired(now: number): number;
  close(): void;
}

/** The relay's default limits and settings. */
export const DEFAULTS: Readonly<{
  port: number;
  host: string;
  maxMessageLength: number;
  maxConnections: number;
  maxSubscriptions: number;
  maxFilters: number;
  maxFilterBytes: number;
  maxTotalFilterBytes: number;
  maxLimit: number;
  maxCountScan: number;
  maxSubidLength: number;
  rateLimit: Readonly<Required<RateLimit>>;
  authWindowSeconds: number;
  purgeIntervalMs: number;
}>;

/** The AGX policy's defaults: 12 bits of PoW, expiration at most 31 days ahead. */
export const AGX_DEFAULTS: Readonly<Required<AgxPolicyOptions>>;
