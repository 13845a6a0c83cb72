#include "event/event_reader.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

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
    std::string token(reinterpret_cast<const char*>(start), static_cast<std::size_t>(c.p - start));
    return std::isfinite(std::strtod(token.c_str(), nullptr)) ? number_kind::other : number_kind::invalid;
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

}  // namespace

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
