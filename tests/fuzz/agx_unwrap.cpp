// AGX gift wraps from the network, for a fixed recipient at a fixed `now`. Mode (first byte & 3):
//   0: a wrap's JSON -> check_wrap, relay_accepts, unwrap; every error has a disposition;
//   1: a seal's JSON (a wrap's plaintext) -> open_seal_json;
//   2: a rumor's JSON (a seal's plaintext) -> open_rumor_json against a fixed wrap and seal,
//      then read_message / read_receipt of what it yields.
#include "event/event.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/unwrap.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::agx;

// The key and time of tests/conformance/agx_unwrap.json, so its real wraps (seeds) open fully.
static constexpr std::int64_t kNow = 1767225600;
static const nostr::bytes32& recipient_sk() {
  static const nostr::bytes32 sk = fuzz::fixed_bytes(0x22);
  return sk;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  static const std::string me = fuzz::hex32(crypto::xonly_public_key(recipient_sk()).value());
  switch (data[0] % 3) {
    case 0: {
      auto wrap = parse_event(in);
      if (!wrap.ok()) return 0;
      auto pub = check_wrap(*wrap, me, kNow);
      (void)relay_accepts(*wrap, kNow);
      auto u = unwrap(*wrap, recipient_sk(), kNow);
      if (!pub.ok()) FUZZ_CHECK(!u.ok());
      if (!u.ok()) {
        (void)disposition_of(u.code(), pub.ok() ? unwrap_stage::opening : unwrap_stage::public_checks);
        return 0;
      }
      FUZZ_CHECK(u->wrap_id == wrap->id && u->rumor.pubkey == u->from);
      return 0;
    }
    case 1: {
      auto seal = open_seal_json(in);
      if (seal.ok()) FUZZ_CHECK(seal->kind == 13 && verify(*seal).ok());
      return 0;
    }
    default: {
      event wrap;
      wrap.id = std::string(64, 'a');
      wrap.pubkey = std::string(64, 'b');
      wrap.kind = 1059;
      wrap.created_at = kNow - 100;
      wrap.tags = {{"p", me}};
      event seal;
      seal.id = std::string(64, 'c');
      seal.pubkey = fuzz::hex32(fuzz::sender_keypair().public_key());
      seal.kind = 13;
      seal.created_at = kNow - 100;
      auto w = open_rumor_json(wrap, seal, in, me);
      if (!w.ok()) return 0;
      FUZZ_CHECK(w->from == seal.pubkey && w->rumor.pubkey == seal.pubkey);
      if (w->rumor.kind == 3838) {
        (void)read_message(*w);
      } else {
        FUZZ_CHECK(w->rumor.kind == 3839);
        (void)read_receipt(*w);
      }
      return 0;
    }
  }
}
