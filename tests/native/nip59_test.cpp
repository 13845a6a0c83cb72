#include <gtest/gtest.h>

#include <cstring>

#include "crypto/hash.hpp"
#include "event/event_json.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "test_support.hpp"
#include "util/hex.hpp"

using namespace nostr;

namespace {

constexpr std::int64_t kNow = 1700000000;

// Deterministic stand-in for a CSPRNG: sha256(seed || counter).
struct test_rng {
  std::uint64_t seed;
  std::uint64_t counter = 0;
  bytes32 next32() {
    std::uint8_t in[16];
    std::memcpy(in, &seed, 8);
    std::memcpy(in + 8, &counter, 8);
    ++counter;
    return crypto::sha256(in, sizeof in);
  }
  std::uint64_t next64() {
    bytes32 b = next32();
    std::uint64_t v;
    std::memcpy(&v, b.data(), 8);
    return v;
  }
  bytes32 next_key() {
    for (;;) {
      bytes32 k = next32();
      if (crypto::secret_key_valid(k)) return k;
    }
  }
  void fill(nip59::wrap_randomness& r) {
    r.wrap_secret = next_key();
    r.seal_nonce = next32();
    r.wrap_nonce = next32();
    r.seal_aux = next32();
    r.wrap_aux = next32();
    r.seal_tweak = next64();
    r.wrap_tweak = next64();
  }
};

bytes32 key_from_hex(std::string_view h) { return *hex::decode32(h); }
std::string pub_hex(const bytes32& sk) { return hex::encode(*crypto::xonly_public_key(sk)); }
bytes32 pub_of(const bytes32& sk) { return *crypto::xonly_public_key(sk); }

event_template note(std::string content, tag_list tags = {}) {
  event_template t;
  t.created_at = kNow - 5;
  t.kind = 14;
  t.tags = std::move(tags);
  t.content = std::move(content);
  return t;
}

// A party with a key; conversation keys computed on demand.
struct party {
  bytes32 sk;
  std::string pub;
  explicit party(const bytes32& k) : sk(k), pub(pub_hex(k)) {}
  bytes32 ck(const std::string& peer_hex) const { return *nip44::get_conversation_key(sk, key_from_hex(peer_hex)); }
  crypto::keypair kp() const { return *crypto::keypair::from_secret(sk); }
};

// Builds a wrap around arbitrary seal JSON text (for crafting malformed seals).
event wrap_raw_seal(const std::string& seal_json, const party& recipient, test_rng& rng) {
  party one_time(rng.next_key());
  auto content = nip44::encrypt(seal_json, one_time.ck(recipient.pub), rng.next32());
  EXPECT_TRUE(content.ok());
  event_template t;
  t.kind = nip59::kGiftWrapKind;
  t.created_at = kNow;
  t.tags = {{"p", recipient.pub}};
  t.content = *content;
  return finalize(t, one_time.kp(), rng.next32());
}

// A correctly signed seal around arbitrary rumor JSON text (for crafting malformed rumors).
event seal_raw_rumor(const std::string& rumor_json, const party& author, const party& recipient, test_rng& rng) {
  auto content = nip44::encrypt(rumor_json, author.ck(recipient.pub), rng.next32());
  EXPECT_TRUE(content.ok());
  return finalize(nip59::seal_template(*content, kNow), author.kp(), rng.next32());
}

event wrap_seal(const event& seal, const party& recipient, test_rng& rng) { return wrap_raw_seal(to_json(seal), recipient, rng); }

errc unwrap_code(const event& wrap, const party& recipient, nip59::unwrap_options o = {}) {
  auto r = nip59::unwrap(wrap, recipient.sk, o);
  if (!r.ok()) {
    EXPECT_EQ(r.err().detail.find(hex::encode(recipient.sk)), std::string::npos) << "secret in error detail";
  }
  return r.code();
}

}  // namespace

