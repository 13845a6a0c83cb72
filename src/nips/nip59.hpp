// NIP-59 gift wrap: rumor (unsigned event) -> seal (kind 13, signed by the author) -> wrap
// (kind 1059, signed by a one-time key). Sans-IO: the clock (`now`) and every random value
// (NIP-44 nonces, BIP-340 aux, the one-time key, timestamp tweaks) are parameters.
//
// Two ways to use it:
// - all-local fast paths (`wrap`, `unwrap`) when the secret key is at hand;
// - step by step, for a signer that holds the key elsewhere (a NIP-07 extension): the caller does
//   the NIP-44 and signing operations and these functions build templates and check results
//   (`seal_template`, `check_seal`, `parse_seal`, `open_rumor`, `create_wrap`).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "crypto/secp256k1.hpp"
#include "event/event.hpp"
#include "util/bytes.hpp"
#include "util/result.hpp"

namespace nostr::nip59 {

constexpr std::int64_t kSealKind = 13;
constexpr std::int64_t kGiftWrapKind = 1059;
// NIP-59 "Other considerations": created_at of seal and wrap is tweaked up to two days into the past.
constexpr std::int64_t kMaxTimestampTweak = 2 * 24 * 60 * 60;

// now - r, with r in [0, kMaxTimestampTweak] taken from `random` (8 CSPRNG bytes as an integer);
// never in the future and never negative. The modulo bias is below 2^-46.
std::int64_t random_past(std::int64_t now, std::uint64_t random);

// --- Rumor

// The rumor of a template: pubkey and id filled in, no sig (event.sig stays empty).
inline event create_rumor(const event_template& t, std::string_view author_pubkey_hex) {
  return make_unsigned(t, author_pubkey_hex);
}

// {"id","pubkey","created_at","kind","tags","content"}: the rumor's JSON, without sig.
std::string rumor_to_json(const event& rumor);

// Parses the JSON of an unsigned event (sig is not required, and ignored when present) and checks
// its field shapes. Any failure is NIP59_INVALID_RUMOR. Does not check the id.
result<event> parse_rumor(std::string_view json);

// A rumor that a seal may carry: valid shape, pubkey == author, id == hash of its fields.
// NIP59_INVALID_RUMOR, NIP59_AUTHOR_MISMATCH or NIP59_RUMOR_ID_MISMATCH.
result<void> check_rumor(const event& rumor, std::string_view author_pubkey_hex);

// --- Seal

// The kind 13 template (no tags) around `sealed_content`, the NIP-44 payload of the rumor JSON
// that the author encrypted to the recipient. created_at comes from random_past.
event_template seal_template(std::string sealed_content, std::int64_t created_at);

// Seal of a rumor by its author: encrypts rumor_to_json(rumor) under the author-recipient
// conversation key and signs. Checks the rumor first (check_rumor with the author's pubkey).
// nonce: fresh NIP-44 nonce; aux: fresh BIP-340 aux randomness.
result<event> create_seal(const event& rumor, const crypto::keypair& author, const bytes32& conversation_key,
                          const bytes32& nonce, const bytes32& aux, std::int64_t created_at);

// A seal as received: kind 13 with a valid id and signature.
// NIP59_INVALID_SEAL (shape, kind) or NIP59_SEAL_SIGNATURE (id or signature).
result<void> check_seal(const event& seal);

// JSON text -> checked seal. NIP59_INVALID_SEAL when it does not parse as an event.
result<event> parse_seal(std::string_view json);

// --- Wrap

// Gift wrap of a seal to `recipient_pubkey`, signed by the one-time key `wrap_key`:
// content = NIP-44 of the seal JSON under conversation_key(wrap_key, recipient), tags
// [["p", recipient]] followed by `extra_tags`. The seal must pass check_seal's shape and kind
// rules (its signature is not re-verified here).
result<event> create_wrap(const event& seal, std::string_view recipient_pubkey_hex, const crypto::keypair& wrap_key,
                          const bytes32& conversation_key, const bytes32& nonce, const bytes32& aux,
                          std::int64_t created_at, const tag_list& extra_tags = {});

// A wrap as received: kind 1059 (NIP59_NOT_GIFT_WRAP) and a valid event (verify()'s codes).
result<void> check_wrap(const event& wrap, bool verify_signature = true);

// --- All-local paths

// Every random value one wrap needs, drawn by the caller from a CSPRNG. Wiped on destruction.
struct wrap_randomness {
  bytes32 wrap_secret{};  // the one-time key; invalid (probability ~2^-128) -> INVALID_SECRET_KEY
  bytes32 seal_nonce{};
  bytes32 wrap_nonce{};
  bytes32 seal_aux{};
  bytes32 wrap_aux{};
  std::uint64_t seal_tweak = 0;  // for random_past
  std::uint64_t wrap_tweak = 0;
  ~wrap_randomness();
};

// rumor -> seal (signed by `author`, encrypted under `seal_conversation_key`, the author-recipient
// NIP-44 key) -> wrap to `recipient_pubkey_hex`. `now` must be non-negative; the rumor must carry
// the author's pubkey and its own id (create_rumor).
result<event> wrap(const event& rumor, const crypto::keypair& author, const bytes32& seal_conversation_key,
                   std::string_view recipient_pubkey_hex, std::int64_t now, const wrap_randomness& rnd,
                   const tag_list& extra_tags = {});

// The same with the author's secret key at hand.
result<event> wrap(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                   std::int64_t now, const wrap_randomness& rnd, const tag_list& extra_tags = {});

struct unwrap_options {
  // NIP-17-style check: the rumor must carry a ["p", <recipient pubkey>] tag
  // (NIP59_NOT_FOR_RECIPIENT), so a seal re-wrapped to someone else is noticed.
  bool require_recipient_tag = false;
  // The wrap's own id and signature prove only that its one-time key signed it, which anyone can
  // do: authorship rests on the seal's signature. Like nostr-tools and rust-nostr, unwrap skips
  // them unless asked (events from the relay pool were verified on delivery already).
  bool verify_wrap_signature = false;
};

struct unwrapped {
  event rumor;
  event seal;
};

// The seal inside a wrap, decrypted with the recipient's conversation key for wrap.pubkey and
// checked (check_wrap first; NIP-44 errors pass through).
result<event> open_wrap(const event& wrap, const bytes32& conversation_key);

// The rumor inside a checked seal, decrypted with the recipient's conversation key for
// seal.pubkey, parsed and checked against the seal (and the recipient, per options).
result<event> open_seal(const event& seal, const bytes32& conversation_key, std::string_view recipient_pubkey_hex,
                        const unwrap_options& options = {});

// Checks a decrypted rumor JSON against its seal: parse_rumor, check_rumor(seal.pubkey), and the
// recipient tag when the options ask for it.
result<event> open_rumor(std::string_view rumor_json, const event& seal, std::string_view recipient_pubkey_hex,
                         const unwrap_options& options = {});

// The recipient's NIP-44 conversation key with a peer (x-only public key), from wherever the
// recipient's secret lives (a key handle keeps it, and a cache of these, out of reach).
using conversation_key_fn = std::function<result<bytes32>(const bytes32& peer)>;

// wrap -> seal -> rumor. check_wrap runs before any key is derived.
// recipient_pubkey_hex is only read by the recipient-tag check.
result<unwrapped> unwrap(const event& wrap, const conversation_key_fn& conversation_key,
                         std::string_view recipient_pubkey_hex, const unwrap_options& options = {});

// The same with the recipient's secret key at hand.
result<unwrapped> unwrap(const event& wrap, const bytes32& recipient_sk, const unwrap_options& options = {});

}  // namespace nostr::nip59
