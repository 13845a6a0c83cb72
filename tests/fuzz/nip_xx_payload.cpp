// NIP-XX payloads (the decrypted content of each kind) and event tags from the network. The first
// byte picks the kind; an accepted payload survives parse -> to_json -> parse with the same JSON.
// Mode 8 reads the input as an event and checks its tags (check_tags) instead.
#include "event/event.hpp"
#include "protocols/nip_xx/payload.hpp"
#include "protocols/nip_xx/tags.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

template <class Parse>
static void round_trip(std::string_view in, Parse parse) {
  auto p = parse(in);
  if (!p.ok()) {
    FUZZ_CHECK(p.code() == errc::xx_parse_error || p.code() == errc::xx_invalid_schema);
    return;
  }
  const std::string out = to_json(*p);
  auto again = parse(out);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(to_json(*again) == out);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  switch (data[0] % 9) {
    case 0: round_trip(in, parse_prompt); break;
    case 1: round_trip(in, parse_cancel); break;
    case 2: round_trip(in, parse_response); break;
    case 3: round_trip(in, parse_delta); break;
    case 4: round_trip(in, parse_status); break;
    case 5: round_trip(in, parse_tool_call); break;
    case 6: round_trip(in, parse_error); break;
    case 7: round_trip(in, parse_info); break;
    default: {
      auto e = parse_event(in);
      if (!e.ok()) return 0;
      auto t = check_tags(*e);
      if (t.ok()) {
        const std::string client = std::string(64, 'a');
        FUZZ_CHECK(!session_of(*t, client).empty());
      }
      break;
    }
  }
  return 0;
}
