// NIP-59 unwrap of network input, with a fixed recipient key. The first byte picks the layer:
//   0: a gift wrap's JSON -> parse_event -> unwrap (every option combination over the modes);
//   1: a seal's JSON (the plaintext of a wrap) -> parse_seal;
//   2: a rumor's JSON (the plaintext of a seal) -> open_rumor against a fixed seal, the check
//      that runs after decryption; an accepted rumor survives rumor_to_json -> parse_rumor;
//   3: the input as a rumor's content and tags source: wrap it for real to the fixed recipient,
//      unwrap it, and get the same rumor back.
#include <cstring>
#include "event/event.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "util/hex.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

static const event& fixed_seal() {
  static const event seal = [] {
    event s;
    s.pubkey = fuzz::hex32(fuzz::sender_keypair().public_key());
    s.kind = nip59::kSealKind;
    s.created_at = 1700000000;
    return s;
  }();
  return seal;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0] & 3;
  const std::uint8_t flags = data[0] >> 2;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  const std::string recipient_hex = fuzz::hex32(fuzz::recipient_keypair().public_key());
  nip59::unwrap_options opt;
  opt.require_recipient_tag = flags & 1;
  opt.verify_wrap_signature = flags & 2;

  switch (mode) {
    case 0: {
      auto wrap = parse_event(in);
      if (!wrap.ok()) return 0;
      // Our fixed key, and the recipient key of NIP-59's own example (tests/vectors), so that
      // the spec's wrap (a seed) opens fully.
      static const bytes32 spec_recipient =
          hex::decode32("e108399bd8424357a710b606ae0c13166d853d327e47a6e5e038197346bdbf45").value();
      for (const bytes32* sk : {&fuzz::recipient_sk(), &spec_recipient}) {
        auto u = nip59::unwrap(*wrap, *sk, opt);
        if (u.ok()) FUZZ_CHECK(u->rumor.pubkey == u->seal.pubkey);
      }
      return 0;
    }
    case 1: {
      auto seal = nip59::parse_seal(in);
      if (seal.ok()) FUZZ_CHECK(seal->kind == nip59::kSealKind && verify(*seal).ok());
      return 0;
    }
    case 2: {
      auto rumor = nip59::open_rumor(in, fixed_seal(), recipient_hex, opt);
      auto parsed = nip59::parse_rumor(in);
      if (rumor.ok()) FUZZ_CHECK(parsed.ok());
      if (!parsed.ok()) return 0;
      auto again = nip59::parse_rumor(nip59::rumor_to_json(*parsed));
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(nip59::rumor_to_json(*again) == nip59::rumor_to_json(*parsed));
      return 0;
    }
    default: {
      event_template t;
      t.kind = 14;
      t.created_at = 1700000000;
      t.content = std::string(in);
      t.tags = {{"p", recipient_hex}};
      const event rumor = nip59::create_rumor(t, fuzz::hex32(fuzz::sender_keypair().public_key()));
      nip59::wrap_randomness rnd;
      rnd.wrap_secret = fuzz::fixed_bytes(0x03);
      rnd.seal_nonce = fuzz::fixed_bytes(0x04);
      rnd.wrap_nonce = fuzz::fixed_bytes(0x05);
      rnd.seal_tweak = size;
      rnd.wrap_tweak = flags;
      auto wrapped = nip59::wrap(rumor, fuzz::sender_sk(), recipient_hex, 1700000000, rnd);
      if (!wrapped.ok()) {
        // NIP-44 refuses an empty plaintext, never the rumor JSON; a content that is not UTF-8
        // is the only other way to fail.
        FUZZ_CHECK(wrapped.code() == errc::invalid_utf8 || wrapped.code() == errc::nip59_invalid_rumor);
        return 0;
      }
      opt.verify_wrap_signature = true;
      auto u = nip59::unwrap(*wrapped, fuzz::recipient_sk(), opt);
      FUZZ_CHECK(u.ok());
      FUZZ_CHECK(u->rumor.id == rumor.id && u->rumor.content == rumor.content && u->rumor.tags == rumor.tags);
      return 0;
    }
  }
}
