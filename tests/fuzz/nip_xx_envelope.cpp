// The NIP-XX text envelope (event=tool|phase=start|...) from the network: parse it, check it
// against every kind, and check that format_envelope(parse(x).fields) parses back to the same
// fields (parsing is idempotent after one normalization). percent_decode inverts percent_encode.
// Any text sent by text_for_wire reads back verbatim through visible_text.
#include "protocols/nip_xx/client_run.hpp"
#include "protocols/nip_xx/envelope.hpp"
#include "util/utf8.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::nip_xx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  (void)to_snake_case(in);
  // Whatever text an agent sends as a delta or response, the client reads back exactly that text.
  for (kind k : {kind::delta, kind::response}) {
    const bool envelope = looks_like_envelope(in, k);
    const std::string wire = text_for_wire(k, in, 1771402400);
    FUZZ_CHECK(envelope || wire == in);
    auto seen = visible_text(k, wire);
    FUZZ_CHECK(seen.ok() && seen->text == in && !seen->thinking);
  }
  (void)looks_like_envelope(in, kind::tool_call);
  (void)looks_like_envelope(in, kind::error);

  auto dec = percent_decode(in);
  if (dec.ok()) {
    auto re = percent_decode(percent_encode(*dec));
    FUZZ_CHECK(re.ok() && *re == *dec);
  }

  auto env = parse_envelope(in);
  if (!env.ok()) return 0;
  FUZZ_CHECK(env->has("event") && env->has("phase") && env->has("ts"));
  for (std::int64_t k : {25800, 25801, 25802, 25803, 25804, 25805, 25806, 31340}) {
    (void)check_envelope_for_kind(*env, static_cast<kind>(k));
  }
  const std::string out = format_envelope(env->fields);
  auto again = parse_envelope(out);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->fields == env->fields);
  FUZZ_CHECK(format_envelope(again->fields) == out);
  return 0;
}
