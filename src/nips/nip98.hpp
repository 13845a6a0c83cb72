// NIP-98 HTTP auth: a kind 27235 event naming the request's absolute URL (`u`) and method
// (`method`), and for a request with a body its SHA-256 (`payload`), sent base64-encoded in an
// `Authorization: Nostr <token>` header. Servers check, in the NIP's order, the kind, that
// created_at is within a window of now, the URL (exactly, query included) and the method; the
// payload when they have a body. Before all that, the event's id and signature.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "event/event.hpp"
#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip98 {

constexpr std::int64_t kKind = 27235;
// NIP-98 "suggestion 60 seconds": valid while |now - created_at| < kDefaultWindow (nostr-tools' rule).
constexpr std::int64_t kDefaultWindow = 60;
constexpr std::string_view kScheme = "Nostr";
// Longest token read (an Authorization header; servers cap headers far below this).
constexpr std::size_t kMaxTokenLength = 65536;

// The unsigned event: kind 27235, [["u", url], ["method", method]] and ["payload", payload_hex]
// when given, empty content, created_at = now. INVALID_ARGUMENT unless url is an absolute http(s)
// URL without spaces or control characters, method an HTTP token (RFC 9110 tchar) and payload_hex
// 64 hex characters.
result<event_template> auth_template(std::string_view url, std::string_view method,
                                     std::optional<std::string_view> payload_hex, std::int64_t now);

// The `payload` value for a body: its SHA-256 in lowercase hex.
std::string payload_hash(const std::uint8_t* body, std::size_t n);

// One check each (nostr-tools' validateEvent* functions), on the first tag of each name:
result<void> check_kind(const event& e);                                        // NIP98_WRONG_KIND
result<void> check_time(const event& e, std::int64_t now, std::int64_t window);  // NIP98_STALE
result<void> check_url(const event& e, std::string_view url);                   // NIP98_WRONG_URL, exact
result<void> check_method(const event& e, std::string_view method);  // NIP98_WRONG_METHOD, any case
result<void> check_payload(const event& e, std::string_view payload_hex);  // NIP98_WRONG_PAYLOAD, hex any case

struct request {
  std::string_view url;
  std::string_view method;
  std::optional<std::string_view> payload_hex;  // the body's hash, when the request has a body
};

// verify() (INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE), then the checks above in that order.
result<void> validate(const event& e, const request& r, std::int64_t now, std::int64_t window = kDefaultWindow);

// base64 of the event's JSON, after "Nostr " when with_scheme.
std::string encode_token(const event& e, bool with_scheme);

// The event in a token, with or without the "Nostr" scheme (any case) and the spaces after it.
// NIP98_INVALID_TOKEN when it is empty, over kMaxTokenLength, not canonical base64, or not the
// JSON of an event object (parse_event; not verified here).
result<event> decode_token(std::string_view token);

}  // namespace nostr::nip98
