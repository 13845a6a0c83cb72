#include <gtest/gtest.h>

#include "agx_test_support.hpp"
#include "event/event_json.hpp"
#include "nips/nip40.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/unwrap.hpp"
#include "protocols/agx/wrap.hpp"

using namespace nostr;
using namespace nostr::agx;
using namespace nostr::agx_test;

namespace {

event hello_rumor(const identity& from, const std::string& to, std::int64_t now = kNow) {
  message_fields f;
  f.text = "Please review invoice 1234.";
  f.message_id = std::string(32, 'a');
  f.context_id = std::string(32, 'b');
  return *message_rumor(f, from.pub, to, now);
}

event wrap_of(const event& rumor, const identity& from, const std::string& to, std::uint64_t seed,
              std::int64_t now = kNow) {
  rng r{seed};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  auto w = wrap_rumor(rumor, from.sk, to, now, rnd);
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.err().detail);
  return *w;
}

// A correctly built AGX wrap around an arbitrary seal, at a chosen created_at.
event agx_wrap_of_seal(const event& seal, const std::string& to, std::int64_t created_at, rng& r) {
  return raw_wrap(to_json(seal), to, created_at, agx_tags(to, created_at), kPowBits, r);
}

}  // namespace

TEST(agx_envelope_test, round_trip_alice_to_bob) {
  event rumor = hello_rumor(alice(), bob().pub);
  EXPECT_TRUE(rumor.sig.empty());  // a rumor is never a publishable event
  event wrap = wrap_of(rumor, alice(), bob().pub, 1);
  ASSERT_TRUE(verify(wrap).ok());

  auto opened = unwrap(wrap, bob().sk, kNow);
  ASSERT_TRUE(opened.ok()) << opened.err().detail;
  EXPECT_EQ(opened->from, alice().pub);
  EXPECT_EQ(opened->rumor.id, rumor.id);
  EXPECT_EQ(opened->rumor.content, rumor.content);
  EXPECT_EQ(opened->rumor.tags, rumor.tags);
  EXPECT_EQ(opened->wrap_id, wrap.id);
  EXPECT_EQ(opened->wrap_created_at, wrap.created_at);

  // Mallory cannot open it: it is not addressed to her.
  EXPECT_EQ(unwrap(wrap, mallory().sk, kNow).code(), errc::agx_wrap_not_for_us);
}

TEST(agx_envelope_test, wrap_has_exactly_the_agx_tags_in_order) {
  event wrap = wrap_of(hello_rumor(alice(), bob().pub), alice(), bob().pub, 2);
  EXPECT_EQ(wrap.kind, 1059);
  ASSERT_EQ(wrap.tags.size(), 3u);
  EXPECT_EQ(wrap.tags[0], (tag{"p", bob().pub}));
  EXPECT_EQ(wrap.tags[1], (tag{"expiration", std::to_string(wrap.created_at + 2592000)}));
  ASSERT_EQ(wrap.tags[2].size(), 3u);
  EXPECT_EQ(wrap.tags[2][0], "nonce");
  EXPECT_EQ(wrap.tags[2][2], "12");
  // Nothing names the sender or the AGX kind.
  EXPECT_NE(wrap.pubkey, alice().pub);
  EXPECT_EQ(wrap.content.find(alice().pub), std::string::npos);
}

TEST(agx_envelope_test, pow_at_least_12_bits_and_created_at_untouched_by_mining) {
  for (std::uint64_t seed = 10; seed < 16; ++seed) {
    rng r{seed};
    nip59::wrap_randomness rnd;
    r.fill(rnd);
    auto w = seal_and_start(hello_rumor(alice(), bob().pub), alice().sk, bob().pub, kNow, rnd);
    ASSERT_TRUE(w.ok());
    std::int64_t before = w->created_at();
    EXPECT_EQ(before, backdated(kNow, rnd.wrap_tweak));
    ASSERT_TRUE(*w->step(kMaxPowIterations));
    auto wrap = w->finish();
    ASSERT_TRUE(wrap.ok());
    EXPECT_EQ(wrap->created_at, before);
    EXPECT_GE(*nip13::difficulty_hex(wrap->id), 12);
    EXPECT_EQ(nip13::committed_target(wrap->tags), 12);
    EXPECT_EQ(*nip40::get_expiration(wrap->tags), before + kWrapTtl);
  }
}

