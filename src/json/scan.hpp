// The byte-level pieces of JSON reading shared by the DOM parser (json/value.cpp) and the DOM-free
// event reader (event/event_reader.cpp): a cursor, RFC 8259 strings (UTF-8 validated, escapes
// decoded, surrogate pairs joined), numbers (int64 exactly; the rest validated, and refused when
// strtod would overflow them to infinity, as nlohmann/json does), literals. No strtod, no printf.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace nostr::json_scan {

using u8 = unsigned char;

struct cursor {
  const u8* p;
  const u8* e;

  void ws() {
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  bool at_end() const { return p >= e; }
};

// Appends the escape of a byte JSON strings must escape (a control character, '"' or '\\'):
// the short forms where JSON has one, \u00XX otherwise. The NIP-01 id serialization and the DOM
// writer escape alike.
inline void append_escape(std::string& out, u8 c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    default:
      out += "\\u00";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
  }
}

inline int hex_digit(u8 c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline bool read_hex4(cursor& c, std::uint32_t& out) {
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

inline void append_utf8(std::string& out, std::uint32_t cp) {
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
inline std::size_t utf8_len(const u8* p, const u8* e) {
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
inline bool read_string(cursor& c, std::string* out) {
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
inline bool overflows_double(const u8* p, const u8* e) {
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
inline number_kind read_number(cursor& c, std::int64_t& v) {
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

inline bool read_literal(cursor& c, std::string_view word) {
  if (static_cast<std::size_t>(c.e - c.p) < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (c.p[i] != static_cast<u8>(word[i])) return false;
  c.p += word.size();
  return true;
}

}  // namespace nostr::json_scan
