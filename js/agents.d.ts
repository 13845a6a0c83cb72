// NIP-XX AI Agent Messages over relays: the client (discover, prompt) and the agent runtime (serveAgent).
import type { NostrError, NostrEvent } from './index.js';
import type { AgentErrorCode } from './nipxx.js';
import type { PoolAbortSignal, RelayPool } from './relay.js';
import type { Signer } from './signer.js';

/** ai.info content (kind 31340); unknown fields are kept. */
export interface AgentInfo {
  ver: 1;
  encryption: string[];
  tool_names: string[];
  supports_streaming?: boolean;
  supports_nip59?: boolean;
  dvm_compatible?: boolean;
  supported_models?: string[];
  default_model?: string;
  tool_schema_version?: number;
  tool_schemas?: Record<string, { schema_version: number; description: string; requires_approval?: boolean; input_schema: object }>;
  max_prompt_bytes?: number;
  max_context_tokens?: number;
  pricing_hints?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A protocol error from the agent (ai.error), or CANCELLED. Handlers may throw it to choose the code and a public message. */
export class AgentError extends NostrError {
  constructor(code: AgentErrorCode, message?: string, options?: { retryAfter?: number; details?: Record<string, unknown>; eventId?: string; cause?: unknown });
  readonly code: AgentErrorCode;
  /** Seconds, for transient failures (RATE_LIMIT...). */
  readonly retryAfter?: number;
  /** The seed's wire name: the same as retryAfter. */
  readonly retry_after?: number;
  readonly details?: Record<string, unknown>;
  /** The ai.error event id, when it came from the agent. */
  readonly eventId?: string;
}

/**
 * The agent's ai.info: the newest valid one by (created_at, id), remembered per pool; with none,
 * the seed's defaults and `event: null`. `agent`: hex or npub.
 */
export function discover(
  pool: RelayPool,
  agent: string,
  options?: { relays?: string[]; maxWait?: number; signal?: PoolAbortSignal },
): Promise<{ info: AgentInfo; event: NostrEvent | null }>;

/** The `thinking` a prompt may ask for. */
export type ThinkingLevel = 'low' | 'medium' | 'high' | 'max';
/** The reason an ai.cancel carries. */
export type CancelReason = 'user_cancel' | 'timeout' | 'policy';

/** Options of prompt(). */
export interface PromptOptions {
  pool: RelayPool;
  /** Relays to use (default: the pool's). */
  relays?: string[];
  signer: Signer;
  /** The agent's public key: hex or npub (INVALID_ARGUMENT otherwise). */
  agent: string;
  message: string;
  /** Must be one the agent supports (ai.info supported_models), else the run ends in UNSUPPORTED_MODEL. */
  model?: string;
  /**
   * Models you would also accept should `model` (or the agent's default) turn out unavailable
   * while the run executes. They never stand in for an unsupported `model`: that is
   * UNSUPPORTED_MODEL whatever this says (the seed's MUST).
   */
  fallbackModels?: string[];
  thinking?: ThinkingLevel;
  provider?: string;
  toolSchemaVersion?: number;
  /** The seed's names for toolSchemaVersion and fallbackModels (aliases: pass one of each pair). */
  tool_schema_version?: number;
  fallback_models?: string[];
  /**
   * The session (`s` tag). Omitted: the default session `sender:<client pubkey>`, which the prompt
   * is tagged with too, so the seed's recovery filter finds it from any client.
   */
  session?: string;
  /**
   * Aborting it cancels the run: ai.cancel once the prompt went out; before that (agent discovery,
   * the subscription waiting for EOSE) the run ends at once with CANCELLED and nothing is sent.
   */
  signal?: PoolAbortSignal;
  /** ms to wait for the agent's CANCELLED after ai.cancel before ending the run locally. Default 10 000. */
  cancelTimeout?: number;
  /**
   * ms to wait, after the first terminal, for a newer one (the seed: of several terminals keep
   * only the highest (created_at, id); a relay may deliver an older one first, another device
   * may cancel, two instances of an agent may both answer). The terminal update is shown at once;
   * a newer terminal adds one with `replaced: true`; `result` and `done` settle when the period
   * ends. Default TERMINAL_GRACE (1500 ms) for every run; 0 settles on the first terminal.
   */
  terminalGrace?: number;
  /**
   * ms without any event of the run after which it ends locally with NostrError RUN_INCOMPLETE
   * (the agent is gone, or a relay dropped its terminal); a stored run stays open and resumable.
   * Default 120000 (two minutes; no wait is infinite by default); 0 waits forever.
   */
  idleTimeout?: number;
  /** The clock (ms since the epoch, like Date.now) that dates the prompt and the cancel. Default Date.now. */
  now?: () => number;
  /** Records the prompt, every applied event and the terminal, for listSessions/listRuns/resumeRun. */
  store?: RunStore;
  /**
   * The privacy profile. 'default': NIP-44 events. 'nip59': privacy-first, every run event (the
   * prompt and cancel, and the agent's replies) NIP-59 gift-wrapped; the run fails with
   * UNSUPPORTED_FEATURE unless the agent's ai.info says supports_nip59. 'auto': nip59 when the
   * agent supports it. Default 'default'.
   */
  privacy?: PrivacyProfile | 'auto';
}

/** 'default': NIP-44 events; 'nip59': every run event gift-wrapped (see PromptOptions.privacy). */
export type PrivacyProfile = 'default' | 'nip59';

/** A run's success: what `run.result` resolves with. */
export interface RunResult {
  /** The final text, from ai.response. */
  text: string;
  usage?: { input_tokens: number; output_tokens: number };
  eventId: string;
}

/** What iterating a Run yields, in order. */
export type AgentRunUpdate =
  | { type: 'status'; state: 'thinking' | 'tool_use' | 'done'; progress?: number; info?: string }
  /** `text`: the whole text so far, in seq order; `degraded` when a delta is missing. */
  | { type: 'delta'; text: string; degraded: boolean; thinking?: string }
  /** Before a delta: a seq gap opened (`degraded: true`, "streaming degraded") or closed (false). */
  | { type: 'gap'; degraded: boolean }
  | { type: 'tool_call'; name?: string; phase?: 'start' | 'result'; arguments?: unknown; output?: unknown; success?: boolean; duration_ms?: number; text?: string }
  /** An event of the run that breaks the rules (not applied). */
  | { type: 'rejected'; code: AgentErrorCode; reason: string; eventId: string }
  /**
   * `replaced`: a newer terminal replaced the one shown before (within terminalGrace);
   * `replacedEventId` is that one's event id.
   */
  | ({ type: 'terminal'; ok: true; replaced?: true; replacedEventId?: string } & RunResult)
  | { type: 'terminal'; ok: false; error: AgentError | NostrError; replaced?: true; replacedEventId?: string }
  /** The run store failed to record something (STORE_FAILED...); the run goes on. */
  | { type: 'store_error'; error: NostrError };

/** One prompt and what the agent sends back. Iterating replays every update from the start and ends after the terminal. */
export class Run implements AsyncIterable<AgentRunUpdate> {
  /** The prompt event id (the run id), once signed. */
  readonly id: string | null;
  /** The client's public key, once known. */
  readonly client: string | null;
  /** The agent's hex public key (also when it was given as an npub). */
  readonly agent: string;
  /** The `s` tag, or null (the session is then `sender:<client>`). */
  readonly session: string | null;
  readonly message: string;
  /** The profile in use (null while 'auto' is still reading ai.info). */
  readonly privacy: PrivacyProfile | null;
  readonly done: boolean;
  /** Resolves true once a relay accepted the prompt, false when it was not sent (then `result` rejects). */
  readonly sent: Promise<boolean>;
  /** Resolves with ai.response; rejects with AgentError (ai.error, CANCELLED) or NostrError (the prompt was not delivered). */
  readonly result: Promise<RunResult>;
  /** Publishes ai.cancel; true when one was sent (false after the terminal or a previous cancel). */
  cancel(reason?: CancelReason): Promise<boolean>;
  [Symbol.asyncIterator](): AsyncIterableIterator<AgentRunUpdate>;
}

/** Sends a prompt (after subscribing to its run) and returns the Run at once. */
export function prompt(options: PromptOptions): Run;

/** One event of a run as the client received and applied it. */
export interface StoredEvent {
  event: NostrEvent;
  /** Its decrypted content. */
  plaintext: string;
}

/** What a run store keeps of one run (plain JSON). */
export interface StoredRun {
  /** The prompt event id. */
  id: string;
  agent: string;
  client: string;
  /** The session: the `s` tag, or `sender:<client>`. */
  session: string;
  /** The session the prompt named, or null for the default one (tagged `sender:<client>`, or untagged by older versions). */
  sessionTag: string | null;
  message: string;
  model?: string;
  thinking?: ThinkingLevel;
  /** Seconds. */
  created_at: number;
  createdMs?: number;
  /** Seconds: the prompt, or the terminal. */
  updatedAt: number;
  /** 'done' once the agent's terminal arrived. */
  state: 'open' | 'done';
  privacy?: PrivacyProfile;
  terminal:
    | null
    | ({ ok: true; eventId: string; createdAt?: number } & Omit<RunResult, 'eventId'>)
    | { ok: false; eventId: string; createdAt?: number; code: AgentErrorCode; message: string; retry_after?: number; details?: Record<string, unknown> };
  /** The signed prompt. */
  prompt?: NostrEvent;
  /** getRun only: the applied events in arrival order. */
  events?: StoredEvent[];
}

/** Where runs are recorded. Implement it to keep them elsewhere. */
export interface RunStore {
  putRun(record: StoredRun): Promise<void>;
  appendEvent(id: string, entry: StoredEvent): Promise<void>;
  getRun(id: string): Promise<(StoredRun & { events: StoredEvent[] }) | null>;
  listRuns(): Promise<StoredRun[]>;
  deleteRun(id: string): Promise<void>;
}

/** Runs in memory (gone with the process). */
export class MemoryRunStore implements RunStore {
  constructor();
  putRun(record: StoredRun): Promise<void>;
  appendEvent(id: string, entry: StoredEvent): Promise<void>;
  getRun(id: string): Promise<(StoredRun & { events: StoredEvent[] }) | null>;
  listRuns(): Promise<StoredRun[]>;
  deleteRun(id: string): Promise<void>;
}

/**
 * Node: runs in `<dir>/runs.json` (0600; the directory 0700), rewritten atomically (temporary
 * file, fsync, rename) on every change. One process per directory. Errors: STORE_FAILED,
 * STORE_CORRUPT; NOT_SUPPORTED outside Node.
 */
export class FileRunStore extends MemoryRunStore {
  constructor(dir: string);
  readonly dir: string;
  /** Resolves once every change is on disk. */
  flush(): Promise<void>;
}

/** Browsers: runs in an IndexedDB database (`name`). NOT_SUPPORTED without indexedDB. */
export class IndexedDbRunStore implements RunStore {
  constructor(name?: string, options?: { indexedDB?: unknown });
  readonly name: string;
  putRun(record: StoredRun): Promise<void>;
  appendEvent(id: string, entry: StoredEvent): Promise<void>;
  getRun(id: string): Promise<(StoredRun & { events: StoredEvent[] }) | null>;
  listRuns(): Promise<StoredRun[]>;
  deleteRun(id: string): Promise<void>;
  close(): Promise<void>;
}

/** One session in a run store (listSessions). */
export interface SessionSummary {
  /** The session id (`s` tag or `sender:<client>`). */
  id: string;
  agent: string;
  client: string;
  /** Number of runs. */
  runs: number;
  createdAt: number;
  updatedAt: number;
  /** The first prompt's message. */
  title: string;
  lastRun: StoredRun;
}

/** The sessions in `store`, one per (agent, session), most recently active first. */
export function listSessions(store: RunStore, options?: { agent?: string }): Promise<SessionSummary[]>;

/** The runs of a session (an id, or a listSessions entry), oldest first. */
export function listRuns(store: RunStore, session: string | SessionSummary, options?: { agent?: string }): Promise<StoredRun[]>;

/** The default terminalGrace (ms) of every run: 1500 (the core's default). */
export const TERMINAL_GRACE: number;

/** The former name of TERMINAL_GRACE (the same value). */
export const CANCEL_RACE_GRACE: number;
/** prompt()'s and resumeRun()'s default idleTimeout: 120000 ms. */
export const DEFAULT_IDLE_TIMEOUT: number;

/** Options of fetchSessionRuns() (and, without agent and session, of fetchSessions()). */
export interface FetchSessionRunsOptions {
  pool: RelayPool;
  relays?: string[];
  /** The client whose runs to find. */
  signer: Signer;
  /** The agent's public key: hex or npub (INVALID_ARGUMENT otherwise). */
  agent: string;
  /** Default `sender:<client pubkey>` (which also covers prompts sent without an `s` tag). */
  session?: string;
  /** Merged with what the relays have; relay-only runs and relay terminals are written to it. */
  store?: RunStore | null;
  /** ms per relay query. Default 5000. */
  maxWait?: number;
  signal?: PoolAbortSignal;
}

/**
 * The seed's session recovery recipe on relays (prompts by `#s`, then terminals by `#e` root;
 * kinds 25802, 25803, 25805, which only relays that store them keep), combined with the local
 * store: the session's runs, oldest first, each with where it was found. Privacy-first runs are
 * only in the store.
 */
export function fetchSessionRuns(options: FetchSessionRunsOptions): Promise<Array<StoredRun & { source: 'store' | 'relay' | 'both' }>>;

/**
 * This client's sessions (with `agent`, or every agent) from the relays' prompts and `store`, most
 * recently active first; `source` says where their runs were found ('both': some in each, or all
 * in both).
 */
export function fetchSessions(options: Omit<FetchSessionRunsOptions, 'agent' | 'session'> & { agent?: string }): Promise<
  Array<{ id: string; agent: string; client: string; runs: number; createdAt: number; updatedAt: number; title: string; source: 'store' | 'relay' | 'both' }>
>;

/** Options of resumeRun(). */
export interface ResumeOptions {
  pool: RelayPool;
  relays?: string[];
  /** The run's client. */
  signer: Signer;
  store: RunStore;
  /** The prompt id. */
  id: string;
  cancelTimeout?: number;
  terminalGrace?: number;
  idleTimeout?: number;
  signal?: PoolAbortSignal;
  now?: () => number;
}

/**
 * Recovers a stored run: replays what the store holds, and unless it ended, subscribes again by
 * the prompt id and continues. Rejects NOT_FOUND, INVALID_ARGUMENT (not this signer's run).
 */
export function resumeRun(options: ResumeOptions): Promise<Run>;

/** What an agent handler gets for each prompt. */
export interface HandlerContext {
  message: string;
  /** Negotiated: the requested model (always one the agent supports), or default_model. */
  model?: string;
  /**
   * The prompt's fallback_models that this agent supports, in the client's order (without
   * `model`): what the client also accepts should `model` be unavailable at run time. Use one,
   * or throw AgentError MODEL_UNAVAILABLE; the runtime never substitutes a model itself.
   */
  fallbackModels: string[];
  thinking?: ThinkingLevel;
  /** The `s` tag, or `sender:<client pubkey>`. */
  session: string;
  /** The client's public key. */
  sender: string;
  promptId: string;
  /** Aborted when the client cancels (or the agent stops). At run time a real AbortSignal (pass it to fetch...). */
  signal: PoolAbortSignal;
}

/** What a handler may yield: text deltas, status, tool calls and usage. */
export type HandlerYield =
  | string
  | { type: 'status'; state: 'thinking' | 'tool_use' | 'done'; progress?: number; info?: string }
  /** `name` must be in info.tool_names (else the run ends in UNSUPPORTED_FEATURE). */
  | { type: 'tool_call'; name: string; phase: 'start' | 'result'; arguments?: object; output?: object; success?: boolean; duration_ms?: number }
  | { type: 'usage'; input_tokens: number; output_tokens: number };

/** Strings are text deltas; the final ai.response carries their concatenation. Throw AgentError to choose the error code. */
export type AgentHandler = (ctx: HandlerContext) => AsyncIterable<HandlerYield> | Iterable<HandlerYield> | Promise<string | void>;

/** Who the agent serves and how often (serveAgent's `policy`). */
export interface AgentPolicy {
  /** Only these senders (hex) are served; others get UNAUTHORIZED. */
  allow?: string[];
  /** BLOCKED_SENDER. */
  block?: string[];
  /**
   * Per-sender token bucket, refilled at this rate; over it: RATE_LIMIT with retry_after.
   * Default 20 (an open agent spends its owner's LLM money); 0 turns the limit off.
   */
  promptsPerMinute?: number;
  /** Bucket size: prompts a sender may send at once. Default 10. */
  burst?: number;
  /**
   * Runs in progress at once, from all senders; one more prompt gets RATE_LIMIT (retry_after 5 s).
   * Default 8; 0 turns the cap off.
   */
  maxConcurrent?: number;
  /** Turns per (sender, session); over it: SESSION_LIMIT. */
  maxSessionTurns?: number;
  /** Senders and sessions tracked in memory. Default 10 000. */
  maxTracked?: number;
}

/** Options of serveAgent(). */
export interface ServeAgentOptions {
  signer: Signer;
  /** A pool to use, or `relays` to open one (closed by stop()). */
  pool?: RelayPool;
  relays?: string[];
  /**
   * ai.info content (ver, encryption and tool_names are filled in). `supports_nip59: true` also
   * answers gift-wrapped prompts (privacy-first profile): their replies are wrapped too, and their
   * tool telemetry carries no arguments or output.
   */
  info?: Partial<AgentInfo>;
  handler: AgentHandler;
  policy?: AgentPolicy;
  /** The ai.info `d` tag (keep it stable). Default 'agent-info'. */
  d?: string;
  /** Prompts older than this (seconds) are ignored. Default: 60 s before start. */
  since?: number;
  /**
   * Failures the client is not told about in detail (handler errors, publish failures, and
   * STALE_PROMPT: a live prompt older than maxClockSkew, left without a terminal). May be async;
   * what it throws or rejects with is ignored.
   */
  onError?: (error: unknown) => void | Promise<void>;
  /** ms stop() waits for running handlers (a handler still running then is left behind; its client gets INTERNAL_ERROR anyway). Default 2000. */
  stopTimeout?: number;
  /**
   * Seconds a live prompt's created_at may lie behind this agent's clock and still be answered
   * (a client whose clock runs late). Default 900. Stored prompts older than `since` are not
   * answered. An older prompt gets no ai.error (a terminal could replace the answer a stored or
   * re-broadcast prompt already has); a live one is reported to onError as STALE_PROMPT.
   */
  maxClockSkew?: number;
  /** The clock (ms since the epoch, like Date.now) for created_at, rate limits and `since`. Default Date.now. */
  now?: () => number;
}

/** A running agent (serveAgent). */
export interface ServedAgent {
  readonly pubkey: string;
  readonly info: AgentInfo;
  readonly infoEvent: NostrEvent;
  /** Runs in progress. */
  readonly active: number;
  /** Stops answering; running handlers are aborted and their runs end with INTERNAL_ERROR (also those whose handler ignores the abort). */
  stop(): Promise<void>;
}

/** Publishes ai.info, subscribes to prompts and cancels, and answers them with `handler`. Resolves once live. */
export function serveAgent(options: ServeAgentOptions): Promise<ServedAgent>;
