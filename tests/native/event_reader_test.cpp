#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "event/event.hpp"
#include "event/event_reader.hpp"

using namespace nostr;

namespace {

// read_event must agree with parse_event (nlohmann) on every input: same code, same detail, and
// the same event when both succeed.
void expect_same(const std::string& text) {
  auto a = parse_event(text);
  auto b = read_event(text);
  ASSERT_EQ(a.code(), b.code()) << "input: " << text << "\nparse_event: " << (a.ok() ? "ok" : a.err().detail)
                                << "\nread_event: " << (b.ok() ? "ok" : b.err().detail);
  if (a.ok()) {
    EXPECT_EQ(to_json(*a), to_json(*b)) << text;
  } else {
    EXPECT_EQ(a.err().detail, b.err().detail) << text;
  }
}

const std::string kId(64, 'a'), kPk(64, 'b'), kSig(128, 'c');

std::string ev(const std::string& extra_front = "", const std::string& content = "\"hi\"",
               const std::string& tags = "[[\"p\",\"x\"]]") {
  return "{" + extra_front + "\"id\":\"" + kId + "\",\"pubkey\":\"" + kPk + "\",\"created_at\":1700000000,\"kind\":1,\"tags\":" +
         tags + ",\"content\":" + content + ",\"sig\":\"" + kSig + "\"}";
}

// Deterministic xorshift for the mutation fuzz.
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }
};

}  // namespace

TEST(event_reader_test, agrees_with_parse_event_on_crafted_inputs) {
  const std::vector<std::string> cases = {
      ev(),
      ev("\"extra\":{\"a\":[1,2,{\"b\":null}],\"c\":true},"),
      ev("", "\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0000 \\u00e9 \\u20ac \\ud83d\\udc9c\""),
      ev("", "\"raw \xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\x9c\""),
      ev("", "\"bad \xc3\""),
      ev("", "\"overlong \xc0\xaf\""),
      ev("", "\"surrogate \xed\xa0\x80\""),
      ev("", "\"too high \xf4\x90\x80\x80\""),
      ev("", "\"lone low \\udc00\""),
      ev("", "\"lone high \\ud83d x\""),
      ev("", "\"high then high \\ud83d\\ud83d\""),
      ev("", "\"bad escape \\x\""),
      ev("", "\"short \\u12\""),
      ev("", "\"ctrl \x01\""),
      ev("", "\"del \x7f ok\""),
      ev("", "5"),
      ev("", "null"),
      ev("", "\"\"", "[]"),
      ev("", "\"\"", "[[]]"),
      ev("", "\"\"", "{}"),
      ev("", "\"\"", "[1]"),
      ev("", "\"\"", "[[1]]"),
      ev("", "\"\"", "[[\"a\",1],[2]]"),
      ev("", "\"\"", "[[\"a\"],\"b\"]"),
      ev("", "\"\"", "[[\"a\",[\"b\"]]]"),
      ev("\"id\":5,"),             // duplicate: the later (valid) id wins
      ev("\"tags\":7,"),           // duplicate tags: the later wins
      ev("", "\"x\",\"content\":3"),  // duplicate content: the later (wrong) wins
      ev("\"\\u0069d\":\"zz\","),  // escaped key naming "id", overridden later
      "{\"id\":\"" + kId + "\"}",
      "{}",
      "[]",
      "[1,2]",
      "\"event\"",
      "42",
      "",
      "   ",
      "{",
      "{\"id\":}",
      "{\"id\" \"x\"}",
      "{\"id\":\"x\",}",
      "{,}",
      "{\"a\":1}}",
      ev() + " ",
      ev() + "x",
      ev() + "{}",
      " \t\r\n" + ev() + " \n",
      "\xef\xbb\xbf" + ev(),
      "\xef\xbb" + ev(),
      ev() + std::string(1, '\0') + "trailing",
      std::string(1, '\0') + ev(),
      "{\"id\":\"" + kId + "\",\"pubkey\":\"" + kPk + "\",\"created_at\":-0,\"kind\":1,\"tags\":[],\"content\":\"\",\"sig\":\"\"}",
  };
  for (const auto& c : cases) expect_same(c);

  // Number forms in created_at and kind.
  const std::vector<std::string> numbers = {
      "0",    "-0",   "1",    "01",   "-",   "1.",  ".5",   "1.5",  "1e3",   "1E+3", "1e-3", "-1",
      "+1",   "1.0",  "1e",   "0x10", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
      "1e308", "1e309", "-1e400", "1e-400", "1" + std::string(400, '0'), "true", "\"1\"", "[1]", "NaN", "Infinity",
      "-Infinity", "1 2"};
  for (const auto& n : numbers) {
    expect_same("{\"id\":\"\",\"pubkey\":\"\",\"created_at\":" + n + ",\"kind\":1,\"tags\":[],\"content\":\"\",\"sig\":\"\"}");
    expect_same("{\"id\":\"\",\"pubkey\":\"\",\"created_at\":1,\"kind\":" + n + ",\"tags\":[],\"content\":\"\",\"sig\":\"\"}");
    expect_same("{\"id\":\"\",\"pubkey\":\"\",\"created_at\":1,\"kind\":1,\"tags\":[],\"content\":\"\",\"sig\":\"\",\"x\":" + n +
                "}");
  }
  // Deep nesting in an unknown field: accepted (nlohmann has no depth limit either), no recursion.
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_same(ev("\"deep\":" + deep + ","));
  expect_same(ev("\"deep\":" + std::string(100000, '[') + ","));
}

