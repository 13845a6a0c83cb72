// Signature checks of received frames in a worker (js/relay/verify-worker.js): the worker's own
// instance of this module decodes each frame as the pool's subscription machine does and verifies
// the events together (verify_batch); the pool's machine then skips the check of each frame
// found valid (relaySubsFeedBatchVerifiedScratch). Stateless: no machine, no subscription.
#include <emscripten/bind.h>

#include <cstring>
#include <variant>
#include <vector>

#include "event/event.hpp"
#include "relay/relay_message.hpp"
#include "support.hpp"
#include "util/bytes.hpp"

namespace nostr::bindings {
namespace {

// Scratch in: n little-endian u32 byte lengths, then the frames back to back (as
// relaySubsFeedBatchScratch). Scratch out: n bytes at [0, n), 1 when frame i is an EVENT frame
// whose event verifies, else 0 (not an event, malformed, bad id or signature: the pool's machine
// checks those itself and names the error). Returns 0, or -1 when the lengths overrun `total`.
int verify_frames_scratch(std::size_t n, std::size_t total) {
  if (total < 4 * n) return -1;
  std::uint8_t* s = scratch(total);
  std::vector<relay::relay_message> msgs(n);
  std::vector<const event*> events;
  std::vector<std::size_t> at;
  std::size_t off = 4 * n;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t len;
    std::memcpy(&len, s + 4 * i, 4);
    if (len > total - off) return -1;
    auto m = relay::decode_relay_message(as_chars(s + off, len));
    off += len;
    if (!m) continue;
    msgs[i] = std::move(*m);
    if (auto* ev = std::get_if<relay::relay_event>(&msgs[i])) {
      events.push_back(&ev->ev);
      at.push_back(i);
    }
  }
  // Variable time is fine: events and signatures are public.
  std::vector<result<void>> verified = verify_batch(events.data(), events.size());
  std::memset(s, 0, n);
  for (std::size_t j = 0; j < at.size(); ++j) s[at[j]] = verified[j].ok() ? 1 : 0;
  return 0;
}

}  // namespace

EMSCRIPTEN_BINDINGS(relay_verify) {
  emscripten::function("relayVerifyFramesScratch", &verify_frames_scratch);
}

}  // namespace nostr::bindings