TEST(nip59_test, spec_chain_decrypts_to_the_given_seal_and_rumor) {
  auto v = test::load_vector_json("nips-spec-examples.json");
  ASSERT_FALSE(v.is_discarded());
  const auto& c = v["nip59"];
  bytes32 author_sk = key_from_hex(c["author_sk"].get<std::string>());
  bytes32 recipient_sk = key_from_hex(c["recipient_sk"].get<std::string>());
  bytes32 wrapper_sk = key_from_hex(c["wrapper_sk"].get<std::string>());
  auto wrap = parse_event(c["wrap"].dump());
  auto seal = parse_event(c["seal"].dump());
  ASSERT_TRUE(wrap.ok() && seal.ok());
  const auto& rumor = c["rumor"];

  // The keys given are the ones the events name.
  EXPECT_EQ(pub_hex(author_sk), rumor["pubkey"].get<std::string>());
  EXPECT_EQ(pub_hex(author_sk), seal->pubkey);
  EXPECT_EQ(pub_hex(wrapper_sk), wrap->pubkey);
  ASSERT_EQ(wrap->tags.size(), 1u);
  EXPECT_EQ(wrap->tags[0], (tag{"p", pub_hex(recipient_sk)}));

  auto out = nip59::unwrap(*wrap, recipient_sk);
  ASSERT_TRUE(out.ok()) << out.err().detail;
  EXPECT_EQ(to_json(out->seal), to_json(*seal));
  EXPECT_TRUE(out->seal.tags.empty());
  EXPECT_EQ(out->rumor.id, rumor["id"].get<std::string>());
  EXPECT_EQ(out->rumor.pubkey, rumor["pubkey"].get<std::string>());
  EXPECT_EQ(out->rumor.created_at, rumor["created_at"].get<std::int64_t>());
  EXPECT_EQ(out->rumor.kind, rumor["kind"].get<std::int64_t>());
  EXPECT_EQ(out->rumor.content, rumor["content"].get<std::string>());
  EXPECT_TRUE(out->rumor.tags.empty());
  EXPECT_TRUE(out->rumor.sig.empty());

  // The same chain step by step, as a signer-driven unwrap does it.
  auto ck_wrap = nip44::get_conversation_key(recipient_sk, pub_of(wrapper_sk));
  ASSERT_TRUE(ck_wrap.ok());
  auto seal2 = nip59::open_wrap(*wrap, *ck_wrap);
  ASSERT_TRUE(seal2.ok()) << seal2.err().detail;
  EXPECT_EQ(seal2->id, seal->id);
  // The sender can open its own seal too: the conversation key is symmetric.
  auto ck_seal = nip44::get_conversation_key(author_sk, pub_of(recipient_sk));
  auto rumor2 = nip59::open_seal(*seal2, *ck_seal, pub_hex(recipient_sk));
  ASSERT_TRUE(rumor2.ok()) << rumor2.err().detail;
  EXPECT_EQ(rumor2->id, out->rumor.id);
  // The spec rumor does not p-tag the recipient, so the NIP-17-style check refuses it.
  EXPECT_EQ(nip59::unwrap(*wrap, recipient_sk, {true}).code(), errc::nip59_not_for_recipient);
  // Someone else's key cannot open it.
  EXPECT_EQ(nip59::unwrap(*wrap, author_sk).code(), errc::nip44_invalid_mac);
}

