#include "json/value.hpp"

#include <algorithm>

#include "json/scan.hpp"

namespace nostr::dom {

namespace {

const std::string& empty_string() {
  static const std::string s;
  return s;
}
const array_t& empty_array() {
  static const array_t a;
  return a;
}
const object_t& empty_object() {
  static const object_t o;
  return o;
}
const value& null_value() {
  static const value v;
  return v;
}

// Position of key in a sorted object: the first member whose key is not less than it.
object_t::const_iterator lower(const object_t& o, std::string_view key) {
  return std::lower_bound(o.begin(), o.end(), key,
                          [](const member& m, std::string_view k) { return std::string_view(m.first) < k; });
}

// Sorts freshly parsed members by key, a later duplicate replacing the earlier (nlohmann's map).
// Stable (insertion sort for the small objects of the protocols, an event's seven members; a
// bottom-up merge sort beyond), so the last of equal keys is still last, then kept.
void normalize(object_t& o) {
  std::size_t n = o.size();
  bool ordered = true;
  for (std::size_t i = 1; i < n && ordered; ++i) ordered = o[i - 1].first < o[i].first;
  if (ordered) return;
  if (n <= 32) {
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t j = i; j > 0 && o[j].first < o[j - 1].first; --j) std::swap(o[j], o[j - 1]);
  } else {
    object_t buf(n);
    object_t* from = &o;
    object_t* to = &buf;
    for (std::size_t width = 1; width < n; width *= 2) {
      for (std::size_t lo = 0; lo < n; lo += 2 * width) {
        std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
        std::size_t i = lo, j = mid, k = lo;
        while (i < mid && j < hi) (*to)[k++] = std::move((*from)[j].first < (*from)[i].first ? (*from)[j++] : (*from)[i++]);
        while (i < mid) (*to)[k++] = std::move((*from)[i++]);
        while (j < hi) (*to)[k++] = std::move((*from)[j++]);
      }
      std::swap(from, to);
    }
    if (from != &o) o.swap(*from);
  }
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (w > 0 && o[w - 1].first == o[i].first) {
      o[w - 1].second = std::move(o[i].second);
    } else {
      if (w != i) o[w] = std::move(o[i]);
      ++w;
    }
  }
  o.resize(w);
}

}  // namespace

value::value(const std::vector<std::string>& v) : t_(value_t::array) {
  u_.a = new array_t();
  u_.a->reserve(v.size());
  for (const auto& s : v) u_.a->emplace_back(s);
}

value::value(std::initializer_list<member> members) : t_(value_t::object) {
  u_.o = new object_t(members);
  normalize(*u_.o);
}

value::value(const std::vector<std::vector<std::string>>& v) : t_(value_t::array) {
  u_.a = new array_t();
  u_.a->reserve(v.size());
  for (const auto& inner : v) u_.a->emplace_back(inner);
}

value value::object() {
  value v;
  v.t_ = value_t::object;
  v.u_.o = new object_t();
  return v;
}

value value::number_text(std::string text) {
  value v;
  v.t_ = value_t::number_float;
  v.u_.s = new std::string(std::move(text));
  return v;
}

value::value(const value& o) : t_(o.t_) {
  switch (t_) {
    case value_t::string:
    case value_t::number_float: u_.s = new std::string(*o.u_.s); break;
    case value_t::array: u_.a = new array_t(*o.u_.a); break;
    case value_t::object: u_.o = new object_t(*o.u_.o); break;
    default: u_ = o.u_;
  }
}

void value::destroy() noexcept {
  switch (t_) {
    case value_t::string:
    case value_t::number_float: delete u_.s; break;
    case value_t::array: delete u_.a; break;
    case value_t::object: delete u_.o; break;
    default: break;
  }
  t_ = value_t::null;
}

const std::string& value::str() const noexcept { return t_ == value_t::string ? *u_.s : empty_string(); }
const array_t& value::arr() const noexcept { return t_ == value_t::array ? *u_.a : empty_array(); }
const object_t& value::obj() const noexcept { return t_ == value_t::object ? *u_.o : empty_object(); }

std::size_t value::size() const noexcept {
  switch (t_) {
    case value_t::null:
    case value_t::discarded: return 0;
    case value_t::array: return u_.a->size();
    case value_t::object: return u_.o->size();
    default: return 1;
  }
}

const value& value::operator[](std::string_view key) const noexcept {
  auto it = find(key);
  return it == end() ? null_value() : *it;
}

value& value::operator[](std::string_view key) {
  if (t_ != value_t::object) *this = object();  // nlohmann throws on a non-null scalar
  object_t& o = *u_.o;
  auto pos = o.begin() + (lower(o, key) - o.cbegin());
  if (pos == o.end() || pos->first != key) pos = o.emplace(pos, std::string(key), value());
  return pos->second;
}

value::const_iterator value::begin() const noexcept {
  const_iterator it;
  if (t_ == value_t::array) it.v_ = u_.a->data();
  else if (t_ == value_t::object) it.m_ = u_.o->data();
  return it;
}