TEST(agx_envelope_test, created_at_of_seal_and_wrap_within_two_days_never_future) {
  for (std::uint64_t seed = 100; seed < 140; ++seed) {
    event wrap = wrap_of(hello_rumor(alice(), bob().pub), alice(), bob().pub, seed);
    EXPECT_LE(wrap.created_at, kNow);
    EXPECT_GE(wrap.created_at, kNow - kMaxWrapBackdate);
    // Expiration never more than 31 days past now.
    EXPECT_LE(**nip40::get_expiration(wrap.tags), kNow + kMaxExpiration);
    auto u = nip59::unwrap(wrap, bob().sk);
    ASSERT_TRUE(u.ok());
    EXPECT_LE(u->seal.created_at, kNow);
    EXPECT_GE(u->seal.created_at, kNow - kMaxWrapBackdate);
    EXPECT_TRUE(u->seal.tags.empty());
    // The rumor keeps the real time.
    EXPECT_EQ(u->rumor.created_at, kNow);
  }
  EXPECT_EQ(backdated(kNow, 0), kNow);
  EXPECT_EQ(backdated(kNow, kMaxWrapBackdate), kNow - kMaxWrapBackdate);
  EXPECT_EQ(backdated(100, 5000), 0);  // never negative
}

TEST(agx_envelope_test, mining_is_bounded_per_call_and_resumable) {
  rng r{7};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  event rumor = hello_rumor(alice(), bob().pub);
  auto one_shot = wrap_rumor(rumor, alice().sk, bob().pub, kNow, rnd);
  ASSERT_TRUE(one_shot.ok());

  auto w = seal_and_start(rumor, alice().sk, bob().pub, kNow, rnd);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->finish().code(), errc::invalid_argument);  // not mined yet
  int calls = 0;
  for (;;) {
    ++calls;
    std::uint64_t before = w->tried();
    auto done = w->step(100);
    ASSERT_TRUE(done.ok());
    if (*done) break;
    EXPECT_EQ(w->tried(), before + 100);  // exactly the bound, no more
  }
  EXPECT_GT(calls, 1);  // 2^12 expected tries: more than one 100-try slice
  auto wrap = w->finish();
  ASSERT_TRUE(wrap.ok());
  EXPECT_EQ(to_json(*wrap), to_json(*one_shot));  // the same nonce, the same event
  EXPECT_TRUE(*w->step(1));                       // further steps do nothing
  EXPECT_EQ(to_json(*w->finish()), to_json(*one_shot));

  // A bound too small to finish is an error for the one-shot form, not a hang.
  EXPECT_EQ(wrap_rumor(rumor, alice().sk, bob().pub, kNow, rnd, 1).code(), errc::pow_exhausted);
}

TEST(agx_envelope_test, external_signer_steps_compose) {
  // What a NIP-07 driver does: the signer encrypts the rumor JSON and signs the seal template; the
  // core does the one-time key's part and the checks.
  rng r{21};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  event rumor = hello_rumor(alice(), bob().pub);
  std::string sealed = *nip44::encrypt(nip59::rumor_to_json(rumor), conv(alice(), bob().pub), r.next32());
  event_template st = seal_template(sealed, kNow, r.next64());
  EXPECT_EQ(st.kind, 13);
  EXPECT_TRUE(st.tags.empty());
  EXPECT_LE(st.created_at, kNow);
  EXPECT_GE(st.created_at, kNow - kMaxWrapBackdate);
  event seal = finalize(st, alice().kp(), r.next32());
  auto w = wrap_miner::start(seal, bob().pub, kNow, rnd);
  ASSERT_TRUE(w.ok()) << w.err().detail;
  ASSERT_TRUE(*w->step(kMaxPowIterations));
  event wrap = *w->finish();

  // Bob's side, step by step, with his signer doing the two decryptions.
  ASSERT_TRUE(check_wrap(wrap, bob().pub, kNow).ok());
  auto seal_json = nip44::decrypt(wrap.content, conv(bob(), wrap.pubkey));
  ASSERT_TRUE(seal_json.ok());
  auto opened_seal = open_seal_json(*seal_json);
  ASSERT_TRUE(opened_seal.ok());
  auto rumor_json = nip44::decrypt(opened_seal->content, conv(bob(), opened_seal->pubkey));
  ASSERT_TRUE(rumor_json.ok());
  auto opened = open_rumor_json(wrap, *opened_seal, *rumor_json, bob().pub);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->from, alice().pub);
  EXPECT_EQ(opened->rumor.id, rumor.id);

  // The same as the all-local path, including through a conversation-key provider.
  auto local = unwrap(
      wrap, [&](const bytes32& peer) { return nip44::get_conversation_key(bob().sk, peer); }, bob().pub, kNow);
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->rumor.id, opened->rumor.id);
}

