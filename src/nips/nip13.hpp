// NIP-13 proof of work: the difficulty of an id, the committed target of a nonce tag, and a
// bounded, resumable nonce search. The search never touches created_at (NIP-13 only recommends
// updating it; gift wraps need their backdated created_at kept), and it is sans-IO: the caller
// chooses how many nonces each call may try, so it can stay responsive or give up.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "crypto/sha256_fixed_tail.hpp"
#include "event/event.hpp"
#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip13 {

constexpr int kMaxTarget = 256;  // an id has 256 bits
constexpr std::uint64_t kMaxNonce = UINT64_MAX;

// Number of leading zero bits of an id (NIP-13 "difficulty").
int difficulty(const bytes32& id);

// The same on 64 hex characters (either case); INVALID_HEX otherwise.
result<int> difficulty_hex(std::string_view id_hex);

// True when `id` has at least `target` leading zero bits (target 0..256; larger never matches).
bool meets_target(const bytes32& id, int target);

// The committed target: the third entry of the first nonce tag (NIP-13 "Mining"), when it is a
// decimal integer 0..256 without sign or leading zeros. nullopt when absent or malformed.
std::optional<int> committed_target(const tag_list& tags);

// NIP-13 check of a received event: its id has at least `target` leading zero bits, and its
// committed target, if any, is at least `target` (a lower commitment is a lucky low-target spammer,
// which NIP-13 says to reject). With require_commitment a missing commitment fails too (NIP-13:
// clients MAY reject it). Reads e.id as given: verify() the event first.
// Errors: POW_INVALID_TARGET (target outside 0..256), INVALID_HEX (id is not 64 hex characters).
result<bool> check_pow(const event& e, int target, bool require_commitment = false);

// The outcome of one bounded search.
struct search_result {
  bool found = false;
  std::uint64_t nonce = 0;  // found: the winning nonce; otherwise the next nonce to try
  bool exhausted = false;   // not found and kMaxNonce was tried: no nonce is left
  bytes32 id{};             // found: the event id
};

// A prepared search over nonces whose serialization is prefix || decimal(nonce) || suffix.
// Everything but the nonce digits is hashed or laid out once (crypto::sha256_fixed_tail); each try
// rewrites the digits in place and hashes; only a nonce gaining a digit re-lays the message out.
class miner {
 public:
  // Takes the serialization around the nonce digits as given (the caller built it, e.g. with
  // JSON.stringify in JS, and answers for it being NIP-01's). POW_INVALID_TARGET.
  static result<miner> from_parts(std::string_view prefix, std::string_view suffix, int target);

  // Builds the NIP-01 serialization of `t` signed by `pubkey_hex`, with every nonce tag removed
  // and ["nonce","<n>","<target>"] appended as the last tag (so the constant prefix is long).
  // POW_INVALID_TARGET, INVALID_EVENT (pubkey, kind or created_at malformed).
  static result<miner> for_template(std::string_view pubkey_hex, const event_template& t, int target);

  // Tries up to `count` nonces from `first` upwards (stopping after kMaxNonce).
  search_result search(std::uint64_t first, std::uint64_t count);

  int target() const { return target_; }

 private:
  miner() = default;
  void layout(std::size_t width);  // places `width` nonce digits between prefix and suffix

  std::string prefix_;
  std::string suffix_;
  crypto::sha256_fixed_tail hasher_;
  std::size_t width_ = 0;  // nonce digits in the current layout; 0 before the first
  int target_ = 0;
};

// The result of one bounded mining call.
struct mine_result {
  bool done = false;             // false: not yet; call again with start = next_nonce
  std::uint64_t next_nonce = 0;  // when not done
  event ev;                      // when done: the unsigned event (sig empty) with its nonce tag and id
};

// Mines `t` for `pubkey_hex` at `target` bits, trying at most max_iterations nonces from `start`.
// created_at is never changed. Errors: those of miner::for_template; POW_EXHAUSTED when the nonce
// space ends without a match.
result<mine_result> mine(std::string_view pubkey_hex, const event_template& t, int target, std::uint64_t start,
                         std::uint64_t max_iterations);

}  // namespace nostr::nip13