value::const_iterator value::end() const noexcept {
  const_iterator it;
  if (t_ == value_t::array) it.v_ = u_.a->data() + u_.a->size();
  else if (t_ == value_t::object) it.m_ = u_.o->data() + u_.o->size();
  return it;
}

value::const_iterator value::find(std::string_view key) const noexcept {
  if (t_ != value_t::object) return end();
  auto it = lower(*u_.o, key);
  if (it == u_.o->end() || it->first != key) return end();
  const_iterator out;
  out.m_ = &*it;
  return out;
}

void value::push_back(value v) {
  if (t_ != value_t::array) *this = array();  // nlohmann throws on a non-null scalar
  u_.a->push_back(std::move(v));
}

bool operator==(const value& a, const value& b) noexcept {
  if (a.t_ != b.t_) return false;
  switch (a.t_) {
    case value_t::null:
    case value_t::discarded: return true;
    case value_t::boolean: return a.u_.b == b.u_.b;
    case value_t::number_integer:
    case value_t::number_unsigned: return a.u_.i == b.u_.i;
    case value_t::string:
    case value_t::number_float: return *a.u_.s == *b.u_.s;
    case value_t::array: return *a.u_.a == *b.u_.a;
    case value_t::object: return *a.u_.o == *b.u_.o;
  }
  return false;
}

// --- writing

void append_string(std::string& out, std::string_view s) {
  out.push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* e = p + s.size();
  while (p < e) {
    const unsigned char* run = p;
    while (p < e && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\') ++p;
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p == e) break;
    unsigned char c = *p;
    if (c >= 0x80) {
      std::size_t n = json_scan::utf8_len(p, e);
      if (n) {
        out.append(reinterpret_cast<const char*>(p), n);
        p += n;
        continue;
      }
      // Ill-formed: one U+FFFD for the maximal prefix of a valid sequence (or the lone byte),
      // then go on at the byte that broke it, as nlohmann's replace handler does.
      std::size_t k = 1;
      for (; k < 4 && p + k < e; ++k) {
        unsigned char lo = 0x80, hi = 0xBF;
        if (k == 1) {
          if (c == 0xE0) lo = 0xA0;
          else if (c == 0xED) hi = 0x9F;
          else if (c == 0xF0) lo = 0x90;
          else if (c == 0xF4) hi = 0x8F;
        }
        std::size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c < 0xC2 || c > 0xF4 || k >= want || p[k] < lo || p[k] > hi) break;
      }
      out += "\xEF\xBF\xBD";
      p += k;
      continue;
    }
    ++p;
    json_scan::append_escape(out, c);
  }
  out.push_back('"');
}

namespace {

void append_uint(std::string& out, std::uint64_t v) {
  char buf[20];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) out.push_back(buf[--n]);
}

void write(std::string& out, const value& v) {
  switch (v.type()) {
    case value_t::null:
    case value_t::discarded: out += "null"; break;  // nlohmann writes <discarded>; never dumped here
    case value_t::boolean: out += v.get<bool>() ? "true" : "false"; break;
    case value_t::number_unsigned: append_uint(out, v.get<std::uint64_t>()); break;
    case value_t::number_integer: {
      std::int64_t i = v.get<std::int64_t>();
      if (i < 0) {
        out.push_back('-');
        append_uint(out, 0 - static_cast<std::uint64_t>(i));
      } else {
        append_uint(out, static_cast<std::uint64_t>(i));
      }
      break;
    }
    case value_t::number_float: out += v.number_source(); break;
    case value_t::string: append_string(out, v.str()); break;
    case value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& e : v.arr()) {
        if (!first) out.push_back(',');
        first = false;
        write(out, e);
      }
      out.push_back(']');
      break;
    }
    case value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& m : v.obj()) {
        if (!first) out.push_back(',');
        first = false;
        append_string(out, m.first);
        out.push_back(':');
        write(out, m.second);
      }
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

void value::dump_to(std::string& out) const { write(out, *this); }

std::string value::dump() const {
  std::string out;
  write(out, *this);
  return out;
}

// --- parsing

class parser {
 public:
  static value run(std::string_view text, std::size_t max_depth);
};

