// NIP-40 expiration timestamp: read, write and check the `expiration` tag.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "event/event.hpp"
#include "util/result.hpp"

namespace nostr::nip40 {

// Largest accepted timestamp: 2^53 - 1, the range JS numbers (and JSON parsers built on doubles)
// hold exactly, so every implementation reads the same instant.
constexpr std::int64_t kMaxTimestamp = (std::int64_t{1} << 53) - 1;

// A tag value as a timestamp: one or more ASCII digits, at most kMaxTimestamp. No sign, no spaces.
// INVALID_EXPIRATION otherwise.
result<std::int64_t> parse_expiration(std::string_view value);

// The first `expiration` tag's timestamp (NIP-40 "Spec": ["expiration", "<unix seconds>"]);
// nullopt when there is none. INVALID_EXPIRATION when that tag has no value or a malformed one.
result<std::optional<std::int64_t>> get_expiration(const tag_list& tags);

// Sets the expiration of a template: the first `expiration` tag gets the new value in place, later
// ones are dropped (readers only see the first), or a tag is appended when there is none.
// INVALID_EXPIRATION when timestamp is outside 0..kMaxTimestamp.
result<void> set_expiration(tag_list& tags, std::int64_t timestamp);

// NIP-40 calls the timestamp "the time at which the message should be deleted", so at that very
// second the event is already expired: expired iff now >= expiration.
bool is_expired(std::int64_t expiration, std::int64_t now);

// False when there is no expiration tag; INVALID_EXPIRATION when it is malformed.
result<bool> is_expired(const tag_list& tags, std::int64_t now);
inline result<bool> is_expired(const event& e, std::int64_t now) { return is_expired(e.tags, now); }

}  // namespace nostr::nip40
