// Rule-to-test table for NIP-AGX 0.2.0 (SPEC.md of ellavox-ai/nip-agx, packages/core/SPEC.md):
// every normative statement, with the tests that check it. tests/js/agx-conformance.test.js fails
// when an entry names a test that does not exist. Test references:
//   'js:<file under tests/js>:<exact it()/test() title>'   'native:<suite>.<TEST name>'
const C = 'agx-client.test.js';
const D = 'agx-discovery.test.js';
const A = 'agx.test.js';
const B = 'agx-browser.test.js';
const S = 'agx-status.test.js';
const R = 'relay-server.test.js';
const E = 'agx-exactly-once.test.js';
const RT = 'agx-routing.test.js';
const NP = 'agx-nopush.test.js';
const ED = 'agx-edges.test.js';
const V = 'agx-unwrap-vectors.test.js';
const F = 'agx-replay-flood.test.js';

export const RULES = [
  // Transport envelope (NIP-59)
  { section: 'Transport envelope', level: 'MUST', rule: 'messages and receipts travel only as NIP-59 gift wraps (rumor 3838/3839, seal 13, wrap 1059); 3838/3839 never published bare',
    tests: ['native:agx_envelope_test.round_trip_alice_to_bob', 'native:agx_envelope_test.publish_boundary_and_relay_policy', `js:${A}:refuses to wrap a rumor for someone it does not p-tag, or by another author`] },
  { section: 'Transport envelope', level: 'MUST', rule: 'a wrap carries exactly one p tag, an expiration tag and a nonce tag, nothing identifying the sender or AGX kind',
    tests: ['native:agx_envelope_test.wrap_has_exactly_the_agx_tags_in_order', `js:${A}:wraps with PoW >= 12, expiration = created_at + 30 d, backdated, and unwraps a message`] },
  { section: 'Transport envelope', level: 'SHOULD/MUST NOT', rule: 'seal and wrap created_at randomized up to 172800 s into the past, never the future',
    tests: ['native:agx_envelope_test.created_at_of_seal_and_wrap_within_two_days_never_future', `js:${A}:wraps with PoW >= 12, expiration = created_at + 30 d, backdated, and unwraps a message`] },
  { section: 'Transport envelope', level: 'MUST', rule: 'discard unless the seal is a validly signed kind 13, rumor pubkey = seal signer, rumor id = its hash, rumor p-tags us',
    tests: ['native:agx_envelope_test.every_nip59_check_has_its_code', 'native:conformance_test.agx_unwrap_independent', `js:${C}:two p tags, no expiration, 11-bit PoW: invalid (recorded nowhere); bad seal signature, forged author: discarded (cached); future: retried; nothing reaches a handler`, `js:${V}:every case through unwrapAgx (LocalSigner and raw key) and unwrapAgxAsync (a nostr-tools signer)`] },
  { section: 'Transport envelope', level: 'MUST', rule: 'an inbox poll reaches at least MAX_WRAP_BACKDATE_SEC behind its cursor (+ overlap)',
    tests: ['native:agx_cursor_test.advances_only_after_complete_polls_to_the_clock_read_before', `js:${C}:advances only after a complete poll, to the clock read before it; since = cursor - (overlap + 172800)`] },
  { section: 'Transport envelope', level: 'MUST', rule: 'a durable replay store retains processed ids longer than the whole window',
    tests: ['native:agx_seen_store_test.marks_expire_by_now', 'native:agx_seen_store_test.a_full_store_refuses_and_never_forgets_before_expiry', 'native:agx_cursor_test.a_poll_overlap_reaching_past_the_retention_is_refused', `js:${C}:a real restart of the serving agent (SIGKILL) with FileSeenStore processes nothing twice and loses nothing`, `js:${F}:a poll overlap that makes the window reach past the retention is refused`, `js:${F}:a full replay store refuses new work: typed AGX_OVERLOADED to onError, one warning, the poll incomplete; once ids expire it is processed, once`] },
  // Retention
  { section: 'Retention', level: 'MUST', rule: 'expiration = the wrap\'s own backdated created_at + 30 days, never more than 31 days past now',
    tests: ['native:agx_envelope_test.wrap_has_exactly_the_agx_tags_in_order', `js:${A}:wraps with PoW >= 12, expiration = created_at + 30 d, backdated, and unwraps a message`] },
  { section: 'Retention', level: 'MUST', rule: 'a recipient ignores an expired wrap',
    tests: ['native:agx_envelope_test.every_public_check_has_its_code', `js:${C}:two p tags, no expiration, 11-bit PoW: invalid (recorded nowhere); bad seal signature, forged author: discarded (cached); future: retried; nothing reaches a handler`] },
  { section: 'Retention', level: 'SHOULD', rule: 'a relay carrying AGX rejects wraps without expiration or beyond its cap',
    tests: ['native:agx_envelope_test.publish_boundary_and_relay_policy', `js:${A}:the relay refuses a wrap without PoW (the policy is on)`, `js:${R}:--agx-policy: gift wraps need an expiration <= 31 days ahead and 12 bits of PoW`] },
  { section: 'Transport envelope', level: 'MUST', rule: 'the dev relay\'s AGX policy refuses what every recipient discards (the core\'s relay_accepts: one p tag, not future-dated, not expired, PoW)',
    tests: ['native:agx_endpoint_test.the_relay_policy_refuses_what_every_recipient_ignores', `js:${R}:--agx-policy refuses what the core\'s relay_accepts refuses: two p tags, no p tag, a future created_at`] },
  // Anti-spam
  { section: 'Anti-spam', level: 'MUST', rule: 'every wrap mined to >= 12 leading zero bits with a nonce tag committing to it; mining does not alter created_at',
    tests: ['native:agx_envelope_test.pow_at_least_12_bits_and_created_at_untouched_by_mining', 'native:agx_envelope_test.mining_is_bounded_per_call_and_resumable'] },
  { section: 'Anti-spam', level: 'MAY', rule: 'a relay rejects wraps below its PoW floor (and we discard them on receipt)',
    tests: ['native:agx_endpoint_test.the_relay_policy_refuses_what_every_recipient_ignores', `js:${A}:the relay refuses a wrap without PoW (the policy is on)`, `js:${C}:two p tags, no expiration, 11-bit PoW: invalid (recorded nowhere); bad seal signature, forged author: discarded (cached); future: retried; nothing reaches a handler`] },
  // Signing
  { section: 'Signing', level: 'MUST', rule: 'every key operation goes through a getPublicKey/signEvent/nip44Encrypt/nip44Decrypt signer; only the one-time wrap key is generated locally',
    tests: ['native:agx_envelope_test.external_signer_steps_compose', `js:${C}:a task and a message between an external signer and a LocalSigner, with handle/request/send/onMessage`, `js:${B}:browser: an AgxClient on an injected window.nostr completes a task with a Node agent and serves one back`] },
  { section: 'Signing', level: 'MUST', rule: 'NIP-42 AUTH goes through the signer',
    tests: ['native:agx_endpoint_test.nip42_auth_is_a_template_the_signer_signs', `js:${C}:NIP-42 AUTH through the signer: a relay that requires it serves both clients (their own pools)`] },
  { section: 'Signing', level: 'MUST', rule: 'an unavailable signer is distinguished from bad input; such a poll discards nothing and reports itself incomplete; only bad input marks a wrap never to be retried',
    tests: ['native:agx_endpoint_test.an_unavailable_signer_discards_nothing_bad_input_is_discarded_once', `js:${C}:an unavailable signer makes the poll incomplete and discards nothing; bad input is discarded once`, `js:${C}:classifies errors: AgxSignerUnavailableError, SIGNER_UNAVAILABLE, unavailable: true vs anything else`] },
  // Content types
  { section: 'Content types', level: 'MUST', rule: 'default application/a2a+json; unknown content types are ignored (dropped, as the reference does; kept only by explicit option, then unanswered), never mis-parsed',
    tests: ['native:agx_payload_test.content_types_dispatch_and_unknown_is_never_misparsed', 'native:agx_route_test.unknown_content_types_are_dropped_unless_the_host_keeps_them', `js:${A}:task request, result, receipt: classes and parsed payloads`, `js:${ED}:a message of an unknown content type is dropped (and reported) by default; keepUnknownContentTypes delivers it, unanswered`] },
  // Task lifecycle
  { section: 'Task lifecycle', level: 'MUST', rule: 'request {t:"req", taskId, capability, payload} and result {t:"res", taskId, status, output?, error?} labelled application/agx-task+json, contextId = taskId',
    tests: ['native:agx_task_test.envelope_bytes_match_the_reference_shape', 'native:agx_task_test.request_and_result_rumors', `js:${A}:task request, result, receipt: classes and parsed payloads`] },
  { section: 'Task lifecycle', level: 'MUST', rule: 'states submitted/working/input-required/completed/failed/canceled; return -> completed, throw -> failed',
    tests: ['native:agx_task_test.states_and_transitions', `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`] },
  { section: 'Task lifecycle', level: 'MUST', rule: 'working / input-required are status updates (our envelopes {t:"status"} and {t:"input"}, bound to the task\'s peer like results); a reference peer sees them as plain messages',
    tests: ['native:agx_task_test.status_and_input_envelopes', 'native:agx_route_test.status_updates_and_input_are_bound_to_their_peer', `js:${S}:working and input-required reach the requester as typed updates; the answer resumes the handler`, `js:${S}:works the same with external signers (not LocalSigner: the NIP-07 path) on both sides`, `js:${S}:mallory can neither fake a status update nor answer someone else's input request`, `js:${S}:a status update for no request of ours goes to the plain path, unanswered`, `js:${S}:status and input rumors are built by the core: bad states, oversize notes and non-JSON input are refused`] },
  { section: 'Task lifecycle', level: 'OURS', rule: 'status / input envelopes go only to requesters that said they understand them (their request\'s "accepts"); a reference-shaped request gets a receipt and its result, nothing else',
    tests: ['native:agx_task_test.a_request_says_which_updates_its_requester_understands', `js:${ED}:an AgxClient requester says it understands them: working and input-required reach it, its answer resumes the handler`, `js:${ED}:a reference-shaped request (no "accepts") gets a receipt and its result, and no status update`, `js:${ED}:a request that accepts status only gets working, never an input-required it could not answer`] },
  { section: 'Error boundary', level: 'MUST', rule: 'a thrown handler error reaches the peer as "handler failed" (logged locally); AgxPublicError text verbatim',
    tests: ['native:agx_task_test.error_boundary', `js:${C}:an oversize request fails before sending; a thrown handler error reaches the peer as "handler failed"`, `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`] },
  // Capability matching
  { section: 'Capability matching', level: 'MUST', rule: 'exact keys, "ns.*" namespaces, "*"; non-string entries ignored',
    tests: ['native:agx_capability_test.exact_namespace_and_all', 'native:agx_capability_test.handler_lookup_prefers_the_most_specific', `js:${A}:capability matching`] },
  { section: 'Unhandled task traffic', level: 'MUST', rule: 'task traffic we cannot service (unknown capability, unmatched/late result, malformed) is never auto-replied and goes to the plain path',
    tests: ['native:agx_route_test.unserviceable_task_traffic_is_never_auto_replied', 'native:agx_route_test.denied_and_unserviceable_traffic_may_not_be_answered', `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`, `js:${ED}:denied and unserviceable task traffic has no reply handle; a plain message has one`] },
  // Correlation & replay
  { section: 'Correlation & replay', level: 'MUST', rule: 'result sender binding: a result from another peer is dropped and the request stays open',
    tests: ['native:agx_pending_test.result_sender_binding', 'native:agx_route_test.results_settle_only_from_the_bound_peer', `js:${A}:a forged result from another sender is dropped; the request stays open for the real one`] },
  { section: 'Correlation & replay', level: 'MUST', rule: 'receipts keyed by rumor id; a re-wrapped rumor is the same message',
    tests: ['native:agx_envelope_test.receipt_round_trip', `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`] },
  { section: 'Correlation & replay', level: 'MUST', rule: 'every inbound message and receipt processed at most once by rumor id, through a SeenStore (in-memory default, durable when provided)',
    tests: ['native:agx_replay_test.duplicates_are_dropped_exactly_once', 'native:agx_endpoint_test.a_task_request_runs_once_with_its_ids_persisted_first', 'native:agx_endpoint_test.a_claimed_request_is_a_replay_until_the_host_answers', `js:${C}:MemorySeenStore shared by a restarted client: nothing processed twice`, `js:${C}:a real restart of the serving agent (SIGKILL) with FileSeenStore processes nothing twice and loses nothing`, `js:${B}:browser: an AgxClient on an injected window.nostr completes a task with a Node agent and serves one back`, `js:${E}:cut short mid-handler: the task runs again with ctx.redelivered, the requester resolves once and drops the late second result`, 'native:agx_replay_test.a_junk_flood_cannot_undo_exactly_once', `js:${F}:200,001 junk wraps, then a re-poll: the handler ran once, and the flood took no place in memory`, `js:${F}:a served task's record lives until its request wrap expires: past the 3-day retention, and across a restart, the request is still a replay`] },
  { section: 'Correlation & replay', level: 'SHOULD', rule: 'wrap ids recorded (processed and undecryptable) and consulted before decrypting',
    tests: ['native:agx_replay_test.duplicates_are_dropped_exactly_once', `js:${C}:an unavailable signer makes the poll incomplete and discards nothing; bad input is discarded once`, `js:${F}:junk with valid signatures fails our public checks and is recorded nowhere; junk that passes them is only cached; the handler runs once`] },
  { section: 'Cursor advance', level: 'MUST', rule: 'the cursor advances only after a complete poll, to the poller\'s clock read before the poll',
    tests: ['native:agx_cursor_test.advances_only_after_complete_polls_to_the_clock_read_before', 'native:agx_endpoint_test.the_cursor_advances_only_after_complete_polls', `js:${C}:advances only after a complete poll, to the clock read before it; since = cursor - (overlap + 172800)`] },
  { section: 'Cursor advance', level: 'MUST', rule: 'events dated more than 300 s ahead are skipped without being marked seen, and re-polled later',
    tests: ['native:agx_replay_test.future_wrap_is_not_marked_and_is_processed_later', `js:${C}:a wrap more than 300 s in the future is skipped without being marked seen, and processed once it is due`] },
  // Authorization
  { section: 'Authorization', level: 'MUST', rule: 'default-deny: a request runs only when authorize({from, capability}) allows it; "accept-all" only as an explicit opt-in',
    tests: ['native:agx_authorization_test.default_deny_and_unconfigured_is_distinguishable', 'native:agx_authorization_test.allow_list_by_pubkey_and_capability_pattern', `js:${A}:authorization decisions and route()`] },
  { section: 'Authorization', level: 'MUST/SHOULD', rule: 'nothing configured: deny, with a one-time warning',
    tests: ['native:agx_endpoint_test.nothing_configured_denies_with_a_one_time_warning', `js:${A}:warns once when nothing is configured, and denies`] },
  { section: 'Authorization', level: 'MUST', rule: 'a denied request gets no reply and no receipt, never reaches a handler, and is delivered to onMessage',
    tests: ['native:agx_route_test.denied_request_gets_nothing_back_and_goes_to_the_plain_path', `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`, `js:${ED}:denied and unserviceable task traffic has no reply handle; a plain message has one`] },
  { section: 'Receipts', level: 'MUST', rule: 'an allowed request gets a receipt (before the handler runs) and its result',
    tests: ['native:agx_route_test.allowed_request_runs_with_a_receipt_first', `js:${A}:a plain message, a task with receipt + result, a denied request, a replay, an unknown capability`] },
  // Automated-reply depth
  { section: 'Automated-reply depth', level: 'MUST', rule: 'absent or unusable autoDepth counts as 0; never rejected, never withheld a receipt',
    tests: ['native:agx_payload_test.auto_depth_unusable_counts_as_absent_and_never_fails_delivery', `js:${C}:maxAutoDepth lowers the ceiling; the per-peer bound holds when a peer mints a new conversation per message`] },
  { section: 'Automated-reply depth', level: 'MUST', rule: 'an automated reply carries inbound + 1; a human-authored or new-conversation message carries 0',
    tests: ['native:agx_auto_depth_test.reply_depth_and_ceiling', `js:${C}:two auto-replying agents stop at the ceiling; delivery continues; a human reset re-opens it`] },
  { section: 'Automated-reply depth', level: 'SHOULD', rule: 'refuse an automated reply past the local ceiling (8), surfaced to the operator, never to the peer; delivery and receipts unaffected',
    tests: ['native:agx_auto_depth_test.two_auto_replying_agents_stop_at_the_ceiling', `js:${C}:two auto-replying agents stop at the ceiling; delivery continues; a human reset re-opens it`] },
  { section: 'Automated-reply depth', level: 'MUST', rule: 'a human can reset a conversation\'s depth',
    tests: ['native:agx_endpoint_test.a_human_resets_a_conversations_automated_replies', `js:${C}:two auto-replying agents stop at the ceiling; delivery continues; a human reset re-opens it`, `js:${C}:maxAutoDepth lowers the ceiling; the per-peer bound holds when a peer mints a new conversation per message`] },
  { section: 'Automated-reply depth', level: 'MUST', rule: 'local bounds on automated replies per conversation and per peer, not relying on autoDepth alone',
    tests: ['native:agx_auto_depth_test.local_bounds_per_conversation_and_per_peer', `js:${C}:maxAutoDepth lowers the ceiling; the per-peer bound holds when a peer mints a new conversation per message`] },
  { section: 'Automated-reply depth', level: 'MUST NOT', rule: 'the role field is not used to derive automation, trust or authorization; results and receipts carry no autoDepth',
    tests: ['native:agx_payload_test.message_payload_bytes_match_the_reference_shape', 'native:agx_task_test.request_and_result_rumors'] },
  // Message size
  { section: 'Message size', level: 'MUST', rule: 'the 28672-byte interop ceiling applies to the serialized rumor; an oversize request fails before sending; an oversize result becomes "result too large"; never a transport throw',
    tests: ['native:agx_payload_test.interop_size_bound_is_derived_and_applies_to_the_serialized_rumor', `js:${C}:an oversize request fails before sending; a thrown handler error reaches the peer as "handler failed"`] },
  // Discovery
  { section: 'Event kinds / Agent Card', level: 'MUST', rule: 'Agent Card 11337: replaceable, unencrypted, signed by the agent; validated with the reference caps (org 200, nip05 253, 64 capabilities of 200, 10 relays)',
    tests: ['native:agx_card_test.build_enforces_the_caps', 'native:agx_card_test.parse_rejects_what_the_reference_rejects', `js:${D}:enforces the reference's caps on publish and on fetch`, `js:${D}:publishes, fetches (newest valid), and retracts with NIP-09`] },
  { section: 'Event kinds / Deletion', level: 'MUST', rule: 'NIP-09 kind 5 retracts the agent\'s own card',
    tests: ['native:agx_card_test.retraction_template', `js:${D}:publishes, fetches (newest valid), and retracts with NIP-09`] },
  { section: 'NIP inventory: NIP-05', level: 'MUST', rule: 'NIP-05 handles verified over https only, public host, no redirects, <= 100 KB, 5 s',
    tests: ['native:agx_nip05_test.identifier_parsing', 'native:agx_nip05_test.response_parsing_and_comparison', `js:${D}:verifies a mapping, and says false for another key; only https URLs are fetched`, `js:${D}:refuses redirects, oversize bodies, slow hosts, errors and junk with typed errors`, `js:${D}:public hosts only: by spelling everywhere, by DNS in Node`] },
  { section: 'NIP inventory: NIP-65', level: 'MUST', rule: 'relay list 10002 published and resolved',
    tests: [`js:${D}:publishes and resolves read/write relays; the newest list wins; bad URLs are refused`, `js:${D}:advertising merges our relays into the key\'s own NIP-65 list and leaves a list that has them alone`, 'native:agx_relay_routes_test.the_advertised_list_keeps_the_users_other_relays_and_adds_ours'] },
  { section: 'NIP inventory: NIP-65', level: 'MUST', rule: 'every wrap goes to our relays plus the recipient\'s inbox (read) relays (the reference\'s publishMessage / publishReceipt); no list: ours',
    tests: [`js:${RT}:two agents on disjoint relays find each other through a third relay and complete tasks and messages both ways`, `js:${RT}:a recipient without a relay list still gets ours (and answers on ours)`, 'native:agx_relay_routes_test.targets_are_ours_plus_the_peers_inbox_cached_with_a_lifetime'] },
  { section: 'NIP inventory: NIP-65', level: 'MUST', rule: 'a peer\'s relays are dialed only when wss:// on a public host (by spelling, and by DNS in Node), at most 10 of the first 20, cached 10 min in a bounded cache (local relays only when allowed)',
    tests: ['native:agx_relay_routes_test.only_wss_urls_on_public_host_names_unless_local_is_allowed', 'native:agx_relay_routes_test.a_list_of_thousands_is_read_no_further_than_twenty_candidates_and_ten_relays', 'native:agx_relay_routes_test.the_cache_holds_at_most_cap_peers_expired_ones_go_first', `js:${RT}:only wss:// relays on public hosts count, by spelling and by DNS; local ones only when allowed`, `js:${RT}:a list is looked up once, cached, and a long one is cut to ten relays`] },
  { section: 'Cursor advance', level: 'OURS', rule: 'while a request waits, the inbox (and the peer\'s outbox relays) is polled after 3 s, backing off to 30 s (the reference polls every 3 s): answers arrive from relays that never push live events',
    tests: ['native:agx_poll_schedule_test.a_waiting_request_polls_after_three_seconds_then_backs_off_to_thirty', 'native:agx_poll_schedule_test.requests_never_postpone_a_poll_and_a_running_poll_keeps_its_turn', `js:${NP}:a request resolves within its timeout: the requester polls while it waits`, `js:${NP}:request --poll-interval: answered on a relay that never pushes, from serve --poll-interval`, `js:${RT}:a requester that never advertised gets its answer from the peer\'s outbox relays`] },
  { section: 'AgxClient start()', level: 'MUST', rule: 'the seed\'s defaults: the library\'s start() advertises (Agent Card and relay list) unless advertise: false; the CLI\'s serve only with --advertise (cards are public; retraction best-effort)',
    tests: ['native:agx_endpoint_test.start_advertises_our_relays_merged_into_the_keys_list', `js:${D}:start() publishes the card (our handlers) and the relay list unless advertise: false; an AgxRequester publishes neither`, `js:${D}:a card or relay list no relay takes is reported to onError; the client still runs`, 'js:cli.test.js:serve --advertise publishes the Agent Card; card reads it; an unknown key has none'] },
];