value parser::run(std::string_view text, std::size_t max_depth) {
  using namespace json_scan;
  cursor c{reinterpret_cast<const u8*>(text.data()), reinterpret_cast<const u8*>(text.data()) + text.size()};
  if (text.size() >= 3 && c.p[0] == 0xEF && c.p[1] == 0xBB && c.p[2] == 0xBF) c.p += 3;
  value root;
  // The open containers, innermost last. A pointer stays valid: only the innermost container
  // grows, and its own slot in its parent does not move while it is open.
  std::vector<value*> open;
  value* slot = &root;  // where the next value goes
  for (;;) {
    c.ws();
    if (c.at_end()) return value::discarded();
    u8 ch = *c.p;
    bool opened = false;
    if (ch == '{' || ch == '[') {
      if (open.size() >= max_depth) return value::discarded();
      ++c.p;
      *slot = ch == '{' ? value::object() : value::array();
      open.push_back(slot);
      c.ws();
      u8 close = ch == '{' ? '}' : ']';
      if (c.p < c.e && *c.p == close) {
        ++c.p;
        open.pop_back();
      } else {
        opened = true;
      }
    } else if (ch == '"') {
      std::string s;
      if (!read_string(c, &s)) return value::discarded();
      *slot = value(std::move(s));
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
      const u8* start = c.p;
      std::int64_t n = 0;
      auto k = read_number(c, n);
      if (k == number_kind::invalid) return value::discarded();
      if (k == number_kind::int64) {
        *slot = value(static_cast<long long>(n));
        if (*start == '-') slot->t_ = value_t::number_integer;  // -0 too, as nlohmann
      } else {
        // Integers beyond int64: uint64 when they fit (nlohmann's number_unsigned), else float.
        bool is_int = true;
        std::uint64_t mag = 0;
        bool fits = *start != '-';
        for (const u8* q = start; q < c.p; ++q) {
          if (*q < '0' || *q > '9') {
            if (*q != '-') is_int = false;
            continue;
          }
          std::uint64_t d = *q - '0';
          if (mag > (UINT64_MAX - d) / 10) fits = false;
          mag = mag * 10 + d;
        }
        if (is_int && fits) *slot = value(static_cast<unsigned long long>(mag));
        else *slot = value::number_text(std::string(reinterpret_cast<const char*>(start), static_cast<std::size_t>(c.p - start)));
      }
    } else if (read_literal(c, "true")) {
      *slot = value(true);
    } else if (read_literal(c, "false")) {
      *slot = value(false);
    } else if (read_literal(c, "null")) {
      *slot = value();
    } else {
      return value::discarded();
    }
    if (!opened) {
      // A value is complete: close containers, or move on to the next element or member.
      for (;;) {
        if (open.empty()) {
          c.ws();
          if (!c.at_end() && *c.p != 0) return value::discarded();
          return root;
        }
        value& top = *open.back();
        c.ws();
        if (c.at_end()) return value::discarded();
        u8 next = *c.p++;
        bool is_obj = top.t_ == value_t::object;
        if (next == ',') break;
        if (next != (is_obj ? '}' : ']')) return value::discarded();
        if (is_obj) normalize(*top.u_.o);
        open.pop_back();
      }
    }
    // The next element or member of the innermost container (the first one when just opened).
    value& top = *open.back();
    if (top.t_ == value_t::array) {
      top.u_.a->emplace_back();
      slot = &top.u_.a->back();
    } else {
      c.ws();
      std::string key;
      if (!read_string(c, &key)) return value::discarded();
      c.ws();
      if (c.at_end() || *c.p++ != ':') return value::discarded();
      top.u_.o->emplace_back(std::move(key), value());
      slot = &top.u_.o->back().second;
    }
  }
}

value parse(std::string_view text, std::size_t max_depth) { return parser::run(text, max_depth); }

// --- numbers

bool integer_value(const value& v, std::int64_t& out) noexcept {
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    out = u > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(u);
    return true;
  }
  if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
    return true;
  }
  if (!v.is_number_float()) return false;
  // The exact value of the text: digits d1..dn with the decimal point after `point` of them,
  // times 10^exp. Integral when no nonzero digit sits after the point.
  const std::string& t = v.number_source();
  std::size_t i = 0;
  bool neg = i < t.size() && t[i] == '-';
  if (neg) ++i;
  std::string digits;
  std::int64_t point = 0;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, ++point) digits.push_back(t[i]);
  if (i < t.size() && t[i] == '.')
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) digits.push_back(t[i]);
  std::int64_t exp = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool eneg = i < t.size() && t[i] == '-';
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    for (; i < t.size(); ++i)
      if (exp < 1000000000) exp = exp * 10 + (t[i] - '0');
    if (eneg) exp = -exp;
  }
  // Drop leading zeros (moving the point) and trailing zeros (which change nothing).
  std::size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0') ++lead;
  digits.erase(0, lead);
  point -= static_cast<std::int64_t>(lead);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  if (digits.empty()) {
    out = 0;
    return true;
  }
  std::int64_t int_digits = point + exp;  // digits before the point of the value
  if (int_digits < static_cast<std::int64_t>(digits.size())) return false;  // a nonzero fraction
  if (int_digits > 19) {
    out = neg ? INT64_MIN : INT64_MAX;
    return true;
  }
  std::uint64_t mag = 0;
  bool over = false;
  for (std::int64_t k = 0; k < int_digits; ++k) {
    std::uint64_t d = k < static_cast<std::int64_t>(digits.size()) ? static_cast<std::uint64_t>(digits[k] - '0') : 0;
    if (mag > (UINT64_MAX - d) / 10) over = true;
    mag = mag * 10 + d;
  }
  if (neg) out = over || mag > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MIN : -static_cast<std::int64_t>(mag);
  else out = over || mag > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(mag);
  return true;
}

}  // namespace nostr::dom
