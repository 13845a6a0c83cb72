// NIP-01 relay frames from the network, both directions: a decoded frame must encode, and the
// encoding must decode and encode again to the same bytes. The first byte picks the direction
// (relay -> client or client -> relay) and whether a frame-size cap applies.
#include "relay/client_message.hpp"
#include "relay/nip42.hpp"
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::relay;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view frame = fuzz::text(data + 1, size - 1);
  const std::size_t cap = (mode & 2) ? 256 : 0;

  if (mode & 1) {
    auto m = decode_client_message(frame, cap);
    if (!m.ok()) return 0;
    FUZZ_CHECK(cap == 0 || frame.size() <= cap);
    auto out = encode(*m);
    FUZZ_CHECK(out.ok());
    auto again = decode_client_message(*out);
    FUZZ_CHECK(again.ok());
    auto out2 = encode(*again);
    FUZZ_CHECK(out2.ok() && *out2 == *out);
    if (auto* a = std::get_if<client_auth>(&*m)) {
      (void)validate_auth_event(a->ev, "wss://relay.example.com", "challenge", 1700000000);
    }
  } else {
    auto m = decode_relay_message(frame, cap);
    if (!m.ok()) return 0;
    FUZZ_CHECK(cap == 0 || frame.size() <= cap);
    auto out = encode(*m);
    FUZZ_CHECK(out.ok());
    auto again = decode_relay_message(*out);
    FUZZ_CHECK(again.ok());
    auto out2 = encode(*again);
    FUZZ_CHECK(out2.ok() && *out2 == *out);
    const machine_message* status = nullptr;
    if (auto* ok = std::get_if<relay_ok>(&*m)) status = &ok->status;
    if (auto* closed = std::get_if<relay_closed>(&*m)) status = &closed->status;
    if (status) {
      // The message is kept whole; prefix and text are views into it.
      auto reparsed = parse_machine_message(status->message);
      FUZZ_CHECK(reparsed.reason == status->reason);
      FUZZ_CHECK(reparsed.prefix() == status->prefix());
      FUZZ_CHECK(reparsed.text() == status->text());
      (void)reason_is_transient(status->reason);
    }
  }
  return 0;
}