TEST(nip59_test, wrap_unwrap_round_trip) {
  test_rng rng{1};
  for (int i = 0; i < 40; ++i) {
    party author(rng.next_key()), recipient(rng.next_key());
    std::string content = "msg " + std::to_string(i) + " \"quoted\" \\ \n\t\x01 \xc3\xa9 \xf0\x9f\x92\x9c";
    content.append(static_cast<std::size_t>(i * 37), 'x');
    tag_list tags = {{"p", recipient.pub}, {"subject", "s" + std::to_string(i)}};
    if (i % 3 == 0) tags.push_back({"e", std::string(64, 'a'), "", "reply"});
    event rumor = nip59::create_rumor(note(content, tags), author.pub);
    tag_list extra;
    if (i % 2) extra = {{"expiration", std::to_string(kNow + 3600)}, {"nonce", std::to_string(i)}};

    nip59::wrap_randomness rnd;
    rng.fill(rnd);
    auto w = nip59::wrap(rumor, author.sk, recipient.pub, kNow, rnd, extra);
    ASSERT_TRUE(w.ok()) << w.err().detail;

    EXPECT_EQ(w->kind, 1059);
    EXPECT_TRUE(verify(*w).ok());
    EXPECT_EQ(w->pubkey, pub_hex(rnd.wrap_secret));
    EXPECT_NE(w->pubkey, author.pub);
    ASSERT_EQ(w->tags.size(), 1 + extra.size());
    EXPECT_EQ(w->tags[0], (tag{"p", recipient.pub}));
    for (std::size_t k = 0; k < extra.size(); ++k) EXPECT_EQ(w->tags[1 + k], extra[k]);
    EXPECT_LE(w->created_at, kNow);
    EXPECT_GE(w->created_at, kNow - nip59::kMaxTimestampTweak);

    auto out = nip59::unwrap(*w, recipient.sk, {true});
    ASSERT_TRUE(out.ok()) << out.err().detail;
    EXPECT_EQ(to_json(out->rumor), to_json(rumor));
    EXPECT_EQ(out->seal.kind, 13);
    EXPECT_TRUE(out->seal.tags.empty());
    EXPECT_EQ(out->seal.pubkey, author.pub);
    EXPECT_LE(out->seal.created_at, kNow);
    EXPECT_GE(out->seal.created_at, kNow - nip59::kMaxTimestampTweak);
    // The rumor inside the seal is serialized without any sig field.
    auto ck = author.ck(recipient.pub);
    auto rumor_json = nip44::decrypt(out->seal.content, ck);
    ASSERT_TRUE(rumor_json.ok());
    EXPECT_EQ(*rumor_json, nip59::rumor_to_json(rumor));
    EXPECT_EQ(rumor_json->find("\"sig\""), std::string::npos);
  }
}

