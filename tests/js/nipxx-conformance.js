// The NIP-XX conformance table: every MUST and SHOULD of the seed (and the MAYs we implement)
// (tests/vectors/nip-xx-ai-agent-messages.md), by section, with the tests that check it.
// tests/js/nipxx-conformance.test.js fails when an entry names a test that does not exist.
//
// A test is 'file::title' (a JS test under tests/js, found by its exact title) or
// 'native/file::suite.name' (a GoogleTest TEST(suite, name) under tests/native). An entry without
// tests must say why in `note` (a rule that binds the spec's authors, not an implementation).

const H = 'agents-hostile.test.js';
const A = 'agents.test.js';
const P = 'agents-privacy.test.js';
const S = 'agents-store.test.js';
const C = 'nipxx-conformance.test.js';
const R = 'nipxx-runs.test.js';
const SCHEMA = 'nipxx-schema.test.js';
const RC = 'agents-recovery.test.js';
const PE = 'agents-peers.test.js';
const CR = 'native/nip_xx_client_run_test.cpp::nip_xx_client_run_test';
const AG = 'native/nip_xx_agent_test.cpp::nip_xx_agent_test';
const EN = 'native/nip_xx_envelope_test.cpp::nip_xx_envelope_test';
const PL = 'native/nip_xx_payload_test.cpp::nip_xx_payload_test';
const MT = 'native/nip_xx_machines_test.cpp::nip_xx_machines_test';

const T = {
  streams: `${A}::streams status and deltas; the final text and usage come from ai.response`,
  tools: `${A}::reports tool calls (start and result) as typed updates`,
  cancel: `${A}::cancel mid-stream aborts the handler and ends the run with one CANCELLED`,
  negotiation: `${A}::no output gives EMPTY_RESPONSE; an unsupported model gives UNSUPPORTED_MODEL without running the handler`,
  rate: `${A}::rate limit gives RATE_LIMIT with retryAfter`,
  allow: `${A}::an allowlist without the client gives UNAUTHORIZED; a blocklist gives BLOCKED_SENDER`,
  discover: `${A}::discover reads the newest ai.info, and falls back to the seed defaults`,
  badPrompts: `${A}::bad prompt payloads get PARSE_ERROR / INVALID_SCHEMA; an unadvertised tool UNSUPPORTED_FEATURE; turns SESSION_LIMIT`,
  hostile: `${H}::reorders, dedupes, rejects broken events typed, ignores misrouted and late ones; the newest terminal wins`,
  race: `${H}::a response/cancel race with equal created_at: the higher id wins; an older terminal after it changes nothing`,
  typed: `${H}::PARSE_ERROR, INVALID_SCHEMA (payload and max_prompt_bytes), UNSUPPORTED_ENCRYPTION, MODEL_UNAVAILABLE`,
  wrapped: `${P}::privacy-first: every run event is a gift wrap; the relay sees no NIP-XX kind, author or e tag; tools disclose no arguments or output`,
  plain: `${P}::default profile with the same agent: NIP-44 events, metadata visible, tool arguments and output sent`,
  auto: `${P}::privacy: 'auto' follows ai.info supports_nip59; 'nip59' with an agent that does not support it fails UNSUPPORTED_FEATURE`,
  restart: `${S}::a client process that dies mid-run recovers the run from its FileRunStore after a restart`,
  store: `${S}::prompt({store}) records the prompt, every applied event and the terminal; listSessions and listRuns read them`,
  ajv: `${SCHEMA}::core validation agrees with ajv on thousands of generated and mutated payloads`,
  machines: `${R}::an agent run streams to a client run: status, deltas, tool call, response`,
  clientRejects: `${R}::the client rejects what breaks the rules, with protocol codes`,
  nonce: `${C}::every NIP-44 payload uses a fresh nonce`,
  unknownFields: `${C}::unknown payload fields are ignored on every kind`,
  canonical: `${C}::canonical JSON fields win over the envelope's mirrored keys`,
  // Against peers built on nostr-tools (agents-peers.test.js).
  eventText: `${PE}::text that starts with event= reaches the client as it is; a whole envelope of the seed is unwrapped`,
  verbatim: `${PE}::any string a handler yields arrives verbatim at the client, through the real runtime and client`,
  oldestFirst: `${PE}::two terminals arriving oldest first, no local cancel: by default the newer one wins and the run reports the replaced one`,
  sTag: `${PE}::prompts of the default session carry s=sender:<client>: the seed's recovery filter run by nostr-tools finds them`,
  rumorPeer: `${PE}::privacy-first: a nostr-tools peer that puts the payload in the rumor gets its answer, in the same form`,
  rumorOurs: `${PE}::privacy-first: our client's rumor holds the payload (nostr-tools opens it); a nostr-tools agent's plain rumors are read`,
  stale: `${PE}::a live prompt older than maxClockSkew gets no terminal (STALE_PROMPT to onError); its client ends RUN_INCOMPLETE`,
  retryAfter: `${PE}::RATE_LIMIT with retry_after 7 reaches the user: the typed error, ask, ask --json`,
  fallback: `${A}::fallback_models never stand in for an unsupported model (UNSUPPORTED_MODEL, handler not run); the handler gets the supported ones`,
  grace: `${RC}::terminal grace by default for every run (TERMINAL_GRACE, the core default); after a cancel a newer CANCELLED still wins`,
};

