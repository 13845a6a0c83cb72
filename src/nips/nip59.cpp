#include "nips/nip59.hpp"

#include "crypto/hash.hpp"
#include "event/event_reader.hpp"
#include "nips/nip44.hpp"
#include "util/hex.hpp"
#include "util/utf8.hpp"

namespace nostr::nip59 {
namespace {

error rumor_error(std::string detail) { return make_error(errc::nip59_invalid_rumor, std::move(detail)); }

bool has_p_tag(const tag_list& tags, std::string_view pubkey_hex) {
  for (const auto& t : tags)
    if (t.size() >= 2 && t[0] == "p" && t[1] == pubkey_hex) return true;
  return false;
}

// validate_shape's rules minus the sig, which a rumor does not have.
bool unsigned_shape_ok(const event& e) {
  return hex::is_lower_hex(e.id, 32) && hex::is_lower_hex(e.pubkey, 32) && e.kind >= 0 && e.kind <= 65535 &&
         e.created_at >= 0;
}

bool parse_pubkey(std::string_view hex_text, bytes32& out) {
  return hex::is_lower_hex(hex_text, 32) && hex::decode_to(hex_text, out.data(), 32);
}

}  // namespace

std::int64_t random_past(std::int64_t now, std::uint64_t random) {
  if (now <= 0) return 0;
  auto r = static_cast<std::int64_t>(random % static_cast<std::uint64_t>(kMaxTimestampTweak + 1));
  return r > now ? 0 : now - r;
}

wrap_randomness::~wrap_randomness() {
  secure_zero(wrap_secret);
  secure_zero(seal_nonce);
  secure_zero(wrap_nonce);
  secure_zero(seal_aux);
  secure_zero(wrap_aux);
  secure_zero(&seal_tweak, sizeof seal_tweak);
  secure_zero(&wrap_tweak, sizeof wrap_tweak);
}

// --- Rumor

std::string rumor_to_json(const event& rumor) {
  // to_json ends with ,"sig":""} for an empty sig; a rumor carries no sig at all (NIP-59 "Rumor").
  static constexpr std::string_view kEmptySig = ",\"sig\":\"\"}";
  if (!rumor.sig.empty()) {
    event copy = rumor;
    copy.sig.clear();
    return rumor_to_json(copy);
  }
  std::string out = to_json(rumor);
  out.resize(out.size() - kEmptySig.size());
  out.push_back('}');
  return out;
}

result<event> parse_rumor(std::string_view json) {
  auto e = read_event(json, /*require_sig=*/false);
  if (!e) return rumor_error("rumor: " + e.err().detail);
  if (!unsigned_shape_ok(*e)) return rumor_error("rumor id, pubkey, kind or created_at out of range");
  return e;
}

static bool text_is_utf8(const event& e) {
  if (!utf8::valid(e.content)) return false;
  for (const auto& t : e.tags)
    for (const auto& v : t)
      if (!utf8::valid(v)) return false;
  return true;
}

result<void> check_rumor(const event& rumor, std::string_view author_pubkey_hex) {
  if (!unsigned_shape_ok(rumor)) return rumor_error("rumor id, pubkey, kind or created_at out of range");
  if (rumor.pubkey != author_pubkey_hex)
    return make_error(errc::nip59_author_mismatch, "rumor pubkey differs from the seal's author");
  if (compute_id_hex(rumor) != rumor.id)
    return make_error(errc::nip59_rumor_id_mismatch, "rumor id is not the hash of the rumor");
  return {};
}

// --- Seal

event_template seal_template(std::string sealed_content, std::int64_t created_at) {
  event_template t;
  t.kind = kSealKind;
  t.created_at = created_at;
  t.content = std::move(sealed_content);  // NIP-59 "Seal": tags MUST be empty
  return t;
}

result<event> create_seal(const event& rumor, const crypto::keypair& author, const bytes32& conversation_key,
                          const bytes32& nonce, const bytes32& aux, std::int64_t created_at) {
  if (created_at < 0) return make_error(errc::invalid_argument, "created_at must be non-negative");
  NOSTR_TRY(check_rumor(rumor, hex::encode(author.public_key())));
  // The recipient's parse_rumor refuses text that is not UTF-8 (JSON is UTF-8): refuse it here
  // rather than send a wrap nobody can open (found by tests/fuzz/nip59_unwrap).
  if (!text_is_utf8(rumor)) return rumor_error("rumor content or tags are not UTF-8");
  auto content = nip44::encrypt(rumor_to_json(rumor), conversation_key, nonce);
  if (!content) return content.err();
  return finalize(seal_template(std::move(*content), created_at), author, aux);
}

result<void> check_seal(const event& seal) {
  if (seal.kind != kSealKind) return make_error(errc::nip59_invalid_seal, "seal must be kind 13");
  if (!validate_shape(seal)) return make_error(errc::nip59_invalid_seal, "seal fields are malformed");
  if (!verify(seal)) return make_error(errc::nip59_seal_signature, "seal id or signature does not verify");
  return {};
}

result<event> parse_seal(std::string_view json) {
  auto seal = read_event(json);
  if (!seal) return make_error(errc::nip59_invalid_seal, "seal is not a JSON event");
  NOSTR_TRY(check_seal(*seal));
  return seal;
}

// --- Wrap

result<event> create_wrap(const event& seal, std::string_view recipient_pubkey_hex, const crypto::keypair& wrap_key,
                          const bytes32& conversation_key, const bytes32& nonce, const bytes32& aux,
                          std::int64_t created_at, const tag_list& extra_tags) {
  bytes32 recipient{};
  if (!parse_pubkey(recipient_pubkey_hex, recipient))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters");
  if (created_at < 0) return make_error(errc::invalid_argument, "created_at must be non-negative");
  if (seal.kind != kSealKind) return make_error(errc::nip59_invalid_seal, "seal must be kind 13");
  if (!validate_shape(seal)) return make_error(errc::nip59_invalid_seal, "seal fields are malformed");
  auto content = nip44::encrypt(to_json(seal), conversation_key, nonce);
  if (!content) return content.err();
  event_template t;
  t.kind = kGiftWrapKind;
  t.created_at = created_at;
  t.content = std::move(*content);
  t.tags.reserve(1 + extra_tags.size());
  t.tags.push_back({"p", std::string(recipient_pubkey_hex)});
  t.tags.insert(t.tags.end(), extra_tags.begin(), extra_tags.end());
  return finalize(t, wrap_key, aux);
}

result<void> check_wrap(const event& wrap, bool verify_signature) {
  if (wrap.kind != kGiftWrapKind) return make_error(errc::nip59_not_gift_wrap, "gift wrap must be kind 1059");
  return verify_signature ? verify(wrap) : validate_shape(wrap);
}

// --- All-local paths

result<event> wrap(const event& rumor, const crypto::keypair& author, const bytes32& seal_conversation_key,
                   std::string_view recipient_pubkey_hex, std::int64_t now, const wrap_randomness& rnd,
                   const tag_list& extra_tags) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  bytes32 recipient{};
  if (!parse_pubkey(recipient_pubkey_hex, recipient))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters");
  auto wrap_key = crypto::keypair::from_secret(rnd.wrap_secret);
  if (!wrap_key) return wrap_key.err();
  // Derive the one-time conversation key first: an off-curve recipient fails before any signing.
  auto wrap_ck = nip44::get_conversation_key(rnd.wrap_secret, recipient);
  if (!wrap_ck) return wrap_ck.err();
  secret32 wrap_conv(*wrap_ck);
  secure_zero(*wrap_ck);
  auto seal = create_seal(rumor, author, seal_conversation_key, rnd.seal_nonce, rnd.seal_aux,
                          random_past(now, rnd.seal_tweak));
  if (!seal) return seal.err();
  return create_wrap(*seal, recipient_pubkey_hex, *wrap_key, wrap_conv.b, rnd.wrap_nonce, rnd.wrap_aux,
                     random_past(now, rnd.wrap_tweak), extra_tags);
}