TEST(nip59_test, random_past_is_never_in_the_future_and_within_two_days) {
  EXPECT_EQ(nip59::random_past(kNow, 0), kNow);
  EXPECT_EQ(nip59::random_past(kNow, nip59::kMaxTimestampTweak), kNow - nip59::kMaxTimestampTweak);
  EXPECT_EQ(nip59::random_past(kNow, nip59::kMaxTimestampTweak + 1), kNow);
  EXPECT_EQ(nip59::random_past(kNow, UINT64_MAX), kNow - static_cast<std::int64_t>(UINT64_MAX % 172801));
  EXPECT_EQ(nip59::random_past(100, nip59::kMaxTimestampTweak), 0);  // clamped, never negative
  EXPECT_EQ(nip59::random_past(0, 12345), 0);
  EXPECT_EQ(nip59::random_past(-5, 1), 0);
  test_rng rng{2};
  std::int64_t lo = kNow, hi = 0;
  for (int i = 0; i < 20000; ++i) {
    std::int64_t t = nip59::random_past(kNow, rng.next64());
    ASSERT_LE(t, kNow);
    ASSERT_GE(t, kNow - nip59::kMaxTimestampTweak);
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  // Spread over (nearly) the whole window, not stuck at one end.
  EXPECT_LT(lo, kNow - nip59::kMaxTimestampTweak + 100);
  EXPECT_GT(hi, kNow - 100);
}

TEST(nip59_test, rumor_json_has_no_sig_and_parses_back) {
  event r = nip59::create_rumor(note("hi \"there\"", {{"p", std::string(64, 'b')}}), std::string(64, 'c'));
  EXPECT_TRUE(r.sig.empty());
  EXPECT_EQ(r.id, compute_id_hex(r));
  std::string j = nip59::rumor_to_json(r);
  EXPECT_EQ(j.find("sig"), std::string::npos);
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  auto back = nip59::parse_rumor(j);
  ASSERT_TRUE(back.ok()) << back.err().detail;
  EXPECT_EQ(to_json(*back), to_json(r));
  // A rumor object that happens to hold a sig still serializes without one.
  event signed_copy = r;
  signed_copy.sig = std::string(128, 'd');
  EXPECT_EQ(nip59::rumor_to_json(signed_copy), j);
  // A sig in received rumor JSON is ignored, not kept.
  auto with_sig = nip59::parse_rumor(to_json(signed_copy));
  ASSERT_TRUE(with_sig.ok());
  EXPECT_TRUE(with_sig->sig.empty());
}

TEST(nip59_test, parse_rumor_rejects_malformed_json) {
  std::string id(64, 'a'), pk(64, 'b');
  auto obj = [&](const std::string& fields) { return "{" + fields + "}"; };
  std::string good = "\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\"";
  ASSERT_TRUE(nip59::parse_rumor(obj(good)).ok());
  const std::string bad[] = {
      "",
      "{",
      "[]",
      "\"x\"",
      obj("\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[]"),
      obj("\"id\":\"" + std::string(64, 'A') + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk.substr(2) + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":-1,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1.5,\"kind\":1,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":65536,\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":\"1\",\"tags\":[],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[[1]],\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":{},\"content\":\"\""),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":null"),
      obj("\"id\":\"" + id + "\",\"pubkey\":\"" + pk + "\",\"created_at\":18446744073709551615,\"kind\":1,\"tags\":[],\"content\":\"\""),
  };
  for (const auto& b : bad) EXPECT_EQ(nip59::parse_rumor(b).code(), errc::nip59_invalid_rumor) << b;
}

