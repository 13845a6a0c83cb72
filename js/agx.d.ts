// NIP-AGX 0.2.0: rumors (3838 message/task, 3839 receipt), the gift wrap with 12-bit PoW and an
// expiration, unwrap with every check, capability matching, routing/authorization, replay guard,
// AgxRequester, AgxClient and createAgxAgent. Errors are NostrError: AGX_* (AGX_WRAP_*,
// AGX_PAYLOAD_INVALID, AGX_TIMEOUT, AGX_TASK_FAILED, AGX_CLOSED, AGX_PUBLISH_FAILED...), NIP59_*,
// INVALID_*, ABORTED. A peer is an npub or 64 hex (either case): anything else is
// INVALID_PUBLIC_KEY (also a key off the curve), or the NIP-19 code of an npub that does not
// decode (BECH32_CHECKSUM...), BECH32_PREFIX for an nsec/nprofile.
import type { NostrEvent } from './index.js';
import type { LocalSigner, Signer } from './signer.js';
import type { PoolAbortSignal, PublishResult, RelayPool } from './relay.js';

/** Kind of an AGX message or task rumor. */
export const MESSAGE_KIND: 3838;
/** Kind of an AGX receipt rumor. */
export const RECEIPT_KIND: 3839;
/** Kind of the NIP-59 gift wrap every AGX rumor travels in. */
export const GIFT_WRAP_KIND: 1059;
/** Leading zero bits of proof of work every AGX gift wrap carries. */
export const POW_BITS: 12;

/** Any Signer (LocalSigner, Nip07Signer, your own), or a 32-byte secret key used for one call. */
export type AgxKey = Signer | LocalSigner | Uint8Array;
/** unwrapAgx (synchronous) takes a LocalSigner or a secret key only; unwrapAgxAsync takes any AgxKey. */
export type AgxLocalKey = LocalSigner | Uint8Array;

/** An unsigned AGX event with its id; never published bare. */
export interface AgxRumor {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
}

/** The clock (seconds) and the autoDepth of a new rumor. */
export interface RumorOptions {
  now?: number;
  autoDepth?: number;
}

/** A plain message rumor (application/a2a+json); a fresh contextId (conversation) unless one is given. */
export function createMessageRumor(
  text: string,
  author: string,
  recipient: string,
  options?: RumorOptions & { subject?: string | null; contentType?: string; contextId?: string },
): AgxRumor;
/**
 * A task request (`{t: "req", taskId, capability, payload}`) as a 3838 rumor. acceptsUpdates adds
 * `"accepts": ["status", "input"]`: the requester understands our status updates and input
 * requests, so a responder may send them (without it, the reference's shape, it sends none).
 */
export function createTaskRequestRumor(
  request: { taskId: string; capability: string; payload?: unknown },
  author: string,
  recipient: string,
  options?: RumorOptions & { acceptsUpdates?: boolean },
): AgxRumor;
/** A task result (`{t: "res", ...}`) as a 3838 rumor; an output too large is replaced (replacedTooLarge), a failure without `error` says "handler failed". */
export function createTaskResultRumor(
  result: { taskId: string; status: 'completed' | 'failed'; output?: unknown; error?: string },
  author: string,
  recipient: string,
  options?: { now?: number },
): { rumor: AgxRumor; replacedTooLarge: boolean };
/** A 3839 receipt ("delivered") of the message rumor `refRumorId`. */
export function createReceiptRumor(
  refRumorId: string,
  contextId: string,
  author: string,
  recipient: string,
  options?: { now?: number },
): AgxRumor;

/** Seal + wrap with PoW mined in slices (the event loop turns between them). */
export function wrapRumor(
  rumor: AgxRumor,
  key: AgxKey,
  recipient: string,
  options?: { now?: number; slice?: number; signal?: PoolAbortSignal },
): Promise<NostrEvent>;

/** What an opened rumor carries. */
export type AgxContentClass = 'text' | 'task-request' | 'task-result' | 'task-status' | 'task-input' | 'receipt' | 'unknown';

/** The task part of a message: a request (`t: 'req'`) or a result (`t: 'res'`). */
export interface AgxTaskEnvelope {
  /** req / res as the reference; status (working / input-required) and input are ours (a reference peer sees them as plain messages). */
  t: 'req' | 'res' | 'status' | 'input';
  taskId: string;
  capability?: string;
  payload?: unknown;
  status?: 'completed' | 'failed' | 'working' | 'input-required';
  output?: unknown;
  error?: string | null;
  /** status: the responder's note. */
  message?: string | null;
  /** input: the requester's answer. */
  input?: unknown;
  /** req: which of our status envelopes the requester said it understands (its "accepts"). */
  updates?: { status: boolean; input: boolean };
}