export const CONFORMANCE = [
  // Definitions
  { section: 'Definitions: Run', level: 'MUST', rule: 'Non-prompt events reference the prompt id in an e tag with marker root', tests: [T.hostile, `${CR}.bad_tags_and_payloads_are_rejected_with_codes`, T.machines] },
  { section: 'Definitions: Run', level: 'MUST', rule: 'Exactly one terminal per run (agent side)', tests: [`${AG}.run_invariants_seq_one_terminal_cancel`, T.cancel] },
  { section: 'Definitions: Session', level: 'SHOULD', rule: 'Without s, recipients use sender:<lowercase-hex-pubkey>', tests: [`${CR}.session_default_and_tags`, T.streams, T.store] },
  { section: 'Definitions: Session', level: 'MAY', rule: 'Our prompts name their session in s, the default sender:<client> too, so any client finds them', tests: [`${MT}.prompt_and_cancel_events_carry_the_session_and_nip44`, T.sTag] },
  // Encryption
  { section: 'Encryption', level: 'MUST', rule: 'Payloads of 25800-25806 use NIP-44', tests: [`${CR}.bad_tags_and_payloads_are_rejected_with_codes`, T.plain, T.machines] },
  { section: 'Encryption: Required tag', level: 'MUST', rule: 'Encrypted events carry ["encryption","nip44"]', tests: [T.wrapped, T.hostile, `${CR}.bad_tags_and_payloads_are_rejected_with_codes`] },
  { section: 'Encryption: Required tag', level: 'MUST', rule: 'A scheme both sides support; none: UNSUPPORTED_ENCRYPTION', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.typed, T.clientRejects] },
  { section: 'Encryption: Key agreement', level: 'MUST', rule: 'Each message uses a fresh NIP-44 nonce', tests: [`${MT}.each_message_needs_its_own_nonce`, T.nonce] },
  { section: 'Encryption: NIP-59', level: 'SHOULD', rule: 'Gift-wrapped: routing by the wrapper p tag and kinds only', tests: [`${MT}.wrapped_runs_route_by_the_wrap_p_tag_and_kind_only`, T.wrapped] },
  { section: 'Encryption: NIP-59', level: 'SHOULD', rule: 'Wrapped: tool_call avoids sensitive argument/output fields (privacy-first profile)', tests: [T.wrapped, `${AG}.privacy_first_strips_tool_io`] },
  { section: 'Encryption: NIP-59', level: 'MAY', rule: 'Wrapped: clients unwrap, then validate the payload: the rumor holds the payload (the seal is the NIP-44 layer); rumors with NIP-44 content are read too and answered in kind', tests: [`${MT}.rumor_content_is_the_payload_or_nip44_text`, T.rumorPeer, T.rumorOurs, T.wrapped], note: 'the seed does not say what the rumor content is; our reading is in docs/nip-xx.md (Privacy profiles)' },
  // Event formats
  { section: 'Event Formats', level: 'MUST', rule: 'Required fields of every table and schema are present', tests: [T.ajv, `${PL}.validate_payload_dispatches_by_kind`] },
  { section: 'Event Formats', level: 'SHOULD', rule: 'Mirror tags (tool, phase) match the payload; a mismatch is INVALID_SCHEMA', tests: [`${CR}.bad_tags_and_payloads_are_rejected_with_codes`, T.machines] },
  { section: 'Structured text envelope', level: 'MUST', rule: 'event, phase and ts present; per-kind required keys', tests: [`${EN}.required_keys_and_malformed_escapes`, `${EN}.parses_the_seed_examples`, `${EN}.only_whole_envelopes_of_the_kind_are_envelopes`] },
  { section: 'Structured text envelope', level: 'MAY', rule: 'text is plain text or an envelope: only a whole envelope of the kind is read as one; any other text (event= prefix or not) is shown as it is', tests: [`${EN}.only_whole_envelopes_of_the_kind_are_envelopes`, `${CR}.text_starting_with_event_is_plain_text`, T.eventText, T.verbatim, `${AG}.any_text_an_agent_yields_arrives_verbatim`] },
  { section: 'Structured text envelope', level: 'SHOULD', rule: 'Consumers ignore unknown keys; accept camelCase aliases', tests: [`${EN}.aliases_unknown_keys_and_order`] },
  { section: 'Structured text envelope', level: 'SHOULD', rule: 'Producers keep key names stable, lowercase snake_case', tests: [`${EN}.text_for_wire_reads_back_verbatim`, T.verbatim], note: 'the runtime produces an envelope only to carry a text that would read as one (event, phase, text, ts)' },
  { section: 'Structured text envelope', level: 'MUST', rule: 'Canonical JSON fields stay authoritative over mirrored envelope keys', tests: [T.canonical, `${CR}.envelope_text_is_unwrapped`] },
  // ai.info
  { section: 'ai.info', level: 'SHOULD', rule: 'Published in the agent namespace with one stable d value', tests: [`${MT}.info_event_has_one_stable_d_and_a_valid_payload`, T.discover] },
  { section: 'ai.info', level: 'SHOULD', rule: 'Clients cache the newest valid ai.info by (created_at, id)', tests: [`${MT}.selects_the_newest_valid_info`, T.discover] },
  // Negotiation
  { section: 'Model and schema negotiation', level: 'SHOULD', rule: 'Clients use ai.info before prompts', tests: [`${MT}.privacy_profile_follows_ai_info`, `${MT}.selects_the_newest_valid_info`, T.auto, T.discover], note: 'discover() is the app\'s call; prompt() reads ai.info itself for privacy auto/nip59' },
  { section: 'Model and schema negotiation', level: 'SHOULD', rule: 'No model: the agent uses default_model', tests: [T.streams, `${AG}.negotiates_model_and_schema`] },
  { section: 'Model and schema negotiation', level: 'MUST', rule: 'A requested model must be in supported_models, else UNSUPPORTED_MODEL and no execution', tests: [T.negotiation, `${AG}.negotiates_model_and_schema`, T.fallback, `${AG}.fallback_models_never_replace_an_unsupported_model`] },
  { section: 'Model and schema negotiation', level: 'MUST', rule: 'fallback_models do not lift that MUST: an unsupported model is UNSUPPORTED_MODEL; supported fallbacks reach the handler for a model unavailable at run time', tests: [T.fallback, `${AG}.fallback_models_never_replace_an_unsupported_model`], note: 'the seed gives fallback_models no semantics and no field that asks for substitution; our reading is in docs/nip-xx.md' },
  { section: 'Model and schema negotiation', level: 'MUST', rule: 'tool_schema_version: the exact requested one, else ai.info\'s; incompatible: UNSUPPORTED_SCHEMA_VERSION and no execution', tests: [T.negotiation, `${AG}.negotiates_model_and_schema`] },
  // Cancel
  { section: 'Cancel', level: 'SHOULD', rule: 'Agents treat ai.cancel as idempotent per run', tests: [T.cancel, `${AG}.cancel_once_and_empty_response`] },
  { section: 'Cancel', level: 'MUST', rule: 'Agents ignore cancel for completed runs, no further terminal', tests: [T.streams, `${AG}.run_invariants_seq_one_terminal_cancel`] },
  // Delta
  { section: 'Delta', level: 'MUST', rule: 'seq strictly increasing by 1 within a run', tests: [`${AG}.run_invariants_seq_one_terminal_cancel`, `${CR}.non_monotonic_seq_is_invalid_sequence`] },
  // Tool call
  { section: 'Tool Call', level: 'SHOULD', rule: 'Agents avoid sensitive data in output; clients treat it as untrusted', tests: [`${AG}.privacy_first_strips_tool_io`, T.wrapped], note: 'the privacy-first profile strips arguments and output; clients only surface tool output as data' },
  // Validation and failure rules
  { section: 'Validation and failure rules', level: 'MUST', rule: 'JSON parse failures are PARSE_ERROR', tests: [`${MT}.prompt_and_cancel_payloads_are_checked_before_sending`, T.badPrompts, T.typed, T.hostile] },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'Missing or malformed p/e/encryption tags are INVALID_SCHEMA; d only on ai.info', tests: [T.hostile, `${CR}.bad_tags_and_payloads_are_rejected_with_codes`, `${CR}.session_default_and_tags`] },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'Invalid content (unknown state/thinking/code) is INVALID_SCHEMA', tests: [`${MT}.prompt_and_cancel_payloads_are_checked_before_sending`, T.typed, T.hostile, T.ajv] },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'e tags of non-prompt events reference the prompt id; marker root required', tests: [T.hostile, `${CR}.ignores_events_of_other_runs_and_authors`] },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'Non-monotonic seq is INVALID_SEQUENCE', tests: [T.hostile, `${CR}.non_monotonic_seq_is_invalid_sequence`, T.clientRejects] },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'ai.cancel without a matching active run is ignored', tests: [`${MT}.inbox_authorizes_cancels`, T.streams] },
  { section: 'Validation and failure rules', level: 'SHOULD', rule: 'Duplicate cancel is idempotent and does not change terminal selection', tests: [T.cancel, `${AG}.cancel_once_and_empty_response`] },
  { section: 'Validation and failure rules', level: 'SHOULD', rule: 'Clients ignore status/delta/tool_call after the terminal', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.hostile, T.machines] },
  { section: 'Validation and failure rules', level: 'SHOULD', rule: 'Agents emit at most one CANCELLED per run', tests: [T.cancel, `${AG}.cancel_once_and_empty_response`] },
  { section: 'Validation and failure rules', level: 'MAY', rule: 'A run missing its terminal after a reasonable timeout is an incomplete run', tests: [`${MT}.idle_deadline_ends_a_silent_run`, `${S}::a run without any answer ends RUN_INCOMPLETE after idleTimeout and stays open in the store, resumable`, T.stale] },
  { section: 'Validation and failure rules', level: 'MAY', rule: 'A stale prompt (older than maxClockSkew) gets no terminal: one could replace the answer a stored or re-broadcast prompt already has; the agent reports STALE_PROMPT locally, the client ends RUN_INCOMPLETE', tests: [`${MT}.inbox_freshness_stored_and_live`, T.stale], note: 'the seed has no freshness rule and no code for it; our choice, in docs/nip-xx.md' },
  { section: 'Validation and failure rules', level: 'MUST', rule: 'Of several terminals keep the highest created_at, id as tie-breaker', tests: [T.hostile, T.race, `${CR}.terminal_rules_highest_created_at_then_id_wins`, T.oldestFirst, `${CR}.settles_a_grace_period_after_the_first_terminal`, T.grace] },
  // Streaming and reconciliation
  { section: 'Streaming and reconciliation', level: 'MUST', rule: 'Ignore deltas whose (e, p, encryption) do not match the run and recipient', tests: [T.hostile, `${CR}.ignores_events_of_other_runs_and_authors`] },
  { section: 'Streaming and reconciliation', level: 'MUST', rule: 'seq contiguous from 0', tests: [`${AG}.run_invariants_seq_one_terminal_cancel`, `${CR}.reorders_by_seq_and_marks_gaps`] },
  { section: 'Streaming and reconciliation', level: 'SHOULD', rule: 'Order by (seq, created_at, id) with seq, else (created_at, id)', tests: [T.hostile, `${CR}.reorders_by_seq_and_marks_gaps`, `${CR}.orders_without_seq_by_created_at_then_id`] },
  { section: 'Streaming and reconciliation', level: 'MUST', rule: 'Dedupe by event id (SHOULD: by identical (seq, text))', tests: [T.hostile, `${CR}.dedupes_by_id_and_by_seq_text`] },
  { section: 'Streaming and reconciliation', level: 'SHOULD', rule: 'On a gap, render best-effort and flag "degraded"', tests: [T.hostile, `${CR}.reorders_by_seq_and_marks_gaps`] },
  { section: 'Streaming and reconciliation', level: 'MUST', rule: 'The final render comes from ai.response, not the deltas', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.streams, T.hostile] },
  { section: 'Streaming and reconciliation', level: 'MUST', rule: 'No delta applied after an accepted terminal', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.hostile, T.machines] },
  // Protocol flow
  { section: 'Protocol Flow 1', level: 'SHOULD', rule: 'No ai.info: streaming on, encryption nip44, no tools', tests: [`${MT}.unadvertised_tool_and_the_defaults_without_ai_info`, T.discover] },
  { section: 'Protocol Flow 2', level: 'SHOULD', rule: 'supports_nip59 and privacy desired: use NIP-59 wrappers', tests: [`${MT}.privacy_profile_follows_ai_info`, T.auto, T.wrapped] },
  { section: 'Protocol Flow 7', level: 'SHOULD', rule: 'An effective cancel before the terminal gives ai.error CANCELLED', tests: [`${MT}.cancel_after_terminal_is_a_noop_and_cancelled_is_the_terminal`, T.cancel, `${P}::privacy-first: cancel mid-stream gives one CANCELLED; admission errors come back wrapped`] },
  { section: 'Protocol Flow 8', level: 'MUST', rule: 'A cancel after the terminal is a no-op', tests: [`${MT}.cancel_after_terminal_is_a_noop_and_cancelled_is_the_terminal`, T.streams] },
  { section: 'Protocol Flow 9', level: 'SHOULD', rule: 'Clients enforce run-local ordering by #e and authors', tests: [`${CR}.ignores_events_of_other_runs_and_authors`, T.hostile] },
  { section: 'Session recovery recipe', level: 'SHOULD', rule: 'Resume by #e root; the latest terminal is the run state', tests: [`${MT}.resume_by_e_root_and_the_latest_terminal_is_the_state`, T.restart, `${P}::privacy-first runs are recoverable from the relay: wraps are stored, so a client away for the whole run resumes it`, `${RC}::a stored open run gets its terminal from the relay; the newest terminal on the relay wins; forged ones are ignored`] },
  { section: 'Session recovery recipe', level: 'SHOULD', rule: 'Find a session: kinds 25802 by #s (sender:<client> by default) and #p agent; combine with the local store', tests: [`${MT}.session_filters_find_prompts_by_s_and_p_and_terminals_by_e`, T.sTag, `${RC}::finds a session's runs on the relays by #s and #e, fills an empty store, and resumeRun works from it`, `${RC}::on an ordinary relay (ephemeral kinds dropped) only the local store knows the runs`] },
  { section: 'Kinds', level: 'SHOULD', rule: 'Prompts and terminals (25802, 25803, 25805) are durable for replay and restoration (a relay that stores them: dev relay storeKinds)', tests: [`${MT}.durable_kinds_are_prompts_and_terminals_in_the_ephemeral_range`, `${RC}::finds a session's runs on the relays by #s and #e, fills an empty store, and resumeRun works from it`], note: 'not a MUST word in the seed, but its recovery depends on it; ordinary relays drop 20000-29999 (docs/nip-xx.md)' },
  // Tool model and security
  { section: 'Tool model', level: 'MUST', rule: 'Clients do not execute tools from ai.tool_call', tests: [`${MT}.tool_calls_are_updates_only`, T.tools], note: 'the client API has no tool execution: tool_call is only an update' },
  { section: 'Tool model', level: 'MUST', rule: 'Agents negotiate model and tool_schema_version', tests: [`${AG}.negotiates_model_and_schema`, T.negotiation] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Unknown senders outside the allowlist: UNAUTHORIZED', tests: [T.allow, `${AG}.sender_policy`] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Blocked senders: BLOCKED_SENDER', tests: [T.allow, `${AG}.sender_policy`] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Unsupported tools: UNSUPPORTED_FEATURE', tests: [`${MT}.unadvertised_tool_and_the_defaults_without_ai_info`, T.badPrompts] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Validate schemas before execution: INVALID_SCHEMA', tests: [`${AG}.negotiates_model_and_schema`, T.badPrompts, T.typed] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Throttling: RATE_LIMIT', tests: [T.rate, `${AG}.rate_limit_with_retry_after_and_bounded_memory`] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Unsupported encryption: UNSUPPORTED_ENCRYPTION', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.typed] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'retry_after on transient failures (and it reaches the user: AgentError.retryAfter, ask)', tests: [`${AG}.rate_limit_with_retry_after_and_bounded_memory`, T.rate, T.typed, T.retryAfter] },
  { section: 'Security and abuse controls', level: 'SHOULD', rule: 'Clients prefer the newest terminal by (created_at, id)', tests: [`${CR}.terminal_rules_highest_created_at_then_id_wins`, T.hostile, T.race, T.oldestFirst] },
  // Conformance examples
  { section: 'Conformance example 1', level: 'MUST', rule: 'ai.prompt without message is rejected (INVALID_SCHEMA)', tests: [`${MT}.prompt_and_cancel_payloads_are_checked_before_sending`, T.badPrompts] },
  { section: 'Conformance example 2', level: 'SHOULD', rule: 'A tool not in ai.info tool_names is unsupported (UNSUPPORTED_FEATURE)', tests: [`${MT}.unadvertised_tool_and_the_defaults_without_ai_info`, T.badPrompts] },
  { section: 'Conformance example 3', level: 'SHOULD', rule: 'Out-of-order deltas are reordered by seq', tests: [T.hostile, `${CR}.reorders_by_seq_and_marks_gaps`] },
  { section: 'Conformance example 4', level: 'MUST', rule: 'A noncompliant encryption tag is rejected', tests: [`${MT}.unsupported_encryption_and_nothing_after_the_terminal`, T.typed, T.hostile] },
  { section: 'Conformance example 5', level: 'MUST', rule: 'Duplicate terminals: only the newest is rendered', tests: [`${CR}.terminal_rules_highest_created_at_then_id_wins`, T.hostile, T.race, T.oldestFirst] },
  { section: 'Conformance example 6', level: 'SHOULD', rule: 'After a cancel, a CANCELLED ai.error is the expected terminal', tests: [`${MT}.cancel_deadline_and_may_cancel`, T.cancel] },
  { section: 'Conformance example 7', level: 'MUST', rule: 'Response/cancel race: keep the highest (created_at, id)', tests: [T.race, `${CR}.terminal_rules_highest_created_at_then_id_wins`, T.grace] },
  // Backward compatibility
  { section: 'Backward Compatibility', level: 'MUST', rule: 'Ignore unknown encrypted JSON fields', tests: [`${MT}.prompt_and_cancel_events_carry_the_session_and_nip44`, T.unknownFields, T.ajv] },
  { section: 'Backward Compatibility', level: 'MUST', rule: 'Use canonical fields (canonical JSON over envelope keys and mirror tags)', tests: [T.canonical, `${CR}.bad_tags_and_payloads_are_rejected_with_codes`] },
  { section: 'Backward Compatibility', level: 'MUST', rule: 'Keep s optional, default sender:<lowercase-hex-pubkey>', tests: [`${CR}.session_default_and_tags`, T.streams] },
  { section: 'Backward Compatibility', level: 'MUST', rule: 'Field names and meanings are not redefined within ver 1; no duplicated historical aliases', tests: [`${MT}.ver_1_only_and_no_aliases`], note: 'binds future versions of the spec; this implementation speaks ver 1 only (payloads with another ver are INVALID_SCHEMA)' },
];
