// The core's JSON code (src/json) against nlohmann/json, the parser it replaced (json_oracle.hpp):
// mode 0 parses the rest with both (same verdict, same tree, our dump reading back the same);
// mode 1 writes the rest as a JSON string with both (same escaping, same U+FFFD replacement).
#include "fuzz_support.hpp"
#include "json_oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  std::string r = data[0] % 2 == 0 ? json_oracle::check_text(in) : json_oracle::check_string(in);
  if (!r.empty()) std::fprintf(stderr, "%s\n", r.c_str());
  FUZZ_CHECK(r.empty());
  return 0;
}
