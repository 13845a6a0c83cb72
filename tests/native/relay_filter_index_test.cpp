#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "event/filter.hpp"
#include "relay/filter_index.hpp"

using namespace nostr;
using namespace nostr::relay;

namespace {

std::string hex_n(int n) {
  std::string s(64, '0');
  s[62] = "0123456789abcdef"[(n >> 4) & 15];
  s[63] = "0123456789abcdef"[n & 15];
  return s;
}

event ev(int id, int author, std::int64_t kind, std::int64_t created_at, tag_list tags) {
  event e;
  e.id = hex_n(id);
  e.pubkey = hex_n(author);
  e.kind = kind;
  e.created_at = created_at;
  e.tags = std::move(tags);
  return e;
}

}  // namespace

TEST(relay_filter_index_test, matches_like_the_filter_and_only_candidates) {
  filter_index idx;
  idx.add(1, {*parse_filter(R"({"kinds":[1]})")});
  idx.add(2, {*parse_filter(R"({"#p":["0000000000000000000000000000000000000000000000000000000000000005"]})"),
              *parse_filter(R"({"authors":["0000000000000000000000000000000000000000000000000000000000000007"]})")});
  idx.add(3, {*parse_filter(R"({"ids":[]})")});  // present but empty: never
  idx.add(4, {*parse_filter(R"({"since":100})")});
  EXPECT_EQ(idx.subscriptions(), 4u);
  EXPECT_EQ(idx.filters(), 5u);
  EXPECT_EQ(idx.match(ev(1, 1, 1, 50, {})), (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(idx.match(ev(1, 7, 1, 150, {{"p", hex_n(5)}})), (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_TRUE(idx.matches(2, 1, ev(1, 7, 2, 0, {})));
  EXPECT_FALSE(idx.matches(2, 0, ev(1, 7, 2, 0, {})));
  EXPECT_FALSE(idx.matches(9, 0, ev(1, 7, 2, 0, {})));
  idx.remove(1);
  idx.add(2, {*parse_filter(R"({"kinds":[2]})")});  // replaced
  EXPECT_EQ(idx.match(ev(1, 7, 1, 150, {{"p", hex_n(5)}})), (std::vector<std::uint32_t>{4}));
  EXPECT_EQ(idx.filters(), 3u);
}

// Differential: random filters and events, the index against matches() of filter.hpp.
TEST(relay_filter_index_test, agrees_with_filter_matches_on_random_inputs) {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  auto list = [&](int range) {
    std::vector<std::string> v;
    int n = pick(4);  // 0: an empty list
    for (int i = 0; i < n; ++i) v.push_back(hex_n(pick(range)));
    return v;
  };
  std::vector<filter> all;
  filter_index idx;
  for (std::uint32_t key = 0; key < 300; ++key) {
    filter f;
    if (pick(4) == 0) f.ids = list(40);
    if (pick(3) == 0) f.authors = list(8);
    if (pick(2) == 0) {
      std::vector<std::int64_t> k;
      for (int i = pick(3); i >= 0; --i) k.push_back(pick(5));
      f.kinds = k;
    }
    if (pick(3) == 0) f.tags["p"] = list(8);
    if (pick(4) == 0) f.tags["t"] = {std::string(1, static_cast<char>('a' + pick(3)))};
    if (pick(4) == 0) f.since = pick(100);
    if (pick(4) == 0) f.until = pick(100);
    idx.add(key, {f});
    all.push_back(f);
  }
  for (int n = 0; n < 2000; ++n) {
    tag_list tags;
    for (int i = pick(3); i > 0; --i) tags.push_back({"p", hex_n(pick(8))});
    if (pick(2)) tags.push_back({"t", std::string(1, static_cast<char>('a' + pick(3)))});
    if (pick(5) == 0) tags.push_back({"p"});  // a tag without a value
    event e = ev(pick(40), pick(8), pick(5), pick(100), tags);
    std::vector<std::uint32_t> want;
    for (std::uint32_t key = 0; key < all.size(); ++key)
      if (matches(all[key], e)) want.push_back(key);
    ASSERT_EQ(idx.match(e), want) << "event " << n;
  }
}
