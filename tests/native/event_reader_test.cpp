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

// --- read_filter, read_template, read_tag_list against the nlohmann versions they replaced.
#include "event/event_json.hpp"
#include "event/filter.hpp"

namespace {

void expect_same_filter(const std::string& text) {
  auto j = parse_json(text);
  result<filter> a = j.is_discarded() ? result<filter>(make_error(errc::invalid_json, "filter is not valid JSON"))
                                      : filter_from_json(j);
  auto b = read_filter(text);
  ASSERT_EQ(a.code(), b.code()) << "input: " << text << "\nnlohmann: " << (a.ok() ? "ok" : a.err().detail)
                                << "\nread_filter: " << (b.ok() ? "ok" : b.err().detail);
  if (a.ok()) EXPECT_EQ(to_json(*a), to_json(*b)) << text;
  else EXPECT_EQ(a.err().detail, b.err().detail) << text;
}

// The template reader the NIP-59 bindings used before read_template (nlohmann DOM).
result<event_template> template_reference(const std::string& text) {
  auto j = parse_json(text);
  if (j.is_discarded() || !j.is_object()) return make_error(errc::invalid_event, "template must be a JSON object");
  auto get_int = [&](const char* key, bool& ok) -> std::int64_t {
    auto it = j.find(key);
    if (it == j.end() || !(it->is_number_integer() || it->is_number_unsigned()) ||
        (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))) {
      ok = false;
      return 0;
    }
    return it->get<std::int64_t>();
  };
  event_template t;
  bool ok = true;
  t.kind = get_int("kind", ok);
  t.created_at = get_int("created_at", ok);
  auto content = j.find("content");
  auto tags = j.find("tags");
  if (!ok || content == j.end() || !content->is_string() || tags == j.end())
    return make_error(errc::invalid_event, "template needs kind, created_at, tags and content");
  auto tl = tags_from_json(*tags);
  if (!tl) return tl.err();
  t.tags = std::move(*tl);
  t.content = content->get_ref<const std::string&>();
  if (t.kind < 0 || t.kind > 65535 || t.created_at < 0)
    return make_error(errc::invalid_event, "kind or created_at out of range");
  return t;
}

void expect_same_template(const std::string& text) {
  auto a = template_reference(text);
  auto b = read_template(text);
  ASSERT_EQ(a.code(), b.code()) << "input: " << text << "\nnlohmann: " << (a.ok() ? "ok" : a.err().detail)
                                << "\nread_template: " << (b.ok() ? "ok" : b.err().detail);
  if (a.ok()) {
    EXPECT_EQ(a->kind, b->kind) << text;
    EXPECT_EQ(a->created_at, b->created_at) << text;
    EXPECT_EQ(a->tags, b->tags) << text;
    EXPECT_EQ(a->content, b->content) << text;
  } else {
    EXPECT_EQ(a.err().detail, b.err().detail) << text;
  }
}

void expect_same_tag_list(const std::string& text) {
  auto j = parse_json(text);
  result<tag_list> a = j.is_discarded() ? result<tag_list>(make_error(errc::invalid_json, "event is not valid JSON"))
                                        : tags_from_json(j);
  auto b = read_tag_list(text);
  ASSERT_EQ(a.code(), b.code()) << "input: " << text;
  if (a.ok()) EXPECT_EQ(*a, *b) << text;
  else EXPECT_EQ(a.err().detail, b.err().detail) << text;
}

// Mutates the seeds; check(s) compares the two readers and returns whether the input was accepted.
// Both outcomes must occur often.
template <class F>
void mutate(const std::vector<std::string>& seeds, int rounds, std::uint64_t seed, F&& check) {
  int accepted = 0, rejected = 0;
  const std::string alphabet = "{}[]:,\"\\ \n0123456789-+.eE#aeiknpstrufl\x01\xc3\xa9\xed\xa0\xef\xbb\xbf";
  rng r{seed};
  for (int i = 0; i < rounds; ++i) {
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
    (check(s) ? accepted : rejected)++;
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(accepted, rounds / 20);
  EXPECT_GT(rejected, rounds / 20);
}

}  // namespace

