// The core's JSON DOM: what the relay codec and the protocol layers read and write, in place of
// nlohmann/json (which stays in the project as the test oracle: tests/native/json_test.cpp and the
// json_diff fuzz target compare the two). The API is the subset of nlohmann's the core used, so
// callers read the same (is_string, get_ref, find, operator[], it.key(), push_back, dump...).
//
// Same meaning as nlohmann::json (parsed with exceptions off, strict, no comments):
// - objects keep their members sorted by key (nlohmann's std::map), a later duplicate key
//   replacing the earlier value; dump() writes them in that order, so text the core builds is
//   byte-identical to what nlohmann wrote;
// - numbers: a non-negative integer that fits uint64 is number_unsigned, a negative one that fits
//   int64 is number_integer, anything else (fraction, exponent, out of range) is number_float;
//   a number strtod would overflow to infinity is a parse error, as in nlohmann.
// Differences, on purpose:
// - a number_float keeps its source text and dump() writes it back byte-exact (nlohmann rewrote
//   it through a double: 1.50 -> 1.5, 1e2 -> 100.0). No strtod and no printf are linked in; a
//   float is read as a value only through integer_value() (is it an integer, which one).
// - nesting is bounded (max_depth, 512 by default); deeper text is a parse error, as malformed
//   text is. The parser is iterative (no recursion to exhaust).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nostr::dom {

class value;
using array_t = std::vector<value>;
using member = std::pair<std::string, value>;
using object_t = std::vector<member>;  // sorted by key, keys unique

enum class value_t : std::uint8_t {
  null,
  boolean,
  number_integer,   // negative, int64
  number_unsigned,  // non-negative, uint64
  number_float,     // any other number, kept as its source text
  string,
  array,
  object,
  discarded,  // the result of parsing malformed text
};

constexpr std::size_t kDefaultMaxDepth = 512;

class value {
 public:
  using value_t = ::nostr::dom::value_t;
  value() noexcept : t_(value_t::null) { u_.i = 0; }
  value(std::nullptr_t) noexcept : value() {}
  value(bool b) noexcept : t_(value_t::boolean) { u_.b = b; }
  value(int v) noexcept : value(static_cast<long long>(v)) {}
  value(long v) noexcept : value(static_cast<long long>(v)) {}
  value(long long v) noexcept : t_(v < 0 ? value_t::number_integer : value_t::number_unsigned) { u_.i = v; }
  value(unsigned v) noexcept : value(static_cast<unsigned long long>(v)) {}
  value(unsigned long v) noexcept : value(static_cast<unsigned long long>(v)) {}
  value(unsigned long long v) noexcept : t_(value_t::number_unsigned) { u_.u = v; }
  value(const char* s) : value(std::string(s)) {}
  value(std::string_view s) : value(std::string(s)) {}
  value(std::string s) : t_(value_t::string) { u_.s = new std::string(std::move(s)); }
  value(const std::vector<std::string>& v);               // an array of strings
  value(const std::vector<std::vector<std::string>>& v);  // an array of arrays of strings (tags)
  value(array_t a) : t_(value_t::array) { u_.a = new array_t(std::move(a)); }
  // An object of these members: json j = {{"ver", 1}, {"text", t}} (a repeated key: the last wins).
  value(std::initializer_list<member> members);

  static value array() { return value(array_t{}); }
  static value array(std::initializer_list<value> items) { return value(array_t(items)); }
  static value object();
  static value discarded() {
    value v;
    v.t_ = value_t::discarded;
    return v;
  }
  // A number_float from its JSON text (trusted to be a valid JSON number).
  static value number_text(std::string text);

  value(const value& o);
  value(value&& o) noexcept : t_(o.t_), u_(o.u_) {
    o.t_ = value_t::null;
    o.u_.i = 0;
  }
  value& operator=(const value& o) {
    if (this != &o) *this = value(o);
    return *this;
  }
  value& operator=(value&& o) noexcept {
    if (this != &o) {
      destroy();
      t_ = o.t_;
      u_ = o.u_;
      o.t_ = value_t::null;
      o.u_.i = 0;
    }
    return *this;
  }
  ~value() { destroy(); }

  value_t type() const noexcept { return t_; }
  bool is_null() const noexcept { return t_ == value_t::null; }
  bool is_boolean() const noexcept { return t_ == value_t::boolean; }
  bool is_number() const noexcept {
    return t_ == value_t::number_integer || t_ == value_t::number_unsigned || t_ == value_t::number_float;
  }
  // As nlohmann: true for number_unsigned too.
  bool is_number_integer() const noexcept { return t_ == value_t::number_integer || t_ == value_t::number_unsigned; }
  bool is_number_unsigned() const noexcept { return t_ == value_t::number_unsigned; }
  bool is_number_float() const noexcept { return t_ == value_t::number_float; }
  bool is_string() const noexcept { return t_ == value_t::string; }
  bool is_array() const noexcept { return t_ == value_t::array; }
  bool is_object() const noexcept { return t_ == value_t::object; }
  bool is_discarded() const noexcept { return t_ == value_t::discarded; }

