// NIP-19: bech32-encoded entities. Bare keys and ids (npub, nsec, note) carry 32 bytes; the
// shareable identifiers (nprofile, nevent, naddr) carry type-length-value records.
//
// Encoders write the TLVs in the spec's order (type 0 first, then 1, 2, 3). Decoders accept any
// order, take the first record of a single-valued type, collect every relay, and skip unknown
// types, as NIP-19 asks ("decoders should ignore TLV types they do not recognize").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip19 {

// A TLV value's length is one byte.
constexpr std::size_t kMaxTlvValue = 255;

struct npub {
  bytes32 pubkey;
};
struct nsec {
  secret32 secret_key;  // wiped when the value dies
};
struct note {
  bytes32 id;
};
struct nprofile {
  bytes32 pubkey;                   // TLV 0
  std::vector<std::string> relays;  // TLV 1, UTF-8
};
struct nevent {
  bytes32 id;                            // TLV 0
  std::vector<std::string> relays;       // TLV 1, UTF-8
  std::optional<bytes32> author;         // TLV 2
  std::optional<std::uint32_t> kind;     // TLV 3, 32-bit big-endian
};
struct naddr {
  std::string identifier;           // TLV 0: the "d" tag, UTF-8, may be empty
  bytes32 pubkey;                   // TLV 2
  std::uint32_t kind = 0;           // TLV 3, 32-bit big-endian
  std::vector<std::string> relays;  // TLV 1, UTF-8
};

using entity = std::variant<npub, nsec, note, nprofile, nevent, naddr>;

// "npub", "nsec", "note", "nprofile", "nevent" or "naddr".
const char* prefix_of(const entity& e);

std::string encode_npub(const bytes32& pubkey);
std::string encode_nsec(const bytes32& secret_key);
std::string encode_note(const bytes32& id);

// Errors: INVALID_UTF8 (a relay or identifier is not UTF-8), TLV_INVALID (a value longer than
// kMaxTlvValue bytes), BECH32_LENGTH (the string would exceed bech32::kMaxLength).
result<std::string> encode_nprofile(const nprofile& p);
result<std::string> encode_nevent(const nevent& e);
result<std::string> encode_naddr(const naddr& a);
result<std::string> encode(const entity& e);

// Decodes any of the six entities. Errors: those of bech32::decode, then BECH32_PREFIX (unknown
// prefix), BECH32_LENGTH (npub/nsec/note payload not 32 bytes), TLV_INVALID (truncated record,
// missing required record, value of the wrong size, relay or identifier not UTF-8).
result<entity> decode(std::string_view s);

// Decode one expected entity; any other valid prefix gives BECH32_PREFIX.
result<bytes32> decode_npub(std::string_view s);
result<secret32> decode_nsec(std::string_view s);
result<bytes32> decode_note(std::string_view s);
result<nprofile> decode_nprofile(std::string_view s);
result<nevent> decode_nevent(std::string_view s);
result<naddr> decode_naddr(std::string_view s);

}  // namespace nostr::nip19
