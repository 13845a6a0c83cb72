// NIP-AGX 0.2.0: rumors (3838 message/task, 3839 receipt), the gift wrap with 12-bit PoW and an
// expiration, unwrap with every check, capability matching, routing/authorization, replay guard,
// and createAgxAgent. Errors are NostrError: AGX_* (AGX_WRAP_*, AGX_PAYLOAD_INVALID, AGX_TIMEOUT,
// AGX_TASK_FAILED, AGX_CLOSED, AGX_PUBLISH_FAILED...), NIP59_*, INVALID_*, ABORTED.
import type { NostrEvent } from './index.js';
import type { LocalSigner } from './signer.js';
import type { PoolAbortSignal, PublishResult, RelayPool } from './relay.js';

export const MESSAGE_KIND: 3838;
export const RECEIPT_KIND: 3839;
export const GIFT_WRAP_KIND: 1059;
export const POW_BITS: 12;

/** A LocalSigner, or a 32-byte secret key used for one call. */
export type AgxKey = LocalSigner | Uint8Array;

/** An unsigned AGX event with its id; never published bare. */
export interface AgxRumor {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
}

export interface RumorOptions {
  now?: number;
  autoDepth?: number;
}

export function createMessageRumor(
  text: string,
  author: string,
  recipient: string,
  options?: RumorOptions & { subject?: string | null; contentType?: string },
): AgxRumor;
export function createTaskRequestRumor(
  request: { taskId: string; capability: string; payload?: unknown },
  author: string,
  recipient: string,
  options?: RumorOptions,
): AgxRumor;
export function createTaskResultRumor(
  result: { taskId: string; status: 'completed' | 'failed'; output?: unknown; error?: string },
  author: string,
  recipient: string,
  options?: { now?: number },
): { rumor: AgxRumor; replacedTooLarge: boolean };
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

export type AgxContentClass = 'text' | 'task-request' | 'task-result' | 'receipt' | 'unknown';

export interface AgxTaskEnvelope {
  t: 'req' | 'res';
  taskId: string;
  capability?: string;
  payload?: unknown;
  status?: 'completed' | 'failed';
  output?: unknown;
  error?: string | null;
}

export interface AgxOpened {
  from: string;
  wrapId: string;
  wrapCreatedAt: number;
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

/** Throws NostrError with `retry` (leave unseen and retry later) or not (discard). */
export function unwrapAgx(wrap: NostrEvent, key: AgxKey, options?: { now?: number }): AgxOpened;

export function capabilityMatches(pattern: string, requested: string): boolean;
export function matchesCapability(advertised: unknown, requested: string): boolean;
export function findHandler(handlerKeys: string[], requested: string): string | null;

export type AuthVerdict = 'allow' | 'deny' | 'deny-unconfigured' | 'ask-host';

export interface RouteDecision {
  action: 'run-handler' | 'ask-host' | 'settle-pending' | 'drop' | 'deliver-plain';
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
    | 'wrong-sender';
  sendReceipt: boolean;
  mayAutoReply: boolean;
  handlerKey: string;
  capability: string;
  taskId: string;
}

export class AgxRouter {
  constructor(mode?: 'unconfigured' | 'accept-all' | 'host' | 'allow-list');
  allow(pubkey: string, pattern: string): void;
  revoke(pubkey: string): boolean;
  decide(from: string, capability: string): AuthVerdict;
  takeUnconfiguredWarning(): boolean;
  setHandlers(keys: string[]): void;
  addPending(taskId: string, peer: string, deadline?: number): void;
  cancelPending(taskId: string): boolean;
  settle(taskId: string, from: string): 'settled' | 'wrong-sender' | 'unknown';
  expire(now: number): string[];
  readonly pendingSize: number;
  route(opened: AgxOpened, hostVerdict?: boolean): RouteDecision;
  dispose(): void;
}

export class ReplayGuard {
  constructor(options?: { cap?: number });
  knownWrap(wrapId: string, now?: number): boolean;
  knownRumor(rumorId: string, now?: number): boolean;
  processed(rumorId: string, wrapId: string, now?: number): void;
  discarded(wrapId: string, now?: number): void;
  readonly size: number;
  prune(now?: number): number;
  dispose(): void;
}

/** Thrown by a handler: its text reaches the peer verbatim (anything else: "handler failed"). */
export class AgxPublicError extends Error {
  constructor(message: string);
}

export interface AgxTaskContext {
  from: string;
  capability: string;
  taskId: string;
  rumorId: string;
}

export interface AgxInboundMessage {
  from: string;
  text: string;
  subject: string | null;
  class: AgxContentClass;
  /** Why it took the plain path: plain-message, denied, denied-unconfigured, unknown-capability... */
  reason: RouteDecision['reason'];
  task: AgxTaskEnvelope | null;
  rumorId: string;
  wrapId: string;
  sentAt: number;
}

export interface AgxAgentOptions {
  signer: LocalSigner;
  pool: RelayPool;
  relays?: string[];
  /** Decides each request for a capability we handle; default-deny when nothing is configured. */
  authorize?: (request: { from: string; capability: string }) => boolean | Promise<boolean>;
  /** Explicit opt-in: accept every peer. */
  acceptAll?: boolean;
  allow?: { pubkey: string; capability: string }[];
  handlers?: Record<string, (payload: any, ctx: AgxTaskContext) => unknown | Promise<unknown>>;
  onMessage?: (message: AgxInboundMessage) => void;
  onReceipt?: (receipt: { from: string; refEventId: string; contextId: string; status: string }) => void;
  /** Default: console.warn. */
  onWarning?: (message: string) => void;
  onError?: (error: unknown) => void;
  publishTimeout?: number;
}

export interface AgxAgent {
  readonly publicKey: string;
  readonly pendingCount: number;
  send(
    peer: string,
    text: string,
    options?: { subject?: string; signal?: PoolAbortSignal },
  ): Promise<{ rumorId: string; wrapId: string; results: PublishResult[] }>;
  /** Resolves with the output of a completed result; rejects AGX_TASK_FAILED, AGX_TIMEOUT, ABORTED, AGX_CLOSED. */
  request<T = unknown>(
    peer: string,
    capability: string,
    payload?: unknown,
    options?: { timeout?: number; signal?: PoolAbortSignal },
  ): Promise<T>;
  /** Subscribes to our wraps; resolves after the stored ones (EOSE). */
  serve(): Promise<void>;
  /** Processes one received wrap: 'processed', 'replay', 'discarded' or 'ignored'. */
  ingest(wrap: NostrEvent): Promise<'processed' | 'replay' | 'discarded' | 'ignored'>;
  close(): Promise<void>;
}

export function createAgxAgent(options: AgxAgentOptions): AgxAgent;

