// NIP-01 events: the plain event value, its canonical serialization, id, signature and shape rules.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/secp256k1.hpp"
#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr {

using tag = std::vector<std::string>;
using tag_list = std::vector<tag>;

struct event {
  std::string id;      // 64 lowercase hex
  std::string pubkey;  // 64 lowercase hex
  std::int64_t created_at = 0;
  std::int64_t kind = 0;
  tag_list tags;
  std::string content;
  std::string sig;  // 128 lowercase hex
};

// An unsigned event: what a caller fills in before signing (pubkey comes from the key).
struct event_template {
  std::int64_t created_at = 0;
  std::int64_t kind = 0;
  tag_list tags;
  std::string content;
};

// NIP-01 kind ranges: replaceable 0, 3 and 10000..19999; ephemeral 20000..29999; addressable
// 30000..39999; regular the rest of 1..9999 (NIP-01 lists 1, 2, 4..44 and 1000..9999 and assigns
// 45..999 nothing; like nostr-tools, and every relay, which stores them, those count as regular).
// 40000..65535 and anything outside NIP-01's 0..65535 are unknown.
enum class kind_class { regular, replaceable, ephemeral, addressable, unknown };
kind_class classify_kind(std::int64_t kind);

// Appends s as a JSON string literal with NIP-01's escaping (the same bytes JSON.stringify gives):
// \" \\ \n \r \t \b \f short forms, other control characters as \u00xx, everything else verbatim.
void append_json_string(std::string& out, std::string_view s);

// [0,<pubkey>,<created_at>,<kind>,<tags>,<content>] with no whitespace (NIP-01 "Events and signatures").
std::string serialize_for_id(std::string_view pubkey, std::int64_t created_at, std::int64_t kind,
                             const tag_list& tags, std::string_view content);
inline std::string serialize_for_id(const event& e) {
  return serialize_for_id(e.pubkey, e.created_at, e.kind, e.tags, e.content);
}

bytes32 compute_id(const event& e);
std::string compute_id_hex(const event& e);

// Checks field shapes only (hex lengths and case, kind range, created_at sign); no hashing.
result<void> validate_shape(const event& e);

// validate_shape, then id == sha256(serialization), then the BIP-340 signature.
result<void> verify(const event& e);

// verify() of each of n events, the same result per event, with the signatures checked together
// (crypto::schnorr_verify32_batch): faster for a relay's backlog than n verify() calls.
std::vector<result<void>> verify_batch(const event* const* events, std::size_t n);

// Fills pubkey, id and sig. aux is BIP-340 aux randomness (pass fresh random bytes).
event finalize(const event_template& t, const crypto::keypair& key, const bytes32& aux);

// Like finalize but leaves sig empty: an unsigned "rumor" (NIP-59) with its id.
event make_unsigned(const event_template& t, std::string_view pubkey_hex);

// JSON text <-> event. Unknown fields are ignored; missing or mistyped fields are INVALID_EVENT.
// parse does not verify: call verify() on the result.
result<event> parse_event(std::string_view json);
std::string to_json(const event& e);

}  // namespace nostr