TEST(agx_envelope_test, wrap_creation_refuses_what_would_not_conform) {
  rng r{31};
  nip59::wrap_randomness rnd;
  r.fill(rnd);
  event rumor = hello_rumor(alice(), bob().pub);
  event seal = *nip59::create_seal(rumor, alice().kp(), conv(alice(), bob().pub), r.next32(), r.next32(), kNow - 10);

  EXPECT_EQ(wrap_miner::start(seal, bob().pub, kNow, rnd, 11).code(), errc::invalid_argument);  // PoW below 12
  EXPECT_TRUE(wrap_miner::start(seal, bob().pub, kNow, rnd, 13).ok());
  EXPECT_EQ(wrap_miner::start(seal, "B0B", kNow, rnd).code(), errc::invalid_public_key);
  EXPECT_EQ(wrap_miner::start(seal, bob().pub, -1, rnd).code(), errc::invalid_argument);

  event future_seal = *nip59::create_seal(rumor, alice().kp(), conv(alice(), bob().pub), r.next32(), r.next32(),
                                          kNow + 1);
  EXPECT_EQ(wrap_miner::start(future_seal, bob().pub, kNow, rnd).code(), errc::invalid_argument);

  event bad_sig = seal;
  bad_sig.sig[5] = bad_sig.sig[5] == '0' ? '1' : '0';
  EXPECT_EQ(wrap_miner::start(bad_sig, bob().pub, kNow, rnd).code(), errc::nip59_seal_signature);

  event_template tagged;
  tagged.kind = 13;
  tagged.created_at = kNow - 1;
  tagged.tags = {{"p", bob().pub}};
  tagged.content = seal.content;
  EXPECT_EQ(wrap_miner::start(finalize(tagged, alice().kp(), r.next32()), bob().pub, kNow, rnd).code(),
            errc::nip59_invalid_seal);

  nip59::wrap_randomness zero_key = rnd;
  zero_key.wrap_secret = bytes32{};
  EXPECT_EQ(wrap_miner::start(seal, bob().pub, kNow, zero_key).code(), errc::invalid_secret_key);

  // seal_and_start only wraps AGX rumors with one p tag naming the recipient.
  event note = make_unsigned(event_template{kNow, 1, {{"p", bob().pub}}, "hi"}, alice().pub);
  EXPECT_EQ(seal_and_start(note, alice().sk, bob().pub, kNow, rnd).code(), errc::invalid_argument);
  event two_p = make_unsigned(event_template{kNow, 3838, {{"p", bob().pub}, {"p", mallory().pub}}, "{}"}, alice().pub);
  EXPECT_EQ(seal_and_start(two_p, alice().sk, bob().pub, kNow, rnd).code(), errc::invalid_argument);
  EXPECT_EQ(seal_and_start(rumor, alice().sk, mallory().pub, kNow, rnd).code(), errc::invalid_argument);
  event signed_rumor = rumor;
  signed_rumor.sig = std::string(128, 'a');
  EXPECT_EQ(seal_and_start(signed_rumor, alice().sk, bob().pub, kNow, rnd).code(), errc::invalid_argument);
  // The rumor's author must be the key that seals it (NIP-59's check, passed through).
  EXPECT_EQ(seal_and_start(rumor, mallory().sk, bob().pub, kNow, rnd).code(), errc::nip59_author_mismatch);
}