TEST(event_reader_test, agrees_with_parse_event_under_random_mutations) {
  const std::vector<std::string> seeds = {
      ev(),
      ev("\"x\":[{\"k\":\"v\",\"n\":-1.5e3},false,null],", "\"\\u00e9\\n\\ud83d\\udc9c \xe2\x82\xac\"",
         "[[\"e\",\"" + kId + "\",\"\",\"reply\"],[\"p\",\"" + kPk + "\"]]"),
      "{\"kind\":13,\"content\":\"AqBCdwoS7/tPK+QGkPCadJTn8FxGkd24iApo3BR9/M0uw6n4RFAFSPAKKMgkzVMo\",\"tags\":[],\"pubkey\":\"" + kPk +
          "\",\"id\":\"" + kId + "\",\"created_at\":1703015180,\"sig\":\"" + kSig + "\"}",
  };
  const std::string alphabet = "{}[]:,\"\\ \n0123456789-+.eEtrufalsnu\x01\x7f\xc3\xa9\xed\xa0\xf0\x9f\xef\xbb\xbf";
  rng r{0x9e3779b97f4a7c15ull};
  int ok = 0, failed = 0;
  for (int i = 0; i < 30000; ++i) {
    std::string s = seeds[r.below(seeds.size())];
    int edits = 1 + static_cast<int>(r.below(3));
    for (int k = 0; k < edits && !s.empty(); ++k) {
      std::size_t at = r.below(s.size());
      switch (r.below(4)) {
        case 0: s.erase(at, 1 + r.below(3)); break;
        case 1: s.insert(at, 1, alphabet[r.below(alphabet.size())]); break;
        case 2: s[at] = alphabet[r.below(alphabet.size())]; break;
        default: s.insert(at, s.substr(r.below(s.size()), r.below(8))); break;
      }
    }
    expect_same(s);
    if (parse_event(s).ok()) ++ok; else ++failed;
    if (HasFatalFailure()) return;
  }
  // Both outcomes were exercised.
  EXPECT_GT(ok, 500);
  EXPECT_GT(failed, 500);
}

TEST(event_reader_test, unsigned_events_need_no_sig) {
  std::string no_sig = "{\"id\":\"" + kId + "\",\"pubkey\":\"" + kPk +
                       "\",\"created_at\":1,\"kind\":1,\"tags\":[[\"p\",\"x\"]],\"content\":\"hi\"}";
  EXPECT_EQ(read_event(no_sig).code(), errc::invalid_event);
  auto r = read_event(no_sig, /*require_sig=*/false);
  ASSERT_TRUE(r.ok()) << r.err().detail;
  EXPECT_EQ(r->content, "hi");
  EXPECT_TRUE(r->sig.empty());
  // A sig present in an unsigned event is ignored whatever its type, but must still be valid JSON.
  auto with_sig = read_event(ev(), false);
  ASSERT_TRUE(with_sig.ok());
  EXPECT_TRUE(with_sig->sig.empty());
  EXPECT_TRUE(read_event(no_sig.substr(0, no_sig.size() - 1) + ",\"sig\":[1,{}]}", false).ok());
  EXPECT_EQ(read_event(no_sig.substr(0, no_sig.size() - 1) + ",\"sig\":[1,}", false).code(), errc::invalid_json);
  EXPECT_EQ(read_event("{\"pubkey\":\"" + kPk + "\"}", false).err().detail, "id missing or not a string");
}
