#include "protocols/agx/wrap.hpp"

#include "nips/nip44.hpp"
#include "protocols/agx/unwrap.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

bool parse_pubkey(std::string_view hex_text, bytes32& out) {
  return hex::is_lower_hex(hex_text, 32) && hex::decode_to(hex_text, out.data(), 32);
}

}  // namespace

std::int64_t backdated(std::int64_t now, std::uint64_t random) {
  // NIP-59's tweak range is SPEC.md's MAX_WRAP_BACKDATE_SEC: reuse its bias-bounded draw.
  static_assert(nip59::kMaxTimestampTweak == kMaxWrapBackdate, "NIP-59 and AGX backdate windows agree");
  return nip59::random_past(now, random);
}

event_template seal_template(std::string sealed_content, std::int64_t now, std::uint64_t random) {
  return nip59::seal_template(std::move(sealed_content), backdated(now, random));
}

tag_list wrap_tags(std::string_view recipient_pubkey_hex, std::int64_t created_at) {
  // SPEC.md "Retention": from the BACKDATED created_at with one TTL for every wrap, so
  // expiration - created_at is a constant that reveals neither the send time nor the kind.
  return {{"p", std::string(recipient_pubkey_hex)}, {"expiration", std::to_string(created_at + kWrapTtl)}};
}

wrap_miner::~wrap_miner() { secure_zero(aux_); }

result<wrap_miner> wrap_miner::start(const event& seal, std::string_view recipient_pubkey_hex, std::int64_t now,
                                     const nip59::wrap_randomness& rnd, int pow_bits) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  if (pow_bits < kPowBits || pow_bits > nip13::kMaxTarget)
    return make_error(errc::invalid_argument, "pow_bits must be from 12 to 256 (SPEC.md Anti-spam)");
  bytes32 recipient{};
  if (!parse_pubkey(recipient_pubkey_hex, recipient))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters");
  NOSTR_TRY(nip59::check_seal(seal));
  if (!seal.tags.empty()) return make_error(errc::nip59_invalid_seal, "a seal carries no tags");
  // A seal dated in the future would tell the recipient's relay and the recipient more than the
  // backdate hides, and SPEC.md says MUST NOT.
  if (seal.created_at > now) return make_error(errc::invalid_argument, "seal created_at is in the future");

  auto key = crypto::keypair::from_secret(rnd.wrap_secret);
  if (!key) return key.err();
  auto ck = nip44::get_conversation_key(rnd.wrap_secret, recipient);
  if (!ck) return ck.err();
  secret32 conv(*ck);
  secure_zero(*ck);
  auto content = nip44::encrypt(to_json(seal), conv.b, rnd.wrap_nonce);
  if (!content) return content.err();

  wrap_miner w;
  w.key_ = std::move(*key);
  w.pubkey_hex_ = hex::encode(w.key_->public_key());
  w.aux_ = rnd.wrap_aux;
  w.bits_ = pow_bits;
  w.template_.kind = kGiftWrapKind;
  w.template_.created_at = backdated(now, rnd.wrap_tweak);
  w.template_.tags = wrap_tags(recipient_pubkey_hex, w.template_.created_at);
  w.template_.content = std::move(*content);
  // The template's serialization, split at the nonce digits: hashed once, each try rewrites only
  // the digits. created_at is part of the fixed prefix, so mining cannot move it.
  auto m = nip13::miner::for_template(w.pubkey_hex_, w.template_, pow_bits);
  if (!m) return m.err();
  w.miner_.emplace(std::move(*m));
  return w;
}

result<bool> wrap_miner::step(std::uint64_t max_iterations) {
  if (found_) return true;
  if (!miner_) return make_error(errc::internal, "miner missing");
  nip13::search_result s = miner_->search(next_, max_iterations);
  if (s.found) {
    found_ = true;
    nonce_ = s.nonce;
    next_ = s.nonce + 1;
    return true;
  }
  if (s.exhausted) return make_error(errc::pow_exhausted, "no nonce left to try");
  next_ = s.nonce;
  return false;
}

result<event> wrap_miner::finish() const {
  if (!found_ || !key_) return make_error(errc::invalid_argument, "the wrap is not mined yet: call step() until done");
  event_template t = template_;
  t.tags.push_back({"nonce", std::to_string(nonce_), std::to_string(bits_)});
  event e = finalize(t, *key_, aux_);
  // One real hash of the final event: the split serialization must be the one signed.
  bytes32 id{};
  (void)hex::decode_to(e.id, id.data(), 32);
  if (!nip13::meets_target(id, bits_)) return make_error(errc::internal, "mined nonce does not hold on the wrap");
  return e;
}

result<wrap_miner> seal_and_start(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                                  std::int64_t now, const nip59::wrap_randomness& rnd) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  if (rumor.kind != kMessageKind && rumor.kind != kReceiptKind)
    return make_error(errc::invalid_argument, "AGX wraps only message (3838) and receipt (3839) rumors");
  if (!rumor.sig.empty()) return make_error(errc::invalid_argument, "a rumor carries no signature");
  std::size_t p_tags = 0;
  bool names_recipient = false;
  for (const auto& t : rumor.tags) {
    if (t.empty() || t[0] != "p") continue;
    ++p_tags;
    names_recipient = t.size() >= 2 && t[1] == recipient_pubkey_hex;
  }
  // The recipient discards a rumor that does not p-tag it (SPEC.md "Transport envelope").
  if (p_tags != 1 || !names_recipient)
    return make_error(errc::invalid_argument, "the rumor must carry exactly one p tag, the recipient");
  bytes32 recipient{};
  if (!parse_pubkey(recipient_pubkey_hex, recipient))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters");

  auto author = crypto::keypair::from_secret(author_sk);
  if (!author) return author.err();
  auto ck = nip44::get_conversation_key(author_sk, recipient);
  if (!ck) return ck.err();
  secret32 conv(*ck);
  secure_zero(*ck);
  auto seal = nip59::create_seal(rumor, *author, conv.b, rnd.seal_nonce, rnd.seal_aux, backdated(now, rnd.seal_tweak));
  if (!seal) return seal.err();
  return wrap_miner::start(*seal, recipient_pubkey_hex, now, rnd);
}

result<event> wrap_rumor(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                         std::int64_t now, const nip59::wrap_randomness& rnd, std::uint64_t max_iterations) {
  auto w = seal_and_start(rumor, author_sk, recipient_pubkey_hex, now, rnd);
  if (!w) return w.err();
  auto done = w->step(max_iterations);
  if (!done) return done.err();
  if (!*done) return make_error(errc::pow_exhausted, "no nonce met the target within max_iterations");
  return w->finish();
}

result<void> check_publishable(const event& e, std::int64_t now) {
  if (e.kind == kMessageKind || e.kind == kReceiptKind)
    return make_error(errc::invalid_argument, "an AGX rumor is never published bare: seal and wrap it");
  if (e.kind == kSealKind) return make_error(errc::invalid_argument, "a seal is never published on its own");
  if (e.kind == kGiftWrapKind) {
    auto ok = relay_accepts(e, now);
    if (!ok) return make_error(errc::invalid_argument, "not a conforming AGX wrap: " + ok.err().detail);
  }
  return {};
}

}  // namespace nostr::agx