TEST(agx_envelope_test, every_public_check_has_its_code) {
  rng r{41};
  event rumor = hello_rumor(alice(), bob().pub);
  event seal = *nip59::create_seal(rumor, alice().kp(), conv(alice(), bob().pub), r.next32(), r.next32(), kNow - 50);
  std::string sj = to_json(seal);
  const std::string& me = bob().pub;
  std::int64_t ca = kNow - 100;

  // The crafter itself builds an acceptable wrap.
  event good = agx_wrap_of_seal(seal, me, ca, r);
  ASSERT_TRUE(unwrap(good, bob().sk, kNow).ok());

  auto code = [&](const event& w) { return unwrap(w, bob().sk, kNow).code(); };

  EXPECT_EQ(code(raw_wrap(sj, me, ca, agx_tags(me, ca), kPowBits, r, 1058)), errc::nip59_not_gift_wrap);
  tag_list two_p = agx_tags(me, ca);
  two_p.push_back({"p", mallory().pub});
  EXPECT_EQ(code(raw_wrap(sj, me, ca, two_p, kPowBits, r)), errc::agx_wrap_p_tag);
  tag_list same_p_twice = agx_tags(me, ca);
  same_p_twice.push_back({"p", me});
  EXPECT_EQ(code(raw_wrap(sj, me, ca, same_p_twice, kPowBits, r)), errc::agx_wrap_p_tag);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"expiration", std::to_string(ca + kWrapTtl)}}, kPowBits, r)),
            errc::agx_wrap_p_tag);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, agx_tags(mallory().pub, ca), kPowBits, r)), errc::agx_wrap_not_for_us);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"p", me}}, kPowBits, r)), errc::agx_wrap_no_expiration);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"p", me}, {"expiration", "soon"}}, kPowBits, r)), errc::agx_wrap_no_expiration);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"p", me}, {"expiration"}}, kPowBits, r)), errc::agx_wrap_no_expiration);

  // Expired: a wrap whose own TTL ran out; and exactly at the expiration second (NIP-40).
  std::int64_t old = kNow - kWrapTtl - 1;
  EXPECT_EQ(code(raw_wrap(sj, me, old, agx_tags(me, old), kPowBits, r)), errc::agx_wrap_expired);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"p", me}, {"expiration", std::to_string(kNow)}}, kPowBits, r)),
            errc::agx_wrap_expired);
  EXPECT_TRUE(unwrap(raw_wrap(sj, me, ca, {{"p", me}, {"expiration", std::to_string(kNow + 1)}}, kPowBits, r),
                     bob().sk, kNow)
                  .ok());
  // Beyond the 31-day cap (with the 300 s skew allowance).
  std::string far = std::to_string(kNow + kMaxExpiration + kMaxFutureSkew + 1);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, {{"p", me}, {"expiration", far}}, kPowBits, r)),
            errc::agx_wrap_expiration_too_far);

  // Future: more than 300 s ahead is skipped (and retried later), 300 s is tolerated.
  std::int64_t ahead = kNow + kMaxFutureSkew + 1;
  event future = raw_wrap(sj, me, ahead, agx_tags(me, ahead), kPowBits, r);
  EXPECT_EQ(code(future), errc::agx_wrap_future);
  EXPECT_EQ(disposition_of(errc::agx_wrap_future, unwrap_stage::public_checks), disposition::retry_later);
  EXPECT_TRUE(unwrap(future, bob().sk, ahead).ok());  // once it is no longer ahead
  std::int64_t edge = kNow + kMaxFutureSkew;
  EXPECT_TRUE(unwrap(raw_wrap(sj, me, edge, agx_tags(me, edge), kPowBits, r), bob().sk, kNow).ok());

  // Proof of work: committed 11 bits; no nonce tag at all; a commitment of 12 without the work.
  EXPECT_EQ(code(raw_wrap(sj, me, ca, agx_tags(me, ca), 11, r)), errc::agx_wrap_pow);
  EXPECT_EQ(code(raw_wrap(sj, me, ca, agx_tags(me, ca), std::nullopt, r)), errc::agx_wrap_pow);
  int low = 0;
  for (int i = 0; i < 4 && low == 0; ++i) {
    tag_list fake = agx_tags(me, ca);
    fake.push_back({"nonce", "0", "12"});
    event w = raw_wrap(sj, me, ca, fake, std::nullopt, r);
    if (*nip13::difficulty_hex(w.id) >= 12) continue;  // 1 in 4096: try another
    EXPECT_EQ(code(w), errc::agx_wrap_pow);
    ++low;
  }
  EXPECT_EQ(low, 1);
  // Actual difficulty 12 or more but committed 11: still refused (NIP-13: a lower commitment).
  for (int i = 0; i < 20; ++i) {
    event w = raw_wrap(sj, me, ca, agx_tags(me, ca), 11, r);
    if (*nip13::difficulty_hex(w.id) >= 12) {
      EXPECT_EQ(code(w), errc::agx_wrap_pow);
      break;
    }
  }

  // The wrap's own id and signature, checked after the cheap checks.
  event bad_sig = good;
  bad_sig.sig[0] = bad_sig.sig[0] == 'f' ? 'e' : 'f';
  EXPECT_EQ(code(bad_sig), errc::invalid_signature);
  event bad_id = good;
  bad_id.content[10] = bad_id.content[10] == 'A' ? 'B' : 'A';
  EXPECT_EQ(code(bad_id), errc::id_mismatch);
  event bad_shape = good;
  bad_shape.pubkey = "zz";
  EXPECT_EQ(code(bad_shape), errc::invalid_event);

  // Every public failure above is ignored (never recorded: junk takes no place among processed
  // ids, and a forged id cannot hide the real wrap), except the future one, retried later.
  for (errc c : {errc::agx_wrap_pow, errc::agx_wrap_expired, errc::agx_wrap_p_tag, errc::agx_wrap_not_for_us,
                 errc::agx_wrap_no_expiration, errc::agx_wrap_expiration_too_far, errc::invalid_signature,
                 errc::id_mismatch, errc::invalid_event, errc::nip59_not_gift_wrap})
    EXPECT_EQ(disposition_of(c, unwrap_stage::public_checks), disposition::ignore) << errc_name(c);
  EXPECT_EQ(disposition_of(errc::invalid_secret_key, unwrap_stage::opening), disposition::retry_later);
}

