// The closed set of error codes the core reports. Their string names are part of the public API
// (they become NostrError.code in JS), so a name never changes once released.
#pragma once
#include <cstdint>

namespace nostr {

#define NOSTR_ERRC_LIST(X)                                                                   \
  X(ok, "OK")                                                                                \
  /* encoding */                                                                             \
  X(invalid_hex, "INVALID_HEX")                                                              \
  X(invalid_length, "INVALID_LENGTH")                                                        \
  X(invalid_json, "INVALID_JSON")                                                            \
  X(invalid_utf8, "INVALID_UTF8")                                                            \
  X(invalid_base64, "INVALID_BASE64")                                                        \
  /* keys and signatures */                                                                  \
  X(invalid_secret_key, "INVALID_SECRET_KEY")                                                \
  X(invalid_public_key, "INVALID_PUBLIC_KEY")                                                \
  X(invalid_signature, "INVALID_SIGNATURE")                                                  \
  /* events (NIP-01) */                                                                      \
  X(invalid_event, "INVALID_EVENT")                                                          \
  X(id_mismatch, "ID_MISMATCH")                                                              \
  X(invalid_filter, "INVALID_FILTER")                                                        \
  /* NIP-19 */                                                                               \
  X(bech32_checksum, "BECH32_CHECKSUM")                                                      \
  X(bech32_invalid, "BECH32_INVALID")                                                        \
  X(bech32_prefix, "BECH32_PREFIX")                                                          \
  X(bech32_length, "BECH32_LENGTH")                                                          \
  X(tlv_invalid, "TLV_INVALID")                                                              \
  /* NIP-44 */                                                                               \
  X(nip44_unknown_version, "NIP44_UNKNOWN_VERSION")                                          \
  X(nip44_invalid_payload, "NIP44_INVALID_PAYLOAD")                                          \
  X(nip44_invalid_mac, "NIP44_INVALID_MAC")                                                  \
  X(nip44_invalid_padding, "NIP44_INVALID_PADDING")                                          \
  X(nip44_invalid_plaintext_length, "NIP44_INVALID_PLAINTEXT_LENGTH")                        \
  /* NIP-49 */                                                                               \
  X(nip49_unknown_version, "NIP49_UNKNOWN_VERSION")                                          \
  X(nip49_invalid_payload, "NIP49_INVALID_PAYLOAD")                                          \
  X(nip49_invalid_log_n, "NIP49_INVALID_LOG_N")                                              \
  X(nip49_invalid_key_security, "NIP49_INVALID_KEY_SECURITY")                                \
  X(nip49_decrypt_failed, "NIP49_DECRYPT_FAILED")                                            \
  /* NIP-59 */                                                                               \
  X(nip59_not_gift_wrap, "NIP59_NOT_GIFT_WRAP")                                              \
  X(nip59_invalid_seal, "NIP59_INVALID_SEAL")                                                \
  X(nip59_seal_signature, "NIP59_SEAL_SIGNATURE")                                            \
  X(nip59_invalid_rumor, "NIP59_INVALID_RUMOR")                                              \
  X(nip59_author_mismatch, "NIP59_AUTHOR_MISMATCH")                                          \
  X(nip59_rumor_id_mismatch, "NIP59_RUMOR_ID_MISMATCH")                                      \
  X(nip59_not_for_recipient, "NIP59_NOT_FOR_RECIPIENT")                                      \
  /* NIP-13 */                                                                               \
  X(pow_invalid_target, "POW_INVALID_TARGET")                                                \
  X(pow_exhausted, "POW_EXHAUSTED")                                                          \
  /* NIP-40 */                                                                               \
  X(invalid_expiration, "INVALID_EXPIRATION")                                                \
  /* relay codec and subscriptions (NIP-01 messages, NIP-42) */                           \
  X(relay_frame_invalid, "RELAY_FRAME_INVALID")                                              \
  X(relay_frame_too_large, "RELAY_FRAME_TOO_LARGE")                                          \
  X(relay_frame_unknown_verb, "RELAY_FRAME_UNKNOWN_VERB")                                    \
  X(relay_frame_arity, "RELAY_FRAME_ARITY")                                                  \
  X(relay_frame_type, "RELAY_FRAME_TYPE")                                                    \
  X(relay_sub_id_invalid, "RELAY_SUB_ID_INVALID")                                            \
  X(relay_subscription_exists, "RELAY_SUBSCRIPTION_EXISTS")                                  \
  X(relay_subscription_unknown, "RELAY_SUBSCRIPTION_UNKNOWN")                                \
  X(relay_event_duplicate, "RELAY_EVENT_DUPLICATE")                                          \
  X(relay_event_not_matching, "RELAY_EVENT_NOT_MATCHING")                                    \
  X(relay_url_invalid, "RELAY_URL_INVALID")                                                  \
  X(relay_auth_wrong_kind, "RELAY_AUTH_WRONG_KIND")                                          \
  X(relay_auth_wrong_relay, "RELAY_AUTH_WRONG_RELAY")                                        \
  X(relay_auth_wrong_challenge, "RELAY_AUTH_WRONG_CHALLENGE")                                \
  X(relay_auth_stale, "RELAY_AUTH_STALE")                                                    \
  /* NIP-XX AI Agent Messages: the protocol's own error codes, names exactly as on the wire */ \
  X(xx_unsupported_encryption, "UNSUPPORTED_ENCRYPTION")                                     \
  X(xx_unsupported_model, "UNSUPPORTED_MODEL")                                               \
  X(xx_unsupported_schema_version, "UNSUPPORTED_SCHEMA_VERSION")                             \
  X(xx_cancelled, "CANCELLED")                                                               \
  X(xx_rate_limit, "RATE_LIMIT")                                                             \
  X(xx_unauthorized, "UNAUTHORIZED")                                                         \
  X(xx_blocked_sender, "BLOCKED_SENDER")                                                     \
  X(xx_model_unavailable, "MODEL_UNAVAILABLE")                                               \
  X(xx_session_limit, "SESSION_LIMIT")                                                       \
  X(xx_parse_error, "PARSE_ERROR")                                                           \
  X(xx_empty_response, "EMPTY_RESPONSE")                                                     \
  X(xx_tool_error, "TOOL_ERROR")                                                             \
  X(xx_invalid_schema, "INVALID_SCHEMA")                                                     \
  X(xx_unsupported_feature, "UNSUPPORTED_FEATURE")                                           \
  X(xx_invalid_sequence, "INVALID_SEQUENCE")                                                 \
  X(xx_internal_error, "INTERNAL_ERROR")                                                     \
  /* NIP-AGX: wraps a recipient discards (each check its own code), payloads, tasks, cards */  \
  X(agx_wrap_p_tag, "AGX_WRAP_P_TAG")                                                        \
  X(agx_wrap_not_for_us, "AGX_WRAP_NOT_FOR_US")                                              \
  X(agx_wrap_no_expiration, "AGX_WRAP_NO_EXPIRATION")                                        \
  X(agx_wrap_expired, "AGX_WRAP_EXPIRED")                                                    \
  X(agx_wrap_expiration_too_far, "AGX_WRAP_EXPIRATION_TOO_FAR")                              \
  X(agx_wrap_pow, "AGX_WRAP_POW")                                                            \
  X(agx_wrap_future, "AGX_WRAP_FUTURE")                                                      \
  X(agx_rumor_kind, "AGX_RUMOR_KIND")                                                        \
  X(agx_payload_invalid, "AGX_PAYLOAD_INVALID")                                              \
  X(agx_receipt_invalid, "AGX_RECEIPT_INVALID")                                              \
  X(agx_task_invalid, "AGX_TASK_INVALID")                                                    \
  X(agx_task_transition, "AGX_TASK_TRANSITION")                                              \
  X(agx_too_large, "AGX_TOO_LARGE")                                                          \
  X(agx_pending_full, "AGX_PENDING_FULL")                                                    \
  X(agx_pending_exists, "AGX_PENDING_EXISTS")                                                \
  X(agx_card_invalid, "AGX_CARD_INVALID")                                                    \
  X(agx_nip05_invalid, "AGX_NIP05_INVALID")                                                  \
  X(agx_nip05_response_invalid, "AGX_NIP05_RESPONSE_INVALID")                                \
  X(agx_seen_snapshot_invalid, "AGX_SEEN_SNAPSHOT_INVALID")                                  \
  X(agx_overloaded, "AGX_OVERLOADED")                                                        \
  /* NIP-04, NIP-05, NIP-21, NIP-98 (the nostr-tools modules of issue 22) */                 \
  X(nip04_invalid_payload, "NIP04_INVALID_PAYLOAD")                                          \
  X(nip05_invalid, "NIP05_INVALID")                                                          \
  X(nip05_response_invalid, "NIP05_RESPONSE_INVALID")                                        \
  X(nip05_not_found, "NIP05_NOT_FOUND")                                                      \
  X(nip21_invalid, "NIP21_INVALID")                                                          \
  X(nip98_invalid_token, "NIP98_INVALID_TOKEN")                                              \
  X(nip98_wrong_kind, "NIP98_WRONG_KIND")                                                    \
  X(nip98_stale, "NIP98_STALE")                                                              \
  X(nip98_wrong_url, "NIP98_WRONG_URL")                                                      \
  X(nip98_wrong_method, "NIP98_WRONG_METHOD")                                                \
  X(nip98_wrong_payload, "NIP98_WRONG_PAYLOAD")                                              \
  /* misuse by the local caller */                                                           \
  X(invalid_argument, "INVALID_ARGUMENT")                                                    \
  X(internal, "INTERNAL")

enum class errc : std::uint16_t {
#define NOSTR_ERRC_ENUM(name, str) name,
  NOSTR_ERRC_LIST(NOSTR_ERRC_ENUM)
#undef NOSTR_ERRC_ENUM
};

// Stable upper-snake name of a code, e.g. "INVALID_HEX".
const char* errc_name(errc code);

}  // namespace nostr
