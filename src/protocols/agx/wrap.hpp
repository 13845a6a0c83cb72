// The AGX gift wrap, outbound (SPEC.md "Transport envelope", "Retention", "Anti-spam"): a rumor
// sealed by its author (kind 13, no tags, backdated) and wrapped (kind 1059) under a one-time key
// with exactly the tags [["p",recipient],["expiration",created_at + kWrapTtl],["nonce",n,"12"]],
// where created_at is drawn up to kMaxWrapBackdate into the past from caller randomness and the
// nonce is mined WITHOUT changing it. Mining is bounded per call and resumable, so a host can
// spread it over ticks.
//
// Two entry points:
// - seal_and_start: the author's secret key is at hand (all local);
// - wrap_miner::start: the seal was made elsewhere (a NIP-07 signer encrypted the rumor and
//   signed the template from seal_template), so only the one-time key's work is done here.
// A rumor alone is never a publishable event (it has no sig); only finish() output is.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "nips/nip13.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/constants.hpp"
#include "util/result.hpp"

namespace nostr::agx {

// created_at for a seal or wrap: now - r, r in [0, kMaxWrapBackdate] from 8 CSPRNG bytes as an
// integer; never in the future (SPEC.md "Transport envelope").
std::int64_t backdated(std::int64_t now, std::uint64_t random);

// The seal template an external signer signs: kind 13, no tags, content = the NIP-44 payload of
// nip59::rumor_to_json(rumor) that the signer encrypted to the recipient, created_at backdated.
event_template seal_template(std::string sealed_content, std::int64_t now, std::uint64_t random);

// The wrap's tags before mining: [["p",recipient],["expiration",String(created_at + kWrapTtl)]].
tag_list wrap_tags(std::string_view recipient_pubkey_hex, std::int64_t created_at);

class wrap_miner {
 public:
  // Prepares the wrap of a signed seal to `recipient_pubkey_hex`: checks the seal (kind 13, no
  // tags, id and signature, created_at not after now), encrypts its JSON under the one-time key
  // rnd.wrap_secret, and lays out the template with created_at = backdated(now, rnd.wrap_tweak).
  // Only rnd's wrap_* fields are read. pow_bits below kPowBits is refused.
  // Errors: INVALID_PUBLIC_KEY, INVALID_ARGUMENT, INVALID_SECRET_KEY, NIP59_INVALID_SEAL,
  // NIP59_SEAL_SIGNATURE, NIP-44 errors.
  static result<wrap_miner> start(const event& seal, std::string_view recipient_pubkey_hex, std::int64_t now,
                                  const nip59::wrap_randomness& rnd, int pow_bits = kPowBits);

  // Tries up to max_iterations further nonces; true once a nonce meets the target (then further
  // calls do nothing). POW_EXHAUSTED when the nonce space ends (not reachable in practice).
  result<bool> step(std::uint64_t max_iterations);

  bool done() const { return found_; }
  std::uint64_t tried() const { return next_; }
  std::int64_t created_at() const { return template_.created_at; }

  // The signed wrap, ready to publish. INVALID_ARGUMENT before done(); INTERNAL if the mined
  // nonce does not hold on the final serialization (cannot happen; checked anyway).
  result<event> finish() const;

  wrap_miner(wrap_miner&&) = default;
  wrap_miner& operator=(wrap_miner&&) = default;
  ~wrap_miner();

 private:
  wrap_miner() = default;
  std::optional<crypto::keypair> key_;
  std::string pubkey_hex_;
  bytes32 aux_{};
  event_template template_;  // p and expiration; the nonce tag is added when found
  std::optional<nip13::miner> miner_;
  std::uint64_t next_ = 0;
  bool found_ = false;
  std::uint64_t nonce_ = 0;
  int bits_ = kPowBits;
};

// All local: seals `rumor` with the author's key (created_at = backdated(now, rnd.seal_tweak))
// and prepares its wrap. The rumor must be a 3838 or 3839 rumor by the author with its own id
// and exactly one p tag, naming the recipient (INVALID_ARGUMENT otherwise; NIP59_* from the seal).
result<wrap_miner> seal_and_start(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                                  std::int64_t now, const nip59::wrap_randomness& rnd);

// seal_and_start, then mining to completion within max_iterations (POW_EXHAUSTED past it).
result<event> wrap_rumor(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                         std::int64_t now, const nip59::wrap_randomness& rnd,
                         std::uint64_t max_iterations = kMaxPowIterations);

// The publish boundary's guard (SPEC.md "Event kinds": 3838 and 3839 MUST NOT be published bare;
// a seal is never published on its own): INVALID_ARGUMENT for kinds 3838, 3839 and 13, and for a
// kind 1059 event that is not a conforming AGX wrap (relay_accepts' rules, unwrap.hpp).
result<void> check_publishable(const event& e, std::int64_t now);

}  // namespace nostr::agx