TEST(event_reader_test, read_filter_agrees_with_filter_from_json) {
  const std::vector<std::string> cases = {
      "{}", "[]", "1", "", "{", "{\"kinds\":[1,2]}", "{\"ids\":[\"a\"],\"authors\":[\"b\",\"c\"],\"#e\":[\"x\"],\"#p\":[]}",
      "{\"since\":1,\"until\":2,\"limit\":3}", "{\"since\":1.5}", "{\"limit\":-1}", "{\"until\":18446744073709551615}",
      "{\"kinds\":\"x\",\"authors\":5}", "{\"#e\":5,\"authors\":5}", "{\"#z\":[1],\"#a\":[2]}", "{\"kinds\":[1,\"2\"]}",
      "{\"kinds\":[1.0]}", "{\"kinds\":[1e999]}", "{\"kinds\":\"x\",\"kinds\":[1]}", "{\"kinds\":[1],\"kinds\":\"x\"}",
      "{\"#ee\":5,\"#\":5,\"x\":[1,{}],\"ids\":[]}", "{\"#\\u0000\":[\"a\"]}", "\xef\xbb\xbf{\"ids\":[\"a\"]}",
      std::string("{\"ids\":[\"a\"]}\0garbage", 21), "{\"ids\":[\"a\"]} x", "{\"ids\":[\"a\",]}", "{\"ids\":[\"\\ud800\"]}",
      "{\"until\":1,\"since\":\"x\",\"limit\":[]}", "{\"authors\":null,\"ids\":null}"};
  for (const auto& c : cases) expect_same_filter(c);
  mutate({"{\"ids\":[\"ab\",\"cd\"],\"authors\":[\"ef\"],\"kinds\":[1,7,30023],\"#e\":[\"x\",\"y\"],\"#t\":[\"nostr\"],"
          "\"since\":1700000000,\"until\":1800000000,\"limit\":10,\"search\":\"q\"}",
          "{\"kinds\":[1],\"#p\":[\"\\u00e9\"],\"x\":{\"a\":[1.5e3,null,true]}}"},
         20000, 0x1234567887654321ull, [](const std::string& s) { expect_same_filter(s); return read_filter(s).ok(); });
}

TEST(event_reader_test, read_template_and_tag_list_agree_with_nlohmann) {
  const std::vector<std::string> cases = {
      "{\"kind\":14,\"created_at\":1,\"tags\":[[\"p\",\"x\"]],\"content\":\"hi\"}",
      "{\"kind\":14,\"created_at\":1,\"tags\":[],\"content\":\"hi\",\"pubkey\":5}",
      "{\"kind\":70000,\"created_at\":1,\"tags\":[],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":-1,\"tags\":[],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":5,\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[5],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[[5]],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[[5]],\"content\":5}",
      "{\"kind\":1.5,\"created_at\":1,\"tags\":[],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[],\"content\":\"\",\"kind\":\"x\"}",
      "{\"kind\":\"x\",\"created_at\":1,\"tags\":[],\"content\":\"\",\"kind\":2}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[5],\"tags\":[],\"content\":\"\"}",
      "{\"kind\":1,\"created_at\":1,\"tags\":[],\"content\":\"\"",
      "[1]", "", "nope"};
  for (const auto& c : cases) expect_same_template(c);
  mutate({cases[0], "{\"kind\":1059,\"created_at\":1703015180,\"tags\":[[\"e\",\"a\",\"\",\"reply\"],[\"p\",\"\\u00e9\"]],"
                    "\"content\":\"\\ud83d\\udc9c\",\"extra\":[1,{\"a\":null}]}"},
         20000, 0x0f0f0f0f12345678ull, [](const std::string& s) { expect_same_template(s); return read_template(s).ok(); });

  const std::vector<std::string> tag_cases = {"[]", "[[]]", "[[\"a\",\"b\"],[\"c\"]]", "[1]", "[[1]]", "{}", "\"x\"",
                                              "[[\"a\"],5,[1]]", "[[\"a\"]", "", "\xef\xbb\xbf[]", "[] 1", std::string("[]\0x", 4)};
  for (const auto& c : tag_cases) expect_same_tag_list(c);
  mutate({"[[\"e\",\"x\",\"\",\"reply\"],[\"p\",\"\\u00e9\"],[\"t\"]]"}, 10000, 0x5555aaaa5555aaaaull,
         [](const std::string& s) { expect_same_tag_list(s); return read_tag_list(s).ok(); });
}

TEST(event_reader_test, double_overflow_boundary_matches_strtod) {
  const std::string limit =
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207"
      "096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764"
      "475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177"
      "904174497792";
  std::string below = limit;
  below.back() = '1';
  const std::vector<std::string> numbers = {
      "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1.797693134862316e308",
      limit, below, limit + ".0", below + ".99999999", "-" + limit, limit + "e0", "0." + limit + "e309",
      "0." + below + "e309", "0.0" + limit + "e310", "1" + limit.substr(1) + "0", limit + "e-1", "10e308", "0.1e310",
      "0.1e309", "0e99999", "0.000e99999999999999999999", "1e99999999999999999999", "1e-99999999999999999999",
      "0.0001e312", "0.0001e313", "-0.0", "1e0309", "17976931348623158e292", "17976931348623159e292"};
  for (const auto& n : numbers) {
    expect_same("{\"id\":\"\",\"pubkey\":\"\",\"created_at\":" + n + ",\"kind\":1,\"tags\":[],\"content\":\"\",\"sig\":\"\"}");
    expect_same_filter("{\"since\":" + n + "}");
  }
}