/** A status update of a task: {t:"status", taskId, status, message?} as a 3838 rumor. */
export function createTaskStatusRumor(
  update: { taskId: string; status: 'working' | 'input-required'; message?: string },
  author: string,
  recipient: string,
  options?: RumorOptions,
): AgxRumor;
/** The answer to input-required: {t:"input", taskId, input?} as a 3838 rumor. */
export function createTaskInputRumor(answer: { taskId: string; input?: unknown }, author: string, recipient: string, options?: RumorOptions): AgxRumor;

/** A status update of one of our requests, from the peer it went to. */
export interface AgxTaskUpdate {
  type: 'status';
  taskId: string;
  capability: string;
  state: 'working' | 'input-required';
  message?: string;
  from: string;
  sentAt: number;
  /** input-required only: answers it (provideInput). */
  respond?: (input: unknown, options?: { signal?: PoolAbortSignal }) => Promise<{ rumorId: string; wrapId: string }>;
}

/** A gift wrap that passed every check of unwrap: its sender, its rumor and what the rumor says. */
export interface AgxOpened {
  from: string;
  wrapId: string;
  wrapCreatedAt: number;
  /** The wrap's NIP-40 expiration (unix seconds). */
  wrapExpiresAt: number;
  sentAt: number;
  rumor: AgxRumor;
  kind: 'message' | 'receipt';
  class: AgxContentClass;
  message?: {
    contentType: string;
    role: string;
    messageId: string;
    contextId: string;
    text: string;
    subject: string | null;
    autoDepth: number;
  };
  task?: AgxTaskEnvelope;
  taskMalformed?: boolean;
  receipt?: { refEventId: string; contextId: string; status: 'delivered' | 'quarantined' };
}

/**
 * Throws NostrError with `disposition`: 'retry' (leave it unseen, try later), 'ignore' (a public
 * check failed: record it nowhere) or 'discard' (it passed the public checks and did not check
 * out: its id may be cached); `retry` is disposition === 'retry'.
 */
export function unwrapAgx(wrap: NostrEvent, key: AgxLocalKey, options?: { now?: number }): AgxOpened;
/** Any key; an error from an unavailable signer carries `retry` and `signerUnavailable`. */
export function unwrapAgxAsync(
  wrap: NostrEvent,
  key: AgxKey,
  options?: { now?: number; me?: string; isSignerUnavailable?: (err: unknown) => boolean },
): Promise<AgxOpened>;

/** Thrown by a signer that is unavailable (unreachable bunker, KMS timeout): code SIGNER_UNAVAILABLE. */
export class AgxSignerUnavailableError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
  readonly code: 'SIGNER_UNAVAILABLE';
  readonly unavailable: true;
}
/** Unavailable (retry, poll incomplete) vs bad input (discard). */
export function isSignerUnavailable(err: unknown): boolean;

/** Whether one advertised pattern (exact, `ns.*` or `*`) covers `requested`. */
export function capabilityMatches(pattern: string, requested: string): boolean;
/** Whether any advertised entry covers `requested` (entries that are not strings are ignored). */
export function matchesCapability(advertised: unknown, requested: string): boolean;
/** The handler key that services `requested`: exact, then the longest `ns.*`, then `*`; or null. */
export function findHandler(handlerKeys: string[], requested: string): string | null;

/** The authorization decision for a task request (default-deny). */
export type AuthVerdict = 'allow' | 'deny' | 'deny-unconfigured' | 'ask-host';

/** What to do with an opened rumor, and why (AgxRouter.route). */
export interface RouteDecision {
  action: 'run-handler' | 'ask-host' | 'settle-pending' | 'drop' | 'deliver-plain' | 'task-update' | 'task-input';
  reason:
    | 'plain-message'
    | 'unknown-content-type'
    | 'malformed-task'
    | 'unknown-capability'
    | 'unmatched-result'
    | 'denied'
    | 'denied-unconfigured'
    | 'allowed'
    | 'needs-host'
    | 'matched-result'
    | 'wrong-sender'
    | 'matched-update'
    | 'matched-input'
    | 'unmatched-input';
  sendReceipt: boolean;
  mayAutoReply: boolean;
  /** The plain path may answer it with a message: plain text only (never denied or unserviceable task traffic, never an unknown content type). */
  mayReply: boolean;
  handlerKey: string;
  capability: string;
  taskId: string;
}

