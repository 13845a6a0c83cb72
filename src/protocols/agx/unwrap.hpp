// The AGX gift wrap, inbound. A recipient discards a wrap unless every check holds, each failure
// with its own code, cheapest first and nothing decrypted before the public checks pass:
//   kind 1059 (NIP59_NOT_GIFT_WRAP), exactly one p tag (AGX_WRAP_P_TAG) naming us
//   (AGX_WRAP_NOT_FOR_US), created_at at most kMaxFutureSkew ahead (AGX_WRAP_FUTURE: skipped, NOT
//   marked seen, polled again later), an expiration (AGX_WRAP_NO_EXPIRATION) not yet reached
//   (AGX_WRAP_EXPIRED) and not beyond the 31-day cap (AGX_WRAP_EXPIRATION_TOO_FAR), PoW of at least
//   kPowBits with a nonce tag committing to at least that (AGX_WRAP_POW), then the wrap's id and
//   signature (ID_MISMATCH, INVALID_SIGNATURE);
// then, after decryption, NIP-59's four (SPEC.md "Transport envelope"): a validly signed kind 13
//   seal (NIP59_INVALID_SEAL, NIP59_SEAL_SIGNATURE), rumor pubkey == seal signer
//   (NIP59_AUTHOR_MISMATCH), rumor id == its hash (NIP59_RUMOR_ID_MISMATCH), rumor p-tags us
//   (NIP59_NOT_FOR_RECIPIENT); and the rumor is an AGX kind (AGX_RUMOR_KIND).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "event/event.hpp"
#include "nips/nip59.hpp"
#include "util/result.hpp"

namespace nostr::agx {

// What an accepted wrap yields.
struct opened_wrap {
  std::string from;  // the seal's signer: the sender, proven, and nothing else
  event rumor;       // kind 3838 or 3839, id checked; rumor.id is the message identity
  std::string wrap_id;
  std::int64_t wrap_created_at = 0;  // backdated; what an inbox cursor is measured against
  std::int64_t wrap_expires_at = 0;  // its NIP-40 expiration: no poll can fetch it after that
};

// The public checks (everything before decryption). me_hex: our pubkey, 64 lowercase hex.
// verify_signature false: the id and signature were verified by the layer that delivered the wrap
// (the relay pool's feed), so they are not verified twice; the shape and id format still are.
result<void> check_wrap(const event& wrap, std::string_view me_hex, std::int64_t now, bool verify_signature = true);

// A relay's write policy for AGX traffic (SPEC.md "Retention": SHOULD reject wraps without an
// expiration or beyond the cap; "Anti-spam": MAY reject below the PoW floor). Kind 1059 events get
// the recipient-independent checks of check_wrap (one p tag, not future, expiration present, not
// expired and within the cap, PoW); every other kind passes. Signature checks are the relay's own.
result<void> relay_accepts(const event& e, std::int64_t now);

// Step by step, for a key held by a signer (NIP-07): after check_wrap, the signer decrypts the
// wrap content with wrap.pubkey; seal_json is that plaintext. Then the signer decrypts the seal's
// content with seal.pubkey; rumor_json is that plaintext.
result<event> open_seal_json(std::string_view seal_json);
result<opened_wrap> open_rumor_json(const event& wrap, const event& seal, std::string_view rumor_json,
                                    std::string_view me_hex);

// All of it, with the recipient's NIP-44 conversation keys from wherever the secret lives.
result<opened_wrap> unwrap(const event& wrap, const nip59::conversation_key_fn& conversation_key,
                           std::string_view me_hex, std::int64_t now);
// All of it, with the recipient's secret key at hand.
result<opened_wrap> unwrap(const event& wrap, const bytes32& recipient_sk, std::int64_t now);

// What the inbox does with a wrap after an unwrap error (SPEC.md "Signing", "Cursor advance").
enum class disposition {
  ignore,       // it failed a public check: not recorded at all (its id binds no signed content,
                // and junk must never take the place of processed ids), checked again if seen again
  discard,      // it passed the public checks and then did not check out: its id may be cached
                // (seen_store.hpp), never retried
  retry_later,  // future-dated, or a local fault (bad key, misuse): leave it unseen, poll again
};
// Where the error came from: check_wrap (the public checks), or opening what passed them.
enum class unwrap_stage { public_checks, opening };
disposition disposition_of(errc code, unwrap_stage stage);

// unwrap after check_wrap passed (the public checks are not repeated).
result<opened_wrap> unwrap_checked(const event& wrap, const nip59::conversation_key_fn& conversation_key,
                                   std::string_view me_hex);

}  // namespace nostr::agx