result<event> wrap(const event& rumor, const bytes32& author_sk, std::string_view recipient_pubkey_hex,
                   std::int64_t now, const wrap_randomness& rnd, const tag_list& extra_tags) {
  bytes32 recipient{};
  if (!parse_pubkey(recipient_pubkey_hex, recipient))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters");
  auto author = crypto::keypair::from_secret_remembered(author_sk);
  if (!author) return author.err();
  auto ck = nip44::get_conversation_key(author_sk, recipient);
  if (!ck) return ck.err();
  secret32 seal_conv(*ck);
  secure_zero(*ck);
  return wrap(rumor, *author, seal_conv.b, recipient_pubkey_hex, now, rnd, extra_tags);
}

result<event> open_checked_wrap(const event& wrap, const bytes32& conversation_key) {
  auto seal_json = nip44::decrypt(wrap.content, conversation_key);
  if (!seal_json) return seal_json.err();
  return parse_seal(*seal_json);
}

result<event> open_wrap(const event& wrap, const bytes32& conversation_key) {
  NOSTR_TRY(check_wrap(wrap));
  return open_checked_wrap(wrap, conversation_key);
}

result<event> open_rumor(std::string_view rumor_json, const event& seal, std::string_view recipient_pubkey_hex,
                         const unwrap_options& options) {
  auto rumor = parse_rumor(rumor_json);
  if (!rumor) return rumor.err();
  NOSTR_TRY(check_rumor(*rumor, seal.pubkey));
  if (options.require_recipient_tag && !has_p_tag(rumor->tags, recipient_pubkey_hex))
    return make_error(errc::nip59_not_for_recipient, "rumor does not p-tag the recipient");
  return rumor;
}