/** The core's routing and authorization table (sans-IO): handlers, allow list, pending requests. mode: 'unconfigured' (default-deny), 'accept-all', 'host' (an authorize function decides) or 'allow-list'. */
export class AgxRouter {
  constructor(mode?: 'unconfigured' | 'accept-all' | 'host' | 'allow-list');
  allow(pubkey: string, pattern: string): void;
  revoke(pubkey: string): boolean;
  decide(from: string, capability: string): AuthVerdict;
  takeUnconfiguredWarning(): boolean;
  setHandlers(keys: string[]): void;
  /** Deliver messages of unknown content types (plain path, unanswered) instead of dropping them. */
  keepUnknownContentTypes(keep?: boolean): void;
  addPending(taskId: string, peer: string, deadline?: number): void;
  cancelPending(taskId: string): boolean;
  settle(taskId: string, from: string): 'settled' | 'wrong-sender' | 'unknown';
  expire(now: number): string[];
  /** Our handler asked `peer` for input on taskId: its answer routes as 'task-input'. */
  awaitInput(taskId: string, peer: string): void;
  endAwait(taskId: string): boolean;
  readonly pendingSize: number;
  route(opened: AgxOpened, hostVerdict?: boolean): RouteDecision;
  dispose(): void;
}

/**
 * Replay protection over the core's seen store: wrap ids before decrypting, rumor ids after
 * opening. Processed ids are never forgotten before their expiry: a full store refuses new ones
 * (AGX_OVERLOADED). Discarded wraps go to a bounded, evicting cache.
 */
export class ReplayGuard {
  /** cap: processed ids kept (default 200 000); cacheCap: discarded wrap ids cached (default 50 000). */
  constructor(options?: { cap?: number; cacheCap?: number });
  knownWrap(wrapId: string, now?: number): boolean;
  knownRumor(rumorId: string, now?: number): boolean;
  /** Whether one more event (two ids) fits now. */
  hasRoom(now?: number): boolean;
  /** Both ids until max(now + 3 days, until); throws AGX_OVERLOADED (nothing recorded) when full. */
  processed(rumorId: string, wrapId: string, now?: number, until?: number): void;
  /** A wrap that passed the public checks and then was not processed: cached. */
  discarded(wrapId: string, now?: number): void;
  /** Processed ids kept. */
  readonly size: number;
  readonly cap: number;
  /** Discarded wrap ids cached. */
  readonly cached: number;
  load(entries: [string, number][], now?: number): number;
  snapshot(now?: number): [string, number][];
  journal(): [string, number][];
  prune(now?: number): number;
  dispose(): void;
}

/** Thrown by a handler: its text reaches the peer verbatim (anything else: "handler failed"). */
export class AgxPublicError extends Error {
  constructor(message: string);
}

/** What a task handler gets besides the payload. */
export interface AgxTaskContext {
  from: string;
  capability: string;
  taskId: string;
  rumorId: string;
  /**
   * True when this task was accepted by an earlier run of this agent that stopped (a crash) before
   * its result was recorded: the handler may have run, in part or whole, already. Be idempotent.
   */
  redelivered: boolean;
  /**
   * What the requester said it understands besides the result (its request's "accepts"): status
   * updates, and input (answering input-required). A reference peer's request says neither: then
   * nothing extra is sent.
   */
  updates: { status: boolean; input: boolean };
  /** Sends a `working` status update (note: at most 2000 characters); false (nothing sent) once the task has its result or when the requester does not take status updates. */
  working(note?: string): Promise<boolean>;
  /**
   * Sends `input-required` (note: what is needed) and resolves with the requester's answer (only
   * the requester's). Rejects AGX_TIMEOUT (timeout ms, default the client's inputTimeout,
   * 300 000), ABORTED, AGX_CLOSED, AGX_TASK_FINISHED, and AGX_INPUT_UNSUPPORTED (nothing sent)
   * when the requester did not say it can answer (updates.input false).
   */
  requestInput<T = unknown>(note?: string, options?: { timeout?: number; signal?: PoolAbortSignal }): Promise<T>;
}

/** A plain message (or task traffic that took the plain path) as an AgxRequester's onMessage listeners get it. */
export interface AgxPlainMessage {
  from: string;
  text: string;
  subject: string | null;
  contentType: string;
  contextId: string;
  /** As received; absent or unusable is 0. */
  autoDepth: number;
  class: AgxContentClass;
  /** Why it took the plain path: plain-message, denied, denied-unconfigured, unknown-capability... */
  reason: RouteDecision['reason'];
  task: AgxTaskEnvelope | null;
  rumorId: string;
  wrapId: string;
  sentAt: number;
}

/** A plain message (or task traffic that took the plain path) as an AgxClient's onMessage listeners get it. */
export interface AgxInboundMessage extends AgxPlainMessage {
  /**
   * An automated reply (autoDepth + 1, same conversation), refused past the ceiling or the local
   * bounds. Plain text messages only: a denied request, task traffic we do not service and a kept
   * unknown content type have none (SPEC.md: they get no reply).
   */
  reply?(text: string, options?: { subject?: string }): Promise<AgxAutoReplyResult>;
}

