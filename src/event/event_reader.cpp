#include "event/event_reader.hpp"

#include "json/scan.hpp"
#include "json/value.hpp"

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

using namespace json_scan;

// Validates and skips one JSON value (iteratively: no recursion to exhaust). `depth` is the number
// of containers around it; nesting beyond dom::kDefaultMaxDepth in all is refused, as dom::parse
// (and so parse_event) refuses it.
bool skip_value(cursor& c, std::size_t depth = 1) {
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
        if (depth + closers.size() >= dom::kDefaultMaxDepth) return false;
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
bool read_tags(cursor& c, tag_list& tags, const char*& err, std::size_t depth = 1) {
  tags.clear();
  err = nullptr;
  if (*c.p != '[') {
    err = "tags must be an array";
    return skip_value(c, depth);
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
            if (!skip_value(c, depth + 2)) return false;
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
      if (!skip_value(c, depth + 1)) return false;
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
    if (!skip_value(c, 0) || !at_text_end()) return top::bad_json;
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
      if (!skip_value(c, 2)) return false;
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
NOSTR_COLD bool read_int64(cursor& c, std::int64_t& out, bool& wrong, std::size_t depth = 1) {
  if (*c.p == '-' || (*c.p >= '0' && *c.p <= '9')) {
    std::int64_t v = 0;
    auto k = read_number(c, v);
    if (k == number_kind::invalid) return false;
    wrong = k != number_kind::int64;
    if (!wrong) out = v;
    return true;
  }
  wrong = true;
  return skip_value(c, depth);
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
    if (!read_int64(c, v, bad, 2)) return false;
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
  if (c.at_end() || !read_tags(c, tags, err, 0)) return json_error();
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
    if (!skip_value(c, 0)) return json_error();
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