TEST(agx_envelope_test, every_nip59_check_has_its_code) {
  rng r{51};
  const std::string& me = bob().pub;
  std::int64_t ca = kNow - 100;
  auto wrapped = [&](const event& seal) { return agx_wrap_of_seal(seal, me, ca, r); };
  auto code = [&](const event& w) { return unwrap(w, bob().sk, kNow).code(); };
  event rumor = hello_rumor(alice(), me);
  std::string rj = nip59::rumor_to_json(rumor);

  // 1. The seal is a validly signed kind 13.
  event seal_bad_sig = raw_seal(rj, alice(), me, kNow - 10, r);
  seal_bad_sig.sig[3] = seal_bad_sig.sig[3] == '1' ? '2' : '1';
  EXPECT_EQ(code(wrapped(seal_bad_sig)), errc::nip59_seal_signature);
  EXPECT_EQ(code(wrapped(raw_seal(rj, alice(), me, kNow - 10, r, 14))), errc::nip59_invalid_seal);
  EXPECT_EQ(code(raw_wrap("not a seal", me, ca, agx_tags(me, ca), kPowBits, r)), errc::nip59_invalid_seal);

  // 2. The rumor's pubkey is the seal's signer: alice's rumor sealed by mallory.
  EXPECT_EQ(code(wrapped(raw_seal(rj, mallory(), me, kNow - 10, r))), errc::nip59_author_mismatch);

  // 3. The rumor's id is its hash.
  event tampered = rumor;
  tampered.content = "{\"v\":1}";
  EXPECT_EQ(code(wrapped(raw_seal(nip59::rumor_to_json(tampered), alice(), me, kNow - 10, r))),
            errc::nip59_rumor_id_mismatch);

  // 4. The rumor p-tags us: a rumor for mallory, sealed and wrapped to bob.
  event for_mallory = hello_rumor(alice(), mallory().pub);
  EXPECT_EQ(code(wrapped(raw_seal(nip59::rumor_to_json(for_mallory), alice(), me, kNow - 10, r))),
            errc::nip59_not_for_recipient);

  // And the rumor is an AGX kind.
  event dm = make_unsigned(event_template{kNow, 14, {{"p", me}}, "hi"}, alice().pub);
  EXPECT_EQ(code(wrapped(raw_seal(nip59::rumor_to_json(dm), alice(), me, kNow - 10, r))), errc::agx_rumor_kind);

  // A rumor that is not JSON at all.
  EXPECT_EQ(code(wrapped(raw_seal("nope", alice(), me, kNow - 10, r))), errc::nip59_invalid_rumor);

  for (errc c : {errc::nip59_seal_signature, errc::nip59_invalid_seal, errc::nip59_author_mismatch,
                 errc::nip59_rumor_id_mismatch, errc::nip59_not_for_recipient, errc::agx_rumor_kind,
                 errc::nip44_invalid_mac})
    EXPECT_EQ(disposition_of(c, unwrap_stage::opening), disposition::discard) << errc_name(c);
}

