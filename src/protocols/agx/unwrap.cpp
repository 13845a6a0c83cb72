#include "protocols/agx/unwrap.hpp"

#include "crypto/secp256k1.hpp"
#include "nips/nip13.hpp"
#include "nips/nip40.hpp"
#include "nips/nip44.hpp"
#include "protocols/agx/constants.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

std::int64_t expiration_of(const event& wrap) {
  auto exp = nip40::get_expiration(wrap.tags);
  return exp && *exp ? **exp : 0;
}

result<void> check_rumor_kind(const event& rumor) {
  if (rumor.kind != kMessageKind && rumor.kind != kReceiptKind)
    return make_error(errc::agx_rumor_kind, "rumor kind is not 3838 or 3839");
  return {};
}

// Everything check_wrap verifies that does not depend on who we are, without the signature.
// me_hex empty: any single p tag is accepted.
result<void> public_rules(const event& wrap, std::string_view me_hex, std::int64_t now) {
  // SPEC.md "Transport envelope": exactly one p tag, the recipient.
  const tag* p = nullptr;
  std::size_t p_count = 0;
  for (const auto& t : wrap.tags) {
    if (t.empty() || t[0] != "p") continue;
    ++p_count;
    p = &t;
  }
  if (p_count != 1) return make_error(errc::agx_wrap_p_tag, "a wrap carries exactly one p tag");
  if (p->size() < 2 || (!me_hex.empty() && (*p)[1] != me_hex))
    return make_error(errc::agx_wrap_not_for_us, "the wrap is not addressed to us");

  // SPEC.md "Cursor advance": sender-declared time beyond the skew is skipped, not trusted.
  if (wrap.created_at > now + kMaxFutureSkew) return make_error(errc::agx_wrap_future, "wrap created_at is in the future");

  // SPEC.md "Retention": an expiration is required; an expired wrap is ignored.
  auto exp = nip40::get_expiration(wrap.tags);
  if (!exp || !*exp) return make_error(errc::agx_wrap_no_expiration, "wrap expiration missing or malformed");
  if (nip40::is_expired(**exp, now)) return make_error(errc::agx_wrap_expired, "wrap has expired");
  // A conforming wrap expires at most kWrapTtl after a created_at no later than the sender's now;
  // beyond the 31-day cap (plus the clock skew we tolerate) it is not one.
  if (**exp > now + kMaxExpiration + kMaxFutureSkew)
    return make_error(errc::agx_wrap_expiration_too_far, "wrap expiration is beyond the 31-day cap");

  // SPEC.md "Anti-spam": the id has >= 12 leading zero bits and the nonce tag commits to >= 12.
  auto pow = nip13::check_pow(wrap, kPowBits, /*require_commitment=*/true);
  if (!pow || !*pow) return make_error(errc::agx_wrap_pow, "wrap proof of work is below 12 bits or not committed");
  return {};
}

}  // namespace

result<void> check_wrap(const event& wrap, std::string_view me_hex, std::int64_t now, bool verify_signature) {
  if (wrap.kind != kGiftWrapKind) return make_error(errc::nip59_not_gift_wrap, "gift wrap must be kind 1059");
  NOSTR_TRY(validate_shape(wrap));
  if (me_hex.empty()) return make_error(errc::invalid_argument, "our pubkey is required");
  NOSTR_TRY(public_rules(wrap, me_hex, now));
  // Last, the signature (the one public check that costs a verification), unless the layer that
  // delivered the wrap verified it already (the pool's feed): checked once.
  return nip59::check_wrap(wrap, verify_signature);
}

result<void> relay_accepts(const event& e, std::int64_t now) {
  if (e.kind != kGiftWrapKind) return {};
  return public_rules(e, {}, now);
}

result<event> open_seal_json(std::string_view seal_json) { return nip59::parse_seal(seal_json); }

result<opened_wrap> open_rumor_json(const event& wrap, const event& seal, std::string_view rumor_json,
                                    std::string_view me_hex) {
  nip59::unwrap_options opts;
  opts.require_recipient_tag = true;
  auto rumor = nip59::open_rumor(rumor_json, seal, me_hex, opts);
  if (!rumor) return rumor.err();
  NOSTR_TRY(check_rumor_kind(*rumor));
  opened_wrap out;
  out.from = seal.pubkey;
  out.rumor = std::move(*rumor);
  out.wrap_id = wrap.id;
  out.wrap_created_at = wrap.created_at;
  out.wrap_expires_at = expiration_of(wrap);
  return out;
}

result<opened_wrap> unwrap_checked(const event& wrap, const nip59::conversation_key_fn& conversation_key,
                                   std::string_view me_hex) {
  nip59::unwrap_options opts;
  opts.require_recipient_tag = true;
  auto u = nip59::unwrap(wrap, conversation_key, me_hex, opts);
  if (!u) return u.err();
  NOSTR_TRY(check_rumor_kind(u->rumor));
  opened_wrap out;
  out.from = u->seal.pubkey;
  out.rumor = std::move(u->rumor);
  out.wrap_id = wrap.id;
  out.wrap_created_at = wrap.created_at;
  out.wrap_expires_at = expiration_of(wrap);
  return out;
}

result<opened_wrap> unwrap(const event& wrap, const nip59::conversation_key_fn& conversation_key,
                           std::string_view me_hex, std::int64_t now) {
  NOSTR_TRY(check_wrap(wrap, me_hex, now));
  return unwrap_checked(wrap, conversation_key, me_hex);
}

result<opened_wrap> unwrap(const event& wrap, const bytes32& recipient_sk, std::int64_t now) {
  auto pub = crypto::xonly_public_key(recipient_sk);
  if (!pub) return pub.err();
  std::string me = hex::encode(*pub);
  return unwrap(
      wrap, [&](const bytes32& peer) { return nip44::get_conversation_key(recipient_sk, peer); }, me, now);
}

disposition disposition_of(errc code, unwrap_stage stage) {
  switch (code) {
    case errc::agx_wrap_future:   // re-polled once it is no longer ahead
    case errc::invalid_secret_key:  // our key, not the wrap
    case errc::invalid_argument:
    case errc::internal:
      return disposition::retry_later;
    default:
      return stage == unwrap_stage::public_checks ? disposition::ignore : disposition::discard;
  }
}

}  // namespace nostr::agx