TEST(nip59_test, every_unwrap_failure_has_its_code) {
  test_rng rng{3};
  party author(rng.next_key()), recipient(rng.next_key()), other(rng.next_key());
  event rumor = nip59::create_rumor(note("hello", {{"p", recipient.pub}}), author.pub);
  nip59::wrap_randomness rnd;
  rng.fill(rnd);
  auto good = nip59::wrap(rumor, author.sk, recipient.pub, kNow, rnd);
  ASSERT_TRUE(good.ok());
  ASSERT_EQ(unwrap_code(*good, recipient), errc::ok);

  // Not a gift wrap: a valid event of another kind.
  event not_wrap = *good;
  not_wrap.kind = 1;
  not_wrap = finalize({not_wrap.created_at, 1, not_wrap.tags, not_wrap.content}, other.kp(), rng.next32());
  EXPECT_EQ(unwrap_code(not_wrap, recipient), errc::nip59_not_gift_wrap);

  // The wrap itself must be a valid event: NIP-01's codes pass through.
  event tampered = *good;
  tampered.content[10] = tampered.content[10] == 'A' ? 'B' : 'A';
  nip59::unwrap_options verify_wrap;
  verify_wrap.verify_wrap_signature = true;
  EXPECT_EQ(unwrap_code(tampered, recipient, verify_wrap), errc::id_mismatch);
  // By default the wrap's own id and signature are not checked; its content still is (MAC).
  EXPECT_EQ(unwrap_code(tampered, recipient), errc::nip44_invalid_mac);
  event bad_sig = *good;
  bad_sig.sig[0] = bad_sig.sig[0] == '0' ? '1' : '0';
  EXPECT_EQ(unwrap_code(bad_sig, recipient, verify_wrap), errc::invalid_signature);
  EXPECT_EQ(unwrap_code(bad_sig, recipient), errc::ok);
  event bad_shape = *good;
  bad_shape.pubkey = "xyz";
  EXPECT_EQ(unwrap_code(bad_shape, recipient), errc::invalid_event);

  // Decryption failures come from NIP-44.
  EXPECT_EQ(unwrap_code(*good, other), errc::nip44_invalid_mac);
  {
    event_template t{kNow, nip59::kGiftWrapKind, {{"p", recipient.pub}}, "not base64 at all"};
    auto code = unwrap_code(finalize(t, other.kp(), rng.next32()), recipient);
    EXPECT_NE(code, errc::ok);
    EXPECT_EQ(std::string(errc_name(code)).rfind("NIP59_", 0), std::string::npos) << errc_name(code);
  }

  // The seal: not JSON, not an event, wrong kind, bad signature.
  EXPECT_EQ(unwrap_code(wrap_raw_seal("not json", recipient, rng), recipient), errc::nip59_invalid_seal);
  EXPECT_EQ(unwrap_code(wrap_raw_seal("[1,2,3]", recipient, rng), recipient), errc::nip59_invalid_seal);
  event seal = seal_raw_rumor(nip59::rumor_to_json(rumor), author, recipient, rng);
  ASSERT_EQ(unwrap_code(wrap_seal(seal, recipient, rng), recipient), errc::ok);
  {
    std::string no_sig = nip59::rumor_to_json(seal);  // a seal missing its sig
    EXPECT_EQ(unwrap_code(wrap_raw_seal(no_sig, recipient, rng), recipient), errc::nip59_invalid_seal);
  }
  {
    event_template t{kNow, 1, {}, seal.content};  // right content, wrong kind, validly signed
    EXPECT_EQ(unwrap_code(wrap_seal(finalize(t, author.kp(), rng.next32()), recipient, rng), recipient),
              errc::nip59_invalid_seal);
  }
  {
    event s = seal;
    s.created_at += 1;  // id no longer matches
    EXPECT_EQ(unwrap_code(wrap_seal(s, recipient, rng), recipient), errc::nip59_seal_signature);
    s = seal;
    s.sig[5] = s.sig[5] == 'f' ? 'e' : 'f';
    EXPECT_EQ(unwrap_code(wrap_seal(s, recipient, rng), recipient), errc::nip59_seal_signature);
    s = seal;
    s.sig = std::string(128, 'Z');
    EXPECT_EQ(unwrap_code(wrap_seal(s, recipient, rng), recipient), errc::nip59_invalid_seal);
  }

  // The rumor: malformed, another author, wrong id, not for us.
  auto wrap_rumor_json = [&](const std::string& j) {
    return wrap_seal(seal_raw_rumor(j, author, recipient, rng), recipient, rng);
  };
  EXPECT_EQ(unwrap_code(wrap_rumor_json("{}"), recipient), errc::nip59_invalid_rumor);
  EXPECT_EQ(unwrap_code(wrap_rumor_json("nope"), recipient), errc::nip59_invalid_rumor);
  event impostor = nip59::create_rumor(note("hello", {{"p", recipient.pub}}), other.pub);
  EXPECT_EQ(unwrap_code(wrap_rumor_json(nip59::rumor_to_json(impostor)), recipient), errc::nip59_author_mismatch);
  event wrong_id = rumor;
  wrong_id.content = "edited after hashing";
  EXPECT_EQ(unwrap_code(wrap_rumor_json(nip59::rumor_to_json(wrong_id)), recipient), errc::nip59_rumor_id_mismatch);
  event untagged = nip59::create_rumor(note("hello", {{"p", other.pub}}), author.pub);
  event untagged_wrap = wrap_rumor_json(nip59::rumor_to_json(untagged));
  EXPECT_EQ(unwrap_code(untagged_wrap, recipient), errc::ok);  // the check is opt-in
  EXPECT_EQ(unwrap_code(untagged_wrap, recipient, {true}), errc::nip59_not_for_recipient);

  // A bad recipient key is the caller's error.
  EXPECT_EQ(nip59::unwrap(*good, bytes32{}).code(), errc::invalid_secret_key);
}