TEST(agx_envelope_test, receipt_round_trip) {
  event msg = hello_rumor(alice(), bob().pub);
  auto receipt = receipt_rumor(msg.id, "ctx-1", receipt_status::delivered, bob().pub, alice().pub, kNow + 2);
  ASSERT_TRUE(receipt.ok());
  event wrap = wrap_of(*receipt, bob(), alice().pub, 61, kNow + 2);
  auto opened = unwrap(wrap, alice().sk, kNow + 2);
  ASSERT_TRUE(opened.ok());
  auto r = read_receipt(*opened);
  ASSERT_TRUE(r.ok()) << r.err().detail;
  EXPECT_EQ(r->from, bob().pub);
  EXPECT_EQ(r->receipt.ref_event_id, msg.id);
  EXPECT_EQ(r->receipt.status, receipt_status::delivered);
  EXPECT_EQ(read_message(*opened).code(), errc::agx_rumor_kind);
}

TEST(agx_envelope_test, publish_boundary_and_relay_policy) {
  event rumor = hello_rumor(alice(), bob().pub);
  event wrap = wrap_of(rumor, alice(), bob().pub, 81);
  // Never a bare rumor, never a seal alone; a conforming wrap passes.
  EXPECT_EQ(check_publishable(rumor, kNow).code(), errc::invalid_argument);
  event receipt = *receipt_rumor(rumor.id, "c", receipt_status::delivered, bob().pub, alice().pub, kNow);
  EXPECT_EQ(check_publishable(receipt, kNow).code(), errc::invalid_argument);
  rng r{82};
  event seal = *nip59::create_seal(rumor, alice().kp(), conv(alice(), bob().pub), r.next32(), r.next32(), kNow);
  EXPECT_EQ(check_publishable(seal, kNow).code(), errc::invalid_argument);
  EXPECT_TRUE(check_publishable(wrap, kNow).ok());
  event card = make_unsigned(event_template{kNow, 11337, {}, "{}"}, alice().pub);
  EXPECT_TRUE(check_publishable(card, kNow).ok());

  // A relay's write policy: AGX wraps only; recipient-independent.
  EXPECT_TRUE(relay_accepts(wrap, kNow).ok());
  EXPECT_TRUE(relay_accepts(card, kNow).ok());
  std::int64_t ca = kNow - 10;
  std::string sj = to_json(seal);
  EXPECT_EQ(relay_accepts(raw_wrap(sj, bob().pub, ca, {{"p", bob().pub}}, kPowBits, r), kNow).code(),
            errc::agx_wrap_no_expiration);
  EXPECT_EQ(relay_accepts(raw_wrap(sj, bob().pub, ca, agx_tags(bob().pub, ca), 11, r), kNow).code(), errc::agx_wrap_pow);
  std::string far = std::to_string(kNow + 40LL * 86400);
  EXPECT_EQ(relay_accepts(raw_wrap(sj, bob().pub, ca, {{"p", bob().pub}, {"expiration", far}}, kPowBits, r), kNow).code(),
            errc::agx_wrap_expiration_too_far);
  event no_sender_check = raw_wrap(sj, mallory().pub, ca, agx_tags(mallory().pub, ca), kPowBits, r);
  EXPECT_TRUE(relay_accepts(no_sender_check, kNow).ok());
  EXPECT_EQ(check_publishable(raw_wrap(sj, bob().pub, ca, {{"p", bob().pub}}, kPowBits, r), kNow).code(),
            errc::invalid_argument);
  // check_wrap needs our key.
  EXPECT_EQ(check_wrap(wrap, "", kNow).code(), errc::invalid_argument);
}