result<event> open_seal(const event& seal, const bytes32& conversation_key, std::string_view recipient_pubkey_hex,
                        const unwrap_options& options) {
  auto rumor_json = nip44::decrypt(seal.content, conversation_key);
  if (!rumor_json) return rumor_json.err();
  return open_rumor(*rumor_json, seal, recipient_pubkey_hex, options);
}

result<unwrapped> unwrap(const event& wrap, const conversation_key_fn& conversation_key,
                         std::string_view recipient_pubkey_hex, const unwrap_options& options) {
  NOSTR_TRY(check_wrap(wrap, options.verify_wrap_signature));
  bytes32 peer{};
  (void)hex::decode_to(wrap.pubkey, peer.data(), 32);  // shape checked by check_wrap
  auto ck = conversation_key(peer);
  if (!ck) return ck.err();
  secret32 wrap_conv(*ck);
  secure_zero(*ck);
  auto seal = open_checked_wrap(wrap, wrap_conv.b);
  if (!seal) return seal.err();

  (void)hex::decode_to(seal->pubkey, peer.data(), 32);  // shape checked by parse_seal
  auto ck2 = conversation_key(peer);
  if (!ck2) return ck2.err();
  secret32 seal_conv(*ck2);
  secure_zero(*ck2);
  auto rumor = open_seal(*seal, seal_conv.b, recipient_pubkey_hex, options);
  if (!rumor) return rumor.err();
  return unwrapped{std::move(*rumor), std::move(*seal)};
}

result<unwrapped> unwrap(const event& wrap, const bytes32& recipient_sk, const unwrap_options& options) {
  if (!crypto::secret_key_valid(recipient_sk))
    return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
  std::string me;  // only the recipient-tag check needs our pubkey (one more point multiplication)
  if (options.require_recipient_tag) {
    auto kp = crypto::keypair::from_secret_remembered(recipient_sk);  // a recipient's key recurs
    if (!kp) return kp.err();
    me = hex::encode(kp->public_key());
  }
  return unwrap(
      wrap, [&](const bytes32& peer) { return nip44::get_conversation_key(recipient_sk, peer); }, me, options);
}

}  // namespace nostr::nip59