TEST(nip59_test, creation_rejects_misuse) {
  test_rng rng{4};
  party author(rng.next_key()), recipient(rng.next_key()), other(rng.next_key());
  event rumor = nip59::create_rumor(note("x"), author.pub);
  nip59::wrap_randomness rnd;
  rng.fill(rnd);
  EXPECT_TRUE(nip59::wrap(rumor, author.sk, recipient.pub, kNow, rnd).ok());
  EXPECT_EQ(nip59::wrap(rumor, author.sk, recipient.pub, -1, rnd).code(), errc::invalid_argument);
  EXPECT_EQ(nip59::wrap(rumor, author.sk, "abc", kNow, rnd).code(), errc::invalid_public_key);
  std::string upper = recipient.pub;
  for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (upper != recipient.pub) EXPECT_EQ(nip59::wrap(rumor, author.sk, upper, kNow, rnd).code(), errc::invalid_public_key);
  EXPECT_EQ(nip59::wrap(rumor, bytes32{}, recipient.pub, kNow, rnd).code(), errc::invalid_secret_key);
  // A rumor of another author, or one edited after its id was computed, is refused up front.
  EXPECT_EQ(nip59::wrap(nip59::create_rumor(note("x"), other.pub), author.sk, recipient.pub, kNow, rnd).code(),
            errc::nip59_author_mismatch);
  event edited = rumor;
  edited.kind = 15;
  EXPECT_EQ(nip59::wrap(edited, author.sk, recipient.pub, kNow, rnd).code(), errc::nip59_rumor_id_mismatch);
  event malformed = rumor;
  malformed.id = "short";
  EXPECT_EQ(nip59::wrap(malformed, author.sk, recipient.pub, kNow, rnd).code(), errc::nip59_invalid_rumor);
  // An unusable one-time key is reported, not silently replaced.
  nip59::wrap_randomness zero_key;
  rng.fill(zero_key);
  zero_key.wrap_secret = bytes32{};
  EXPECT_EQ(nip59::wrap(rumor, author.sk, recipient.pub, kNow, zero_key).code(), errc::invalid_secret_key);
  // A recipient that is not on the curve fails in NIP-44's key derivation, before anything is signed.
  bytes32 off_curve{};
  off_curve[31] = 5;  // x = 5 is not on secp256k1
  EXPECT_FALSE(crypto::xonly_public_key_valid(off_curve));
  EXPECT_NE(nip59::wrap(rumor, author.sk, hex::encode(off_curve), kNow, rnd).code(), errc::ok);

  // create_wrap only wraps seals.
  auto seal = nip59::create_seal(rumor, author.kp(), author.ck(recipient.pub), rng.next32(), rng.next32(), kNow);
  ASSERT_TRUE(seal.ok());
  EXPECT_TRUE(seal->tags.empty());
  EXPECT_TRUE(nip59::check_seal(*seal).ok());
  party one_time(rng.next_key());
  auto ok = nip59::create_wrap(*seal, recipient.pub, one_time.kp(), one_time.ck(recipient.pub), rng.next32(),
                               rng.next32(), kNow);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(nip59::check_wrap(*ok).ok());
  event not_seal = *seal;
  not_seal.kind = 1;
  EXPECT_EQ(nip59::create_wrap(not_seal, recipient.pub, one_time.kp(), one_time.ck(recipient.pub), rng.next32(),
                               rng.next32(), kNow)
                .code(),
            errc::nip59_invalid_seal);
  EXPECT_EQ(nip59::create_seal(rumor, author.kp(), author.ck(recipient.pub), rng.next32(), rng.next32(), -1).code(),
            errc::invalid_argument);
}

