#include "event/event_reader.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// The filter, template and tag-list readers run once per call, not per event of a feed: built
// for size (clang's minsize) inside this -O3 file, where read_event is the hot path.
#if defined(__clang__)
#define NOSTR_COLD __attribute__((minsize))
#else
#define NOSTR_COLD
#endif

namespace nostr {
namespace {

using u8 = unsigned char;

struct cursor {
  const u8* p;
  const u8* e;

  void ws() {
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  bool at_end() const { return p >= e; }
};

int hex_digit(u8 c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(cursor& c, std::uint32_t& out) {
  if (c.e - c.p < 4) return false;
  out = 0;
  for (int i = 0; i < 4; ++i) {
    int d = hex_digit(c.p[i]);
    if (d < 0) return false;
    out = (out << 4) | static_cast<std::uint32_t>(d);
  }
  c.p += 4;
  return true;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Length of the well-formed UTF-8 sequence at p (RFC 3629 table: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0.
std::size_t utf8_len(const u8* p, const u8* e) {
  auto in = [&](std::size_t i, u8 lo, u8 hi) { return p + i < e && p[i] >= lo && p[i] <= hi; };
  u8 b = p[0];
  if (b >= 0xC2 && b <= 0xDF) return in(1, 0x80, 0xBF) ? 2 : 0;
  if (b == 0xE0) return in(1, 0xA0, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
  if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
  if (b == 0xED) return in(1, 0x80, 0x9F) && in(2, 0x80, 0xBF) ? 3 : 0;
  if (b == 0xF0) return in(1, 0x90, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  if (b >= 0xF1 && b <= 0xF3) return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  if (b == 0xF4) return in(1, 0x80, 0x8F) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  return 0;
}

// A JSON string starting at c.p (which must be '"'). Appends the decoded text to *out when out is
// not null. Plain runs (printable ASCII without quote or backslash) are copied in one piece.
bool read_string(cursor& c, std::string* out) {
  if (c.at_end() || *c.p != '"') return false;
  ++c.p;
  for (;;) {
    const u8* run = c.p;
    while (c.p < c.e && *c.p >= 0x20 && *c.p < 0x80 && *c.p != '"' && *c.p != '\\') ++c.p;
    if (out && c.p != run) out->append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(c.p - run));
    if (c.at_end()) return false;
    u8 ch = *c.p;
    if (ch == '"') {
      ++c.p;
      return true;
    }
    if (ch < 0x20) return false;  // control characters must be escaped
    if (ch >= 0x80) {
      std::size_t n = utf8_len(c.p, c.e);
      if (n == 0) return false;
      if (out) out->append(reinterpret_cast<const char*>(c.p), n);
      c.p += n;
      continue;
    }
    // backslash
    ++c.p;
    if (c.at_end()) return false;
    u8 esc = *c.p++;
    char plain = 0;
    switch (esc) {
      case '"': plain = '"'; break;
      case '\\': plain = '\\'; break;
      case '/': plain = '/'; break;
      case 'b': plain = '\b'; break;
      case 'f': plain = '\f'; break;
      case 'n': plain = '\n'; break;
      case 'r': plain = '\r'; break;
      case 't': plain = '\t'; break;
      case 'u': {
        std::uint32_t cp;
        if (!read_hex4(c, cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate must follow a high one
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t lo;
          if (c.e - c.p < 2 || c.p[0] != '\\' || c.p[1] != 'u') return false;
          c.p += 2;
          if (!read_hex4(c, lo) || lo < 0xDC00 || lo > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        if (out) append_utf8(*out, cp);
        continue;
      }
      default: return false;
    }
    if (out) out->push_back(plain);
  }
}

enum class number_kind { invalid, int64, other };

// Whether strtod (correctly rounded, to nearest even) turns the JSON number token [p, e) into
// infinity: exactly when its magnitude is at least 2^1024 - 2^970, the midpoint between DBL_MAX
// and 2^1024 (a tie rounds to the even 2^1024). Decided on the decimal digits, without strtod and
// the float-parsing code it brings into the wasm module.
bool overflows_double(const u8* p, const u8* e) {
  // 2^1024 - 2^970: 309 digits, so the value is 0.kLimit x 10^309.
  static constexpr char kLimit[] =
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207"
      "096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764"
      "475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177"
      "904174497792";
  static_assert(sizeof kLimit - 1 == 309, "2^1024 - 2^970 has 309 digits");
  if (p < e && *p == '-') ++p;
  const u8* int_begin = p;
  while (p < e && *p >= '0' && *p <= '9') ++p;
  const u8* int_end = p;
  const u8* frac_begin = p;
  const u8* frac_end = p;
  if (p < e && *p == '.') {
    frac_begin = ++p;
    while (p < e && *p >= '0' && *p <= '9') ++p;
    frac_end = p;
  }
  std::int64_t exp = 0;
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    bool neg = false;
    if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
    for (; p < e && *p >= '0' && *p <= '9'; ++p)
      if (exp < 1000000000) exp = exp * 10 + (*p - '0');  // saturates far beyond any decision
    if (neg) exp = -exp;
  }
  // The significant digits: from the first nonzero one, through the integer then the fraction.
  std::string digits;
  std::int64_t point = 0;  // the value is 0.digits x 10^(point + exp)
  for (const u8* q = int_begin; q < int_end; ++q) {
    if (digits.empty() && *q == '0') continue;
    digits.push_back(static_cast<char>(*q));
    if (digits.size() > sizeof kLimit) break;  // enough to decide; the count goes on below
  }
  if (!digits.empty()) {
    point = static_cast<std::int64_t>(int_end - int_begin);
    for (const u8* q = int_begin; q < int_end && *q == '0'; ++q) --point;
  }
  for (const u8* q = frac_begin; q < frac_end && digits.size() <= sizeof kLimit; ++q) {
    if (digits.empty()) {
      if (*q == '0') {
        --point;
        continue;
      }
    }
    digits.push_back(static_cast<char>(*q));
  }
  if (digits.empty()) return false;  // zero
  std::int64_t magnitude = point + exp;
  if (magnitude != 309) return magnitude > 309;
  for (std::size_t i = 0; i < digits.size() || i < sizeof kLimit - 1; ++i) {
    char d = i < digits.size() ? digits[i] : '0';
    char l = i < sizeof kLimit - 1 ? kLimit[i] : '0';
    if (d != l) return d > l;
  }
  return true;  // exactly the midpoint
}

// A JSON number; `v` is set when it is an integer that fits int64 (what parse_event's integer
// fields accept: nlohmann's number_integer, or number_unsigned up to INT64_MAX).
number_kind read_number(cursor& c, std::int64_t& v) {
  const u8* start = c.p;
  bool neg = false;
  if (c.p < c.e && *c.p == '-') {
    neg = true;
    ++c.p;
  }
  if (c.at_end() || *c.p < '0' || *c.p > '9') return number_kind::invalid;
  std::uint64_t mag = 0;
  bool overflow = false;
  if (*c.p == '0') {
    ++c.p;
  } else {
    while (c.p < c.e && *c.p >= '0' && *c.p <= '9') {
      std::uint64_t d = *c.p++ - '0';
      if (mag > (UINT64_MAX - d) / 10) overflow = true;
      mag = mag * 10 + d;
    }
  }
  bool integer = true;
  if (c.p < c.e && *c.p == '.') {
    integer = false;
    ++c.p;
    if (c.at_end() || *c.p < '0' || *c.p > '9') return number_kind::invalid;
    while (c.p < c.e && *c.p >= '0' && *c.p <= '9') ++c.p;
  }
  if (c.p < c.e && (*c.p == 'e' || *c.p == 'E')) {
    integer = false;
    ++c.p;
    if (c.p < c.e && (*c.p == '+' || *c.p == '-')) ++c.p;
    if (c.at_end() || *c.p < '0' || *c.p > '9') return number_kind::invalid;
    while (c.p < c.e && *c.p >= '0' && *c.p <= '9') ++c.p;
  }
  if (!integer || overflow) {
    // nlohmann reads these as doubles and rejects the ones that overflow to infinity.
    return overflows_double(start, c.p) ? number_kind::invalid : number_kind::other;
  }
  if (neg) {
    if (mag > static_cast<std::uint64_t>(INT64_MAX) + 1) return number_kind::other;
    v = mag == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(mag);
    return number_kind::int64;
  }
  if (mag > static_cast<std::uint64_t>(INT64_MAX)) return number_kind::other;
  v = static_cast<std::int64_t>(mag);
  return number_kind::int64;
}

bool read_literal(cursor& c, std::string_view word) {
  if (static_cast<std::size_t>(c.e - c.p) < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (c.p[i] != static_cast<u8>(word[i])) return false;
  c.p += word.size();
  return true;
}

// Validates and skips one JSON value of any depth (iteratively: no recursion to exhaust).
bool skip_value(cursor& c) {
  std::string closers;  // the closing bracket each open container expects
  for (;;) {
    c.ws();
    if (c.at_end()) return false;
    u8 ch = *c.p;
    if (ch == '{' || ch == '[') {
      ++c.p;
      c.ws();
      u8 close = ch == '{' ? '}' : ']';
      if (c.p < c.e && *c.p == close) {
        ++c.p;
      } else {
        closers.push_back(static_cast<char>(close));
        if (close == '}') {
          if (!read_string(c, nullptr)) return false;
          c.ws();
          if (c.at_end() || *c.p++ != ':') return false;
        }
        continue;  // the first member's value
      }
    } else if (ch == '"') {
      if (!read_string(c, nullptr)) return false;
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
      std::int64_t ignored;
      if (read_number(c, ignored) == number_kind::invalid) return false;
    } else if (!read_literal(c, "true") && !read_literal(c, "false") && !read_literal(c, "null")) {
      return false;
    }
    // A value is complete: close containers, or move to the next member.
    for (;;) {
      if (closers.empty()) return true;
      c.ws();
      if (c.at_end()) return false;
      if (*c.p == ',') {
        ++c.p;
        if (closers.back() == '}') {
          c.ws();
          if (!read_string(c, nullptr)) return false;
          c.ws();
          if (c.at_end() || *c.p++ != ':') return false;
        }
        break;
      }
      if (*c.p != static_cast<u8>(closers.back())) return false;
      ++c.p;
      closers.pop_back();
    }
  }
}

enum class field { missing, wrong, ok };

// The tags value: an array of arrays of strings. `err` keeps the first shape error in document
// order (tags_from_json's messages); JSON syntax errors return false.
bool read_tags(cursor& c, tag_list& tags, const char*& err) {
  tags.clear();
  err = nullptr;
  if (*c.p != '[') {
    err = "tags must be an array";
    return skip_value(c);
  }
  ++c.p;
  c.ws();
  if (c.p < c.e && *c.p == ']') {
    ++c.p;
    return true;
  }
  for (;;) {
    c.ws();
    if (c.at_end()) return false;
    if (*c.p == '[' && !err) {
      ++c.p;
      tag t;
      c.ws();
      if (c.p < c.e && *c.p == ']') {
        ++c.p;
      } else {
        for (;;) {
          c.ws();
          if (c.at_end()) return false;
          if (*c.p == '"' && !err) {
            std::string v;
            if (!read_string(c, &v)) return false;
            t.push_back(std::move(v));
          } else {
            if (!err) err = "tag values must be strings";
            if (!skip_value(c)) return false;
          }
          c.ws();
          if (c.at_end()) return false;
          if (*c.p == ',') {
            ++c.p;
            continue;
          }
          if (*c.p++ != ']') return false;
          break;
        }
      }
      if (!err) tags.push_back(std::move(t));
    } else {
      if (!err) err = "each tag must be an array";
      if (!skip_value(c)) return false;
    }
    c.ws();
    if (c.at_end()) return false;
    if (*c.p == ',') {
      ++c.p;
      continue;
    }
    if (*c.p++ != ']') return false;
    return true;
  }
}

error json_error() { return make_error(errc::invalid_json, "event is not valid JSON"); }

enum class top { object, not_object, bad_json };

// One JSON text that should be an object, with parse_json's framing (a leading byte order mark is
// skipped, a NUL byte where a token may start ends the input). member(key) is called with the
// cursor at each member's value (whitespace skipped, not at the end) and must consume it, returning
// false on a syntax error. Later duplicates of a key are seen last, so the last one wins.
template <class F>
NOSTR_COLD top read_object(std::string_view json, F&& member) {
  cursor c{reinterpret_cast<const u8*>(json.data()), reinterpret_cast<const u8*>(json.data()) + json.size()};
  if (json.size() >= 3 && c.p[0] == 0xEF && c.p[1] == 0xBB && c.p[2] == 0xBF) c.p += 3;
  auto at_text_end = [&] {
    c.ws();
    return c.at_end() || *c.p == 0;
  };
  c.ws();
  if (c.at_end()) return top::bad_json;
  if (*c.p != '{') {
    if (!skip_value(c) || !at_text_end()) return top::bad_json;
    return top::not_object;
  }
  ++c.p;
  c.ws();
  if (c.p < c.e && *c.p == '}') {
    ++c.p;
  } else {
    std::string key;
    for (;;) {
      c.ws();
      key.clear();
      if (!read_string(c, &key)) return top::bad_json;
      c.ws();
      if (c.at_end() || *c.p++ != ':') return top::bad_json;
      c.ws();
      if (c.at_end()) return top::bad_json;
      if (!member(c, key)) return top::bad_json;
      c.ws();
      if (c.at_end()) return top::bad_json;
      if (*c.p == ',') {
        ++c.p;
        continue;
      }
      if (*c.p++ != '}') return top::bad_json;
      break;
    }
  }
  return at_text_end() ? top::object : top::bad_json;
}

// An array of strings into out; `wrong` when the value is another shape (it is still validated).
NOSTR_COLD bool read_string_list(cursor& c, std::vector<std::string>& out, bool& wrong) {
  out.clear();
  wrong = false;
  if (*c.p != '[') {
    wrong = true;
    return skip_value(c);
  }
  ++c.p;
  c.ws();
  if (c.p < c.e && *c.p == ']') {
    ++c.p;
    return true;
  }
  for (;;) {
    c.ws();
    if (c.at_end()) return false;
    if (*c.p == '"' && !wrong) {
      std::string v;
      if (!read_string(c, &v)) return false;
      out.push_back(std::move(v));
    } else {
      wrong = true;
      if (!skip_value(c)) return false;
    }
    c.ws();
    if (c.at_end()) return false;
    if (*c.p == ',') {
      ++c.p;
      continue;
    }
    return *c.p++ == ']';
  }
}

// An integer that fits int64 (a JSON integer, as nlohmann's number_integer or a number_unsigned up
// to INT64_MAX); `wrong` for any other value.
NOSTR_COLD bool read_int64(cursor& c, std::int64_t& out, bool& wrong) {
  if (*c.p == '-' || (*c.p >= '0' && *c.p <= '9')) {
    std::int64_t v = 0;
    auto k = read_number(c, v);
    if (k == number_kind::invalid) return false;
    wrong = k != number_kind::int64;
    if (!wrong) out = v;
    return true;
  }
  wrong = true;
  return skip_value(c);
}

// An array of such integers.
NOSTR_COLD bool read_int_list(cursor& c, std::vector<std::int64_t>& out, bool& wrong) {
  out.clear();
  wrong = false;
  if (*c.p != '[') {
    wrong = true;
    return skip_value(c);
  }
  ++c.p;
  c.ws();
  if (c.p < c.e && *c.p == ']') {
    ++c.p;
    return true;
  }
  for (;;) {
    c.ws();
    if (c.at_end()) return false;
    std::int64_t v = 0;
    bool bad = false;
    if (!read_int64(c, v, bad)) return false;
    if (bad) wrong = true;
    else if (!wrong) out.push_back(v);
    c.ws();
    if (c.at_end()) return false;
    if (*c.p == ',') {
      ++c.p;
      continue;
    }
    return *c.p++ == ']';
  }
}

}  // namespace

NOSTR_COLD result<filter> read_filter(std::string_view json) {
  // filter_from_json walks the members of nlohmann's std::map, i.e. in sorted key order, and
  // reports the first wrong one: every key's last value is kept, then checked in that order
  // ("#x" keys sort before the lowercase names).
  struct strings {
    bool present = false, wrong = false;
    std::vector<std::string> v;
  };
  struct integer {
    bool present = false, wrong = false;
    std::int64_t v = 0;
  };
  strings ids, authors;
  bool kinds_present = false, kinds_wrong = false;
  std::vector<std::int64_t> kinds;
  integer since, until, limit;
  std::map<std::string, strings> tags;
  auto r = read_object(json, [&](cursor& c, const std::string& key) {
    if (key == "ids" || key == "authors") {
      strings& s = key == "ids" ? ids : authors;
      s.present = true;
      return read_string_list(c, s.v, s.wrong);
    }
    if (key == "kinds") {
      kinds_present = true;
      return read_int_list(c, kinds, kinds_wrong);
    }
    if (key == "since" || key == "until" || key == "limit") {
      integer& n = key == "since" ? since : key == "until" ? until : limit;
      n.present = true;
      return read_int64(c, n.v, n.wrong);
    }
    if (key.size() == 2 && key[0] == '#') {
      strings& s = tags[key];
      s.present = true;
      return read_string_list(c, s.v, s.wrong);
    }
    return skip_value(c);
  });
  if (r == top::bad_json) return make_error(errc::invalid_json, "filter is not valid JSON");
  if (r == top::not_object) return make_error(errc::invalid_filter, "filter must be a JSON object");
  filter f;
  for (auto& [key, s] : tags) {
    if (s.wrong) return make_error(errc::invalid_filter, key + " must be an array of strings");
    f.tags[key.substr(1)] = std::move(s.v);
  }
  if (authors.wrong) return make_error(errc::invalid_filter, "authors must be an array of strings");
  if (authors.present) f.authors = std::move(authors.v);
  if (ids.wrong) return make_error(errc::invalid_filter, "ids must be an array of strings");
  if (ids.present) f.ids = std::move(ids.v);
  if (kinds_wrong) return make_error(errc::invalid_filter, "kinds must be an array of integers");
  if (kinds_present) f.kinds = std::move(kinds);
  if (limit.wrong) return make_error(errc::invalid_filter, "limit must be an integer");
  if (limit.present) f.limit = limit.v;
  if (since.wrong) return make_error(errc::invalid_filter, "since must be an integer");
  if (since.present) f.since = since.v;
  if (until.wrong) return make_error(errc::invalid_filter, "until must be an integer");
  if (until.present) f.until = until.v;
  return f;
}

NOSTR_COLD result<event_template> read_template(std::string_view json) {
  event_template t;
  bool kind = false, created_at = false, content = false, tags = false;
  const char* tags_err = nullptr;
  auto r = read_object(json, [&](cursor& c, const std::string& key) {
    if (key == "kind" || key == "created_at") {
      bool& state = key == "kind" ? kind : created_at;
      bool wrong = false;
      if (!read_int64(c, key == "kind" ? t.kind : t.created_at, wrong)) return false;
      state = !wrong;
      return true;
    }
    if (key == "content") {
      if (*c.p != '"') {
        content = false;
        return skip_value(c);
      }
      t.content.clear();
      content = read_string(c, &t.content);
      return content;
    }
    if (key == "tags") {
      tags = true;
      return read_tags(c, t.tags, tags_err);
    }
    return skip_value(c);
  });
  if (r != top::object) return make_error(errc::invalid_event, "template must be a JSON object");
  if (!kind || !created_at || !content || !tags)
    return make_error(errc::invalid_event, "template needs kind, created_at, tags and content");
  if (tags_err) return make_error(errc::invalid_event, tags_err);
  if (t.kind < 0 || t.kind > 65535 || t.created_at < 0)
    return make_error(errc::invalid_event, "kind or created_at out of range");
  return t;
}

NOSTR_COLD result<tag_list> read_tag_list(std::string_view json) {
  cursor c{reinterpret_cast<const u8*>(json.data()), reinterpret_cast<const u8*>(json.data()) + json.size()};
  if (json.size() >= 3 && c.p[0] == 0xEF && c.p[1] == 0xBB && c.p[2] == 0xBF) c.p += 3;
  c.ws();
  tag_list tags;
  const char* err = nullptr;
  if (c.at_end() || !read_tags(c, tags, err)) return json_error();
  c.ws();
  if (!c.at_end() && *c.p != 0) return json_error();
  if (err) return make_error(errc::invalid_event, err);
  return tags;
}

result<event> read_event(std::string_view json, bool require_sig) {
  cursor c{reinterpret_cast<const u8*>(json.data()), reinterpret_cast<const u8*>(json.data()) + json.size()};
  // Two quirks of nlohmann's lexer, kept for parity with parse_event: a leading UTF-8 byte order
  // mark is skipped, and a NUL byte where a token may start ends the input.
  if (json.size() >= 3 && c.p[0] == 0xEF && c.p[1] == 0xBB && c.p[2] == 0xBF) c.p += 3;
  auto at_text_end = [&] {
    c.ws();
    return c.at_end() || *c.p == 0;
  };
  c.ws();
  if (c.at_end()) return json_error();
  if (*c.p != '{') {
    // Valid JSON of another type is a wrong event, not bad JSON (as parse_event tells them apart).
    if (!skip_value(c)) return json_error();
    if (!at_text_end()) return json_error();
    return make_error(errc::invalid_event, "event must be a JSON object");
  }
  ++c.p;

  event e;
  field id = field::missing, pubkey = field::missing, created_at = field::missing, kind = field::missing,
        tags = field::missing, content = field::missing, sig = field::missing;
  const char* tags_err = nullptr;
  std::string key;

  auto read_text = [&](std::string& out, field& state) {
    if (*c.p == '"') {
      out.clear();
      if (!read_string(c, &out)) return false;
      state = field::ok;
      return true;
    }
    state = field::wrong;
    return skip_value(c);
  };
  auto read_int = [&](std::int64_t& out, field& state) {
    if (*c.p == '-' || (*c.p >= '0' && *c.p <= '9')) {
      std::int64_t v = 0;
      auto k = read_number(c, v);
      if (k == number_kind::invalid) return false;
      state = k == number_kind::int64 ? field::ok : field::wrong;
      if (state == field::ok) out = v;
      return true;
    }
    state = field::wrong;
    return skip_value(c);
  };

  c.ws();
  if (c.p < c.e && *c.p == '}') {
    ++c.p;
  } else {
    for (;;) {
      c.ws();
      key.clear();
      if (!read_string(c, &key)) return json_error();
      c.ws();
      if (c.at_end() || *c.p++ != ':') return json_error();
      c.ws();
      if (c.at_end()) return json_error();
      bool ok;
      if (key == "id") ok = read_text(e.id, id);
      else if (key == "pubkey") ok = read_text(e.pubkey, pubkey);
      else if (key == "content") ok = read_text(e.content, content);
      else if (key == "sig" && require_sig) ok = read_text(e.sig, sig);
      else if (key == "created_at") ok = read_int(e.created_at, created_at);
      else if (key == "kind") ok = read_int(e.kind, kind);
      else if (key == "tags") {
        ok = read_tags(c, e.tags, tags_err);
        tags = tags_err ? field::wrong : field::ok;
      } else ok = skip_value(c);
      if (!ok) return json_error();
      c.ws();
      if (c.at_end()) return json_error();
      if (*c.p == ',') {
        ++c.p;
        continue;
      }
      if (*c.p++ != '}') return json_error();
      break;
    }
  }
  if (!at_text_end()) return json_error();

  // The checks and messages of event_from_json, in its order.
  if (id != field::ok) return make_error(errc::invalid_event, "id missing or not a string");
  if (pubkey != field::ok) return make_error(errc::invalid_event, "pubkey missing or not a string");
  if (created_at != field::ok) return make_error(errc::invalid_event, "created_at missing or not an integer");
  if (kind != field::ok) return make_error(errc::invalid_event, "kind missing or not an integer");
  if (tags == field::missing) return make_error(errc::invalid_event, "tags missing");
  if (tags == field::wrong) return make_error(errc::invalid_event, tags_err);
  if (content != field::ok) return make_error(errc::invalid_event, "content missing or not a string");
  if (require_sig && sig != field::ok) return make_error(errc::invalid_event, "sig missing or not a string");
  return e;
}

}  // namespace nostr