/** Whether an automated reply was sent, or which bound refused it. */
export type AgxAutoReplyResult =
  | { sent: true; rumorId: string; wrapId: string; autoDepth: number }
  | { sent: false; refused: 'depth-ceiling' | 'conversation-bound' | 'peer-bound' };

/** A receipt from a peer (onReceipt). */
export interface AgxReceipt {
  from: string;
  refEventId: string;
  contextId: string;
  status: string;
}

/** A capability's handler: its return value is the task's output; throw AgxPublicError for text the peer may see. */
export type AgxHandler = (payload: any, ctx: AgxTaskContext) => unknown | Promise<unknown>;
/** An AgxRequester's message listener (it never answers automatically: reply with send()). */
export type AgxPlainMessageListener = (message: AgxPlainMessage) => void | Promise<void>;
/** Returning text (or {text, subject}) from a listener answers a plain message automatically. */
export type AgxMessageListener = (
  message: AgxInboundMessage,
) => void | string | { text: string; subject?: string } | null | Promise<void | string | { text: string; subject?: string } | null>;

/**
 * A served task a SeenStore keeps until its request wrap expires (exactly-once across crashes):
 * 'accepted' (recorded before the handler runs) with the request's gift wrap as received (only
 * ciphertext: the payload is never stored in the clear), then 'done' with the result's gift wrap
 * (recorded before it is published), then 'sent' (the result went out; only the ids are kept, so
 * the request stays a replay for as long as any poll can fetch it). At start an accepted task runs
 * again (ctx.redelivered) and a done one is published again.
 */
export interface AgxTaskRecord {
  /** The task request's rumor id (64 hex). */
  id: string;
  state: 'accepted' | 'done' | 'sent';
  /** The request's gift wrap (kind 1059); only `{id}` once 'sent'. */
  wrap: NostrEvent | { id: string };
  /** The requester (64 hex). */
  to: string;
  taskId?: string;
  /** Runs started so far (a task cut short maxTaskRuns times is answered "handler failed"). */
  runs?: number;
  /** Unix seconds: forgotten then (the request wrap's expiration, at least 3 days). */
  expiresAt: number;
  /** The result's gift wrap, when done. */
  result?: NostrEvent;
}
/** What a SeenStore's load() returns. */
export interface SeenStoreState {
  entries: [string, number][];
  cursor: number | null;
  /** Task records left by the last run (absent from a store without task records). */
  tasks?: AgxTaskRecord[];
}
/**
 * The durable mirror of the replay store, the inbox cursor and the served tasks not yet answered.
 * A store without putTask/deleteTask still works, at most once: a task cut short by a crash is lost.
 */
export interface SeenStore {
  load(): Promise<SeenStoreState>;
  append(entries: [string, number][]): Promise<void>;
  setCursor(cursor: number): Promise<void>;
  /** Records (replaces) a task record, durably, before the client acts on it. */
  putTask?(record: AgxTaskRecord): Promise<void>;
  /** Forgets a task record (one that can no longer run). */
  deleteTask?(id: string): Promise<void>;
  close?(): Promise<void>;
}
/**
 * A SeenStore in memory (the default): nothing survives a process restart (a client restart on the
 * same object, it does). Bounded: `cap` ids and `cap` task records (default 200 000 each); a write
 * beyond them, once expired entries are dropped, fails with AGX_OVERLOADED.
 */
export class MemorySeenStore implements SeenStore {
  constructor(options?: { cap?: number });
  load(): Promise<SeenStoreState & { tasks: AgxTaskRecord[] }>;
  append(entries: [string, number][]): Promise<void>;
  setCursor(cursor: number): Promise<void>;
  putTask(record: AgxTaskRecord): Promise<void>;
  deleteTask(id: string): Promise<void>;
  close(): Promise<void>;
  readonly size: number;
  /** Task records that still need action (accepted, or done and not yet known to be published). */
  readonly taskCount: number;
  /** Task records kept after their result went out ('sent'), until the request wrap expires. */
  readonly sentTaskCount: number;
}
/**
 * Node: <dir>/seen.json (atomic snapshot, version 2 with task records; version 1 files are read)
 * + <dir>/seen.log (fsynced appends), 0600; <dir>/seen.lock: one writer (AGX_SEEN_STORE_LOCKED).
 */