TEST(nip59_test, signer_steps_compose_to_the_same_result) {
  // What a NIP-07 driven wrap/unwrap does: the "signer" encrypts and signs, the core checks.
  test_rng rng{5};
  party author(rng.next_key()), recipient(rng.next_key());
  event rumor = nip59::create_rumor(note("via signer", {{"p", recipient.pub}}), author.pub);
  ASSERT_TRUE(nip59::check_rumor(rumor, author.pub).ok());
  auto sealed = nip44::encrypt(nip59::rumor_to_json(rumor), author.ck(recipient.pub), rng.next32());
  ASSERT_TRUE(sealed.ok());
  std::int64_t at = nip59::random_past(kNow, rng.next64());
  event_template st = nip59::seal_template(*sealed, at);
  EXPECT_EQ(st.kind, 13);
  EXPECT_TRUE(st.tags.empty());
  EXPECT_EQ(st.created_at, at);
  event seal = finalize(st, author.kp(), rng.next32());
  auto parsed = nip59::parse_seal(to_json(seal));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(nip59::parse_seal("{\"kind\":13}").code(), errc::nip59_invalid_seal);

  party one_time(rng.next_key());
  auto w = nip59::create_wrap(*parsed, recipient.pub, one_time.kp(), one_time.ck(recipient.pub), rng.next32(),
                              rng.next32(), nip59::random_past(kNow, rng.next64()), {{"expiration", "1"}});
  ASSERT_TRUE(w.ok());
  // Receiver side, step by step.
  auto seal_json = nip44::decrypt(w->content, recipient.ck(w->pubkey));
  ASSERT_TRUE(seal_json.ok());
  auto seal2 = nip59::parse_seal(*seal_json);
  ASSERT_TRUE(seal2.ok());
  auto rumor_json = nip44::decrypt(seal2->content, recipient.ck(seal2->pubkey));
  ASSERT_TRUE(rumor_json.ok());
  auto rumor2 = nip59::open_rumor(*rumor_json, *seal2, recipient.pub, {true});
  ASSERT_TRUE(rumor2.ok()) << rumor2.err().detail;
  EXPECT_EQ(to_json(*rumor2), to_json(rumor));
  EXPECT_EQ(nip59::open_rumor(*rumor_json, *seal2, author.pub, {true}).code(), errc::nip59_not_for_recipient);
  // And in one call.
  auto all = nip59::unwrap(*w, recipient.sk, {true});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->rumor.id, rumor.id);
}

TEST(nip59_test, unwrap_through_a_conversation_key_provider) {
  test_rng rng{6};
  party author(rng.next_key()), recipient(rng.next_key());
  event rumor = nip59::create_rumor(note("keys elsewhere", {{"p", recipient.pub}}), author.pub);
  nip59::wrap_randomness rnd;
  rng.fill(rnd);
  auto w = nip59::wrap(rumor, author.kp(), author.ck(recipient.pub), recipient.pub, kNow, rnd);
  ASSERT_TRUE(w.ok()) << w.err().detail;

  std::vector<std::string> peers;
  auto provider = [&](const bytes32& peer) -> result<bytes32> {
    peers.push_back(hex::encode(peer));
    return nip44::get_conversation_key(recipient.sk, peer);
  };
  auto out = nip59::unwrap(*w, provider, recipient.pub, {true});
  ASSERT_TRUE(out.ok()) << out.err().detail;
  EXPECT_EQ(out->rumor.id, rumor.id);
  // First the one-time wrap key, then the author's key.
  ASSERT_EQ(peers.size(), 2u);
  EXPECT_EQ(peers[0], w->pubkey);
  EXPECT_EQ(peers[1], author.pub);

  // A provider error passes through; a wrap that fails its checks never reaches the provider.
  auto refusing = [&](const bytes32&) -> result<bytes32> { return make_error(errc::invalid_argument, "no key"); };
  EXPECT_EQ(nip59::unwrap(*w, refusing, recipient.pub).code(), errc::invalid_argument);
  peers.clear();
  event not_wrap = *w;
  not_wrap.kind = 4;
  EXPECT_EQ(nip59::unwrap(not_wrap, provider, recipient.pub).code(), errc::nip59_not_gift_wrap);
  EXPECT_TRUE(peers.empty());
}