  // Typed reads; the caller checks the type first (a wrong type reads as false / 0 / "").
  template <class T>
  T get() const;
  template <class T>
  T get_ref() const {
    static_assert(std::is_same_v<T, const std::string&>, "get_ref reads strings only");
    return str();
  }
  const std::string& str() const noexcept;
  const array_t& arr() const noexcept;
  const object_t& obj() const noexcept;
  // The source text of a number_float (empty otherwise).
  const std::string& number_source() const noexcept { return t_ == value_t::number_float ? *u_.s : str(); }

  // Elements of an array, members of an object; 0 for null, 1 for other scalars (as nlohmann).
  std::size_t size() const noexcept;
  bool empty() const noexcept { return size() == 0; }

  // Array element i (i < size()).
  const value& operator[](std::size_t i) const noexcept { return (*u_.a)[i]; }
  value& operator[](std::size_t i) noexcept { return (*u_.a)[i]; }
  value& operator[](int i) noexcept { return (*u_.a)[static_cast<std::size_t>(i)]; }
  const value& operator[](int i) const noexcept { return (*u_.a)[static_cast<std::size_t>(i)]; }
  // Object member; a missing one reads as null (const) or is inserted as null (non-const, which
  // also turns a null into an empty object first, as nlohmann).
  const value& operator[](std::string_view key) const noexcept;
  value& operator[](std::string_view key);
  const value& operator[](const char* key) const noexcept { return (*this)[std::string_view(key)]; }
  value& operator[](const char* key) { return (*this)[std::string_view(key)]; }

  // Iterates an array's elements or an object's members (in key order); *it is the element or
  // the member's value, it.key() the member's key. Scalars have no elements.
  class const_iterator {
   public:
    using value_type = ::nostr::dom::value;
    const value_type& operator*() const noexcept { return m_ ? m_->second : *v_; }
    const value_type* operator->() const noexcept { return &**this; }
    const std::string& key() const noexcept { return m_->first; }
    const value_type& value() const noexcept { return **this; }
    const_iterator& operator++() noexcept {
      if (m_) ++m_;
      else ++v_;
      return *this;
    }
    bool operator==(const const_iterator& o) const noexcept { return v_ == o.v_ && m_ == o.m_; }
    bool operator!=(const const_iterator& o) const noexcept { return !(*this == o); }

   private:
    friend class ::nostr::dom::value;
    const value_type* v_ = nullptr;
    const member* m_ = nullptr;
  };
  const_iterator begin() const noexcept;
  const_iterator end() const noexcept;
  const_iterator find(std::string_view key) const noexcept;
  bool contains(std::string_view key) const noexcept { return find(key) != end(); }
  std::size_t count(std::string_view key) const noexcept { return contains(key) ? 1 : 0; }

  // Appends to an array (a null becomes an empty array first).
  void push_back(value v);

  // Compact JSON text. Strings are escaped as nlohmann escapes them (\" \\ \b \f \n \r \t, other
  // control characters \u00xx, the rest verbatim), ill-formed UTF-8 replaced with U+FFFD.
  std::string dump() const;
  void dump_to(std::string& out) const;

  // Structural equality (numbers by type and value; floats by source text).
  friend bool operator==(const value& a, const value& b) noexcept;
  friend bool operator!=(const value& a, const value& b) noexcept { return !(a == b); }

 private:
  friend class parser;
  void destroy() noexcept;

  value_t t_;
  union {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    std::string* s;  // string, number_float (its text)
    array_t* a;
    object_t* o;
  } u_;
};

template <>
inline bool value::get<bool>() const {
  return t_ == value_t::boolean && u_.b;
}
template <>
inline std::int64_t value::get<std::int64_t>() const {
  return t_ == value_t::number_integer || t_ == value_t::number_unsigned ? u_.i : 0;
}
template <>
inline std::uint64_t value::get<std::uint64_t>() const {
  return t_ == value_t::number_integer || t_ == value_t::number_unsigned ? u_.u : 0;
}
template <>
inline std::string value::get<std::string>() const {
  return str();
}

// Parses one JSON text (RFC 8259; a leading UTF-8 byte order mark skipped, as nlohmann does, and
// a NUL byte where the next token would start ends the text). Malformed text, ill-formed UTF-8,
// a number strtod would overflow, or nesting deeper than max_depth: a discarded value.
value parse(std::string_view text, std::size_t max_depth = kDefaultMaxDepth);

// Whether v is a number equal to an integer (2, 2.0, 2e0 and 20e-1 alike, as JSON Schema's
// "integer" and Number.isInteger): out is that integer, saturated to the int64 range. Decided on
// the exact decimal value of the text, so a float with more than 17 significant digits that
// only a double rounding would make integral (1.00000000000000000001) is not an integer here.
bool integer_value(const value& v, std::int64_t& out) noexcept;

// Appends s as a JSON string (nlohmann's escaping, ill-formed UTF-8 replaced with U+FFFD).
void append_string(std::string& out, std::string_view s);

}  // namespace nostr::dom
