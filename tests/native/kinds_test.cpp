// NIP-01 kind classes against the ranges of NIP-01's text (tests/vectors/kinds.json).
#include <gtest/gtest.h>

#include "event/event.hpp"
#include "test_support.hpp"

using namespace nostr;

namespace {

const char* name_of(kind_class c) {
  switch (c) {
    case kind_class::regular: return "regular";
    case kind_class::replaceable: return "replaceable";
    case kind_class::ephemeral: return "ephemeral";
    case kind_class::addressable: return "parameterized";
    case kind_class::unknown: return "unknown";
  }
  return "?";
}

}  // namespace

TEST(kinds_test, nip01_ranges) {
  auto v = test::load_vector_json("kinds.json");
  ASSERT_FALSE(v.is_discarded());
  ASSERT_GE(v["cases"].size(), 20u);
  for (const auto& c : v["cases"])
    EXPECT_STREQ(name_of(classify_kind(c["kind"].get<std::int64_t>())), c["class"].get<std::string>().c_str())
        << c["kind"];
}

TEST(kinds_test, outside_nip01_kinds_are_unknown) {
  for (std::int64_t k : {std::int64_t{-1}, std::int64_t{65536}, std::int64_t{1} << 40, INT64_MIN, INT64_MAX})
    EXPECT_EQ(classify_kind(k), kind_class::unknown) << k;
}