export class FileSeenStore extends MemorySeenStore {
  constructor(dir: string, options?: { compactEvery?: number });
  readonly directory: string;
}
/** Browsers: IndexedDB (database version 2 adds the "tasks" object store; a version-1 database is upgraded in place). */
export class IndexedDbSeenStore implements SeenStore {
  constructor(options?: { name?: string; indexedDB?: unknown });
  load(): Promise<SeenStoreState & { tasks: AgxTaskRecord[] }>;
  append(entries: [string, number][]): Promise<void>;
  setCursor(cursor: number): Promise<void>;
  putTask(record: AgxTaskRecord): Promise<void>;
  deleteTask(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Flood limits of the tasks an AgxClient serves (defaults in TASK_LIMIT_DEFAULTS). A task over them
 * is answered with a failed result whose error starts "rate-limited" (with "retry after N s") or
 * "overloaded" (SPEC.md has no code of its own for this); an AgxClient requester rejects it
 * AGX_TASK_FAILED with `rejected` and `retryAfter`. A task accepted is never dropped: it runs now or
 * waits in the queue (and survives a crash with a durable seen store).
 */
export interface AgxTaskLimits {
  /** Handlers running at once, all peers (default 16). */
  maxConcurrent?: number;
  /** Handlers running at once for one peer (default 4). */
  perPeerConcurrent?: number;
  /** Accepted tasks waiting for a slot, all peers (default 256; 0: none wait). */
  maxQueued?: number;
  /** Accepted tasks waiting for a slot, one peer (default 32). */
  perPeerQueued?: number;
  /** Tasks accepted per peer: a token bucket of `count`, refilled over `window` seconds (default {count: 300, window: 60}); null: no rate. */
  perPeerRate?: { count: number; window: number } | null;
  /** Peers whose rate state is kept (default 10000; an idle one, longest untouched, is forgotten first). */
  maxTrackedPeers?: number;
}
/** The defaults of AgxTaskLimits (AgxClient taskLimits). */
export const TASK_LIMIT_DEFAULTS: Readonly<Required<AgxTaskLimits>>;
/** What TaskGate.offer() decides. */
export type TaskGateVerdict = 'run' | 'queued' | { rejected: 'rate-limited'; retryAfter: number } | { rejected: 'overloaded' };
/** The flood limiter AgxClient uses: the core's (src/protocols/agx/task_gate, sans-IO: `now` in seconds is passed in); jobs are opaque to it. */
export class TaskGate<J = unknown> {
  constructor(limits?: AgxTaskLimits);
  readonly limits: Required<Omit<AgxTaskLimits, 'perPeerRate'>> & { perPeerRate: { count: number; window: number } | null };
  readonly running: number;
  readonly queued: number;
  readonly trackedPeers: number;
  runningFor(peer: string): number;
  /** 'run': the job holds a slot (call release(peer) when it ends); 'queued': release() hands it out later. admitted: a re-run, neither rate-limited nor refused for a full queue. */
  offer(peer: string, now: number, job: J, options?: { admitted?: boolean }): TaskGateVerdict;
  /** Frees a slot of `peer`; returns the next queued job (now holding a slot) or null. */
  release(peer: string): { peer: string; job: J } | null;
  /** Forgets the queued jobs and returns them. */
  clear(): { peer: string; job: J }[];
  /** Frees the core object (AgxClient.stop() does it for its own); counters read 0 after. */
  dispose(): void;
}

/** Counters of an AgxRequester's requested tasks. */
export interface AgxRequestStats {
  /** A second result for one of our settled requests (dropped). */
  duplicateResults: number;
}

/** Counters of an AgxClient's served and requested tasks. */
export interface AgxTaskStats extends AgxRequestStats {
  running: number;
  queued: number;
  trackedPeers: number;
  accepted: number;
  /** Tasks cut short by a crash and run again at start. */
  reruns: number;
  /** Results recorded done at a restart, published again. */
  republished: number;
  /** Results no relay has accepted yet (retried with a growing delay and after every poll). */
  outbox: number;
  rejected: { 'rate-limited': number; overloaded: number };
}

/** AutoReplyLimiter's answer. */
export type AutoReplyVerdict = 'allowed' | 'depth-ceiling' | 'conversation-bound' | 'peer-bound';
/** The core's automated-reply limiter: the autoDepth ceiling plus bounds per conversation and per peer. */
export class AutoReplyLimiter {
  constructor(options?: { maxAutoDepth?: number; perConversation?: number; perPeer?: number; peerWindow?: number });
  readonly ceiling: number;
  tryReply(peer: string, conversation: string, inboundDepth: number, now?: number): AutoReplyVerdict;
  humanReset(peer: string, conversation: string): void;
  resetPeer(peer: string): void;
  dispose(): void;
}
/** autoDepth of an automated reply to a message of depth `inbound` (absent or unusable counts as 0). */
export function replyDepth(inbound: unknown): number;

/** Options of new AgxRequester(): AgxClient's without the serving side's. */
export interface AgxRequesterOptions {
  /** Any Signer: LocalSigner, Nip07Signer, a NIP-46 or KMS signer. */
  signer: Signer;
  /** A pool, or relays (then the client owns its pool). */
  pool?: RelayPool;
  relays?: string[];
  onMessage?: AgxPlainMessageListener;
  onReceipt?: (receipt: AgxReceipt) => void;
  onError?: (error: unknown) => void;
  seenStore?: SeenStore;
  /** ms (default 30000). */
  requestTimeout?: number;
  publishTimeout?: number;
  /** ms between catch-up polls (default 60000; 0: none). */
  pollInterval?: number;
  /**
   * ms before the first poll while one of our requests waits (default 3000; 0: none), then backing
   * off by half each time up to 30 s: answers arrive from relays that never push live events.
   */
  pendingPollInterval?: number;
  /** ms per relay per poll (default 10000). */
  pollTimeout?: number;
  /**
   * s (default 120); every poll reaches back pollOverlap + 172800. At most 86399, so the window
   * stays inside the 3-day replay retention (INVALID_ARGUMENT beyond).
   */
  pollOverlap?: number;
  /**
   * Processed ids kept in memory (default 200 000; an event takes two). At the cap a new wrap is
   * refused, not processed and not recorded: AGX_OVERLOADED to onError, one warning per episode,
   * the poll incomplete, and it is processed once ids expire. No id is forgotten to make room.
   */
  maxSeen?: number;
  isSignerUnavailable?: (err: unknown) => boolean;
  /**
   * The clock: unix seconds (may be fractional). It is the endpoint's one clock: the core's endpoint
   * machine reads it as milliseconds (seconds x 1000) for every deadline (request and input
   * timeouts, catch-up polls, result retries) and as seconds for wire times and the cursor.
   */
  now?: () => number;
  /** Relays (indexers) where peers' NIP-65 lists are also looked up, and where ours (and our card) are published. */
  discoveryRelays?: string[];
  /** Peers' ws:// and local relays count too (development only; default: wss:// on public host names). */
  allowLocalRelays?: boolean;
  /** ms a relay-list lookup waits (default 3000). */
  relayListTimeout?: number;
  /** host => addresses, the DNS check of peers' relay hosts (default: DNS in Node, none in browsers). */
  lookup?: (host: string) => Promise<string[] | null>;
  /** Deliver messages of unknown content types to onMessage (unanswered) instead of dropping them (default: dropped, reported to onError as AGX_CONTENT_TYPE_UNKNOWN). */
  keepUnknownContentTypes?: boolean;
}

/** Options of new AgxClient() (and createAgxAgent): AgxRequester's and the serving side's. */
export interface AgxClientOptions extends Omit<AgxRequesterOptions, 'onMessage'> {
  /** Decides each request for a capability we handle, or 'accept-all' (explicit opt-in); default-deny otherwise. */
  authorize?: ((request: { from: string; capability: string }) => boolean | Promise<boolean>) | 'accept-all';
  /** createAgxAgent's opt-in: accept every peer. */
  acceptAll?: boolean;
  allow?: { pubkey: string; capability: string }[];
  handlers?: Record<string, AgxHandler>;
  onMessage?: AgxMessageListener;
  /** Default: console.warn. */
  onWarning?: (message: string) => void;
  /** The autoDepth ceiling (default 8). */
  maxAutoDepth?: number;
  autoReplyLimits?: { perConversation?: number; perPeer?: number; peerWindow?: number };
  /** How long a handler waits in ctx.requestInput() for the requester's answer (ms). Default 300 000. */
  inputTimeout?: number;
  /** What start() puts on the Agent Card. */
  identity?: { org?: string; nip05?: string | null };
  /** Flood limits of the tasks we serve. */
  taskLimits?: AgxTaskLimits;
  /** A task cut short by this many crashes is answered "handler failed" instead of run again (default 3). */
  maxTaskRuns?: number;
}

/** What one catch-up poll saw and did. */
export interface AgxPollResult {
  complete: boolean;
  cursor: number;
  since: number;
  seen: number;
  processed: number;
  replay: number;
  discarded: number;
  future: number;
  unavailable: number;
  /** Failed a public check (signature, proof of work, expiration, one p tag...): recorded nowhere. */
  invalid: number;
  /** Refused because the replay store was full (the poll is then incomplete). */
  overloaded: number;
}

/**
 * What ingest() did with one gift wrap: 'invalid' (a public check failed: recorded nowhere),
 * 'discarded' (passed them, did not open or check out: cached), 'overloaded' (the replay store is
 * full: not recorded, polled again).
 */
export type AgxIngestResult = 'processed' | 'replay' | 'invalid' | 'discarded' | 'future' | 'unavailable' | 'overloaded' | 'ignored';

/** The replay memory of an AgxRequester / AgxClient. */
export interface AgxReplayStats {
  /** Processed ids kept (never forgotten before their retention). */
  processed: number;
  cap: number;
  /** Discarded wrap ids cached. */
  cached: number;
  /** Wraps refused because the store was full. */
  overloaded: number;
}

/**
 * The requesting side of AGX alone: sends messages and task requests and gets their receipts,
 * status updates and results, with replay protection and catch-up polls; serves nothing (task
 * requests sent to it take the plain path, unanswered). AgxClient is this plus the serving side;
 * an app that only requests (a web page) imports this class and its bundle leaves the serving side
 * out.
 */
export class AgxRequester {
  constructor(options: AgxRequesterOptions);
  /** null until known for a non-local signer (after start() or a first send). */
  readonly publicKey: string | null;
  readonly pendingCount: number;
  readonly taskStats: AgxRequestStats;
  readonly replayStats: AgxReplayStats;
  readonly cursor: number;
  readonly pollLookback: number;
  readonly pool: RelayPool;
  /** Our relays (we read and publish there). */
  relayUrls(): string[];
  /** Where a wrap to `peer` goes: our relays, then its NIP-65 inbox relays (looked up when not cached). */
  relaysFor(peer: string): Promise<string[]>;
  onMessage(fn: AgxPlainMessageListener): () => void;
  onReceipt(fn: (receipt: AgxReceipt) => void): () => void;
  /** Status updates (working / input-required) of our requests. */
  onTaskUpdate(fn: (update: AgxTaskUpdate) => void | Promise<void>): () => void;
  /** Answers an input-required update of our request; rejects INVALID_ARGUMENT when none waits under taskId. */
  provideInput(taskId: string, input: unknown, options?: { signal?: PoolAbortSignal }): Promise<{ rumorId: string; wrapId: string }>;
  /** A human message (autoDepth 0); contextId continues a conversation and resets its count. */
  send(
    peer: string,
    text: string,
    options?: { subject?: string; contextId?: string; signal?: PoolAbortSignal },
  ): Promise<{ rumorId: string; wrapId: string; contextId: string; results: PublishResult[] }>;
  /**
   * Resolves with the output of a completed result (exactly one per task id: a second result is
   * dropped); rejects AGX_TASK_FAILED (err.result; err.rejected and err.retryAfter for a flood-limit
   * rejection), AGX_TIMEOUT, ABORTED, AGX_CLOSED, AGX_PUBLISH_FAILED, AGX_TOO_LARGE (before sending).
   */
  request<T = unknown>(
    peer: string,
    capability: string,
    payload?: unknown,
    /** onUpdate: this request's status updates; each one restarts the timeout. */
    options?: { timeout?: number; signal?: PoolAbortSignal; onUpdate?: (update: AgxTaskUpdate) => void | Promise<void> },
  ): Promise<T>;
  ingest(wrap: NostrEvent): Promise<AgxIngestResult>;
  poll(): Promise<AgxPollResult>;
  /** Publishes nothing (no card, no relay list: AgxClient's start() does); while requests wait it also polls their peers' outbox relays. */
  start(): Promise<{ cursor: number; poll: AgxPollResult }>;
  /** Rejects open requests (AGX_CLOSED), closes the seen store (and the pool it made from `relays`). */
  stop(): Promise<void>;
}

/** An AGX agent: an AgxRequester that also serves capabilities to the peers it authorizes, with automated-reply bounds. */
export class AgxClient extends AgxRequester {
  constructor(options: AgxClientOptions);
  readonly taskStats: AgxTaskStats;
  handle(capability: string, fn: AgxHandler): this;
  capabilities(): string[];
  onMessage(fn: AgxMessageListener): () => void;
  autoReply(inbound: AgxInboundMessage, text: string, options?: { subject?: string; signal?: PoolAbortSignal }): Promise<AgxAutoReplyResult>;
  /** A human reset of a conversation's (or, without contextId, a peer's) automated-reply count. */
  resetAutoDepth(peer: string, contextId?: string): void;
  /**
   * advertise (default true, as the reference's start()): also publish the Agent Card (public;
   * retraction is best-effort) and the NIP-65 relay list (merged into the key's own) on our
   * relays and the discovery relays. Pass false to stay unlisted.
   */
  start(options?: { advertise?: boolean }): Promise<{ cursor: number; poll: AgxPollResult; card?: { event: NostrEvent; results: PublishResult[] }; relayList?: { event: NostrEvent | null; results: PublishResult[] } }>;
  /** createAgxAgent's names: start(), and stop(). */
  serve(options?: { advertise?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** The first name of the API: an AgxClient. */
export type AgxAgentOptions = AgxClientOptions;
/** The first name of AgxClient. */
export type AgxAgent = AgxClient;
/** The first name of the API: new AgxClient(options). */
export function createAgxAgent(options: AgxClientOptions): AgxClient;

// --- discovery

/** Kind of an Agent Card (replaceable, public). */
export const CARD_KIND: 11337;
/** Kind of a NIP-65 relay list. */
export const RELAY_LIST_KIND: 10002;

/** A parsed, validated Agent Card. */
export interface AgentCard {
  pubkey: string;
  id: string;
  createdAt: number;
  org: string | null;
  displayName: string | null;
  /** Claimed; see nip05Verified. */
  nip05: string | null;
  capabilities: string[];
  relays: string[];
  payloadTypes: string[];
  nip05Verified?: boolean;
  nip05Error?: string;
}

/** How verifyNip05 fetches and checks hosts (injectable for tests and browsers). */
export interface Nip05Options {
  /**
   * Default: in Node the package's own https GET, which resolves the host again at connect time
   * (through `lookup`) and connects only to an address it checked, so a host cannot answer the
   * check with a public address and then rebind its name to a private one (DNS rebinding); in
   * browsers globalThis.fetch. A fetch given here makes its own connection: only the check before
   * it (by `lookup`) applies.
   */
  fetch?: (url: string, init: any) => Promise<any>;
  /** host => addresses; null: no DNS check (browsers; the Node default fetch then still checks the addresses DNS gives when it connects). */
  lookup?: (host: string) => Promise<string[] | null>;
  /** PEM certificate(s) the Node default fetch trusts besides Node's root CAs (e.g. a private CA); INVALID_ARGUMENT if not PEM text. */
  ca?: string | string[];
  /** ms (default 5000). */
  timeout?: number;
}

/** Publishes our Agent Card (public). Caps: org 200 characters, nip05 253, 64 capabilities of 200, 10 relays; AGX_CARD_INVALID otherwise. */
export function publishAgentCard(
  signer: Signer,
  pool: RelayPool,
  card: { org?: string; nip05?: string | null; capabilities?: string[]; relays?: string[]; relaysToPublish?: string[]; now?: number; timeout?: number },
): Promise<{ event: NostrEvent; results: PublishResult[] }>;
/** Validates a card event with the reference's caps; throws NostrError AGX_CARD_INVALID. */
export function parseAgentCard(event: NostrEvent): AgentCard;
/** The newest valid Agent Card of `peer` (npub or hex), or null; `verifyNip05` also checks its NIP-05 handle. */
export function fetchAgentCard(
  pool: RelayPool,
  peer: string,
  options?: Nip05Options & { relays?: string[]; verifyNip05?: boolean },
): Promise<AgentCard | null>;
/** NIP-09 deletion of our Agent Card(s): best-effort, relays need not honor it. */
export function retractAgentCard(
  signer: Signer,
  pool: RelayPool,
  options?: { reason?: string; relays?: string[]; now?: number; timeout?: number },
): Promise<{ event: NostrEvent | null; results: PublishResult[]; retracted: string[] }>;
/** name@domain as { name, domain, url } (the https nostr.json URL); throws AGX_NIP05_INVALID, also for hosts not public by their spelling. */
export function parseNip05(identifier: string): { name: string; domain: string; url: string };
/** Whether `identifier`'s nostr.json maps its name to `pubkey`: https only, public hosts, no redirects, 100 KB, 5 s. Throws NostrError AGX_NIP05_* when the check cannot be made. */
export function verifyNip05(identifier: string, pubkey: string, options?: Nip05Options): Promise<boolean>;
/** True for addresses no public NIP-05 host has (loopback, private, link-local, CGNAT, multicast, unique-local, documentation...), IPv4 inside IPv6 (mapped, compatible, NAT64, 6to4) judged by the IPv4, and anything that is not an address. */
export function isPrivateAddress(ip: string): boolean;
/** Publishes our NIP-65 relay list (kind 10002). */
export function publishRelayList(
  signer: Signer,
  pool: RelayPool,
  options: { relays: (string | { url: string; read?: boolean; write?: boolean })[]; relaysToPublish?: string[]; now?: number; timeout?: number },
): Promise<{ event: NostrEvent; results: PublishResult[] }>;
/** The newest NIP-65 relay list of `peer`, or null; `read` is where to send to it. */
export function resolveRelayList(
  pool: RelayPool,
  peer: string,
  options?: { relays?: string[]; timeout?: number },
): Promise<{ read: string[]; write: string[]; relays: string[]; createdAt: number; id: string } | null>;
