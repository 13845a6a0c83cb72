// nlohmann/json as the oracle of the core's own JSON code (src/json): the checks that the native
// test (tests/native/json_test.cpp) runs over vectors and generated documents, and the json_diff
// fuzz target runs over whatever libFuzzer makes. Each returns an empty string when the two agree,
// else what differs.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>
#include <algorithm>

#include <nlohmann/json.hpp>

#include "json/value.hpp"

namespace json_oracle {

using nlohmann::json;

// What the core parsed JSON with before src/json: nlohmann, exceptions off, strict.
inline json reference_parse(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

inline std::size_t depth_of(const json& j) {
  // Iterative: the oracle's documents may be as deep as the text allows.
  std::size_t best = 0;
  std::vector<std::pair<const json*, std::size_t>> stack{{&j, 0}};
  while (!stack.empty()) {
    auto [v, d] = stack.back();
    stack.pop_back();
    if (!v->is_structured()) continue;
    best = std::max(best, d + 1);
    for (const auto& c : *v) stack.push_back({&c, d + 1});
  }
  return best;
}

inline std::string same_integer(const nostr::dom::value& a, const json& b);

// Same tree: same types (number kinds included), values, member keys and order. A float is
// compared as the double strtod reads from our kept source text.
inline std::string same_tree(const nostr::dom::value& a, const json& b, const std::string& path = "$") {
  using nostr::dom::value_t;
  auto differ = [&](const char* what) { return path + ": " + what + " (oracle " + b.dump() + ", ours " + a.dump() + ")"; };
  switch (a.type()) {
    case value_t::null: return b.is_null() ? "" : differ("type");
    case value_t::boolean: return b.is_boolean() && b.get<bool>() == a.get<bool>() ? "" : differ("boolean");
    case value_t::number_unsigned:
      return b.is_number_unsigned() && b.get<std::uint64_t>() == a.get<std::uint64_t>() ? same_integer(a, b) : differ("unsigned");
    case value_t::number_integer:
      return b.is_number_integer() && !b.is_number_unsigned() && b.get<std::int64_t>() == a.get<std::int64_t>()
                 ? same_integer(a, b)
                 : differ("integer");
    case value_t::number_float: {
      if (!b.is_number_float()) return differ("float type");
      double d = std::strtod(a.number_source().c_str(), nullptr);
      double e = b.get<double>();
      return d == e && std::signbit(d) == std::signbit(e) ? same_integer(a, b) : differ("float value");
    }
    case value_t::string: return b.is_string() && b.get_ref<const std::string&>() == a.str() ? "" : differ("string");
    case value_t::array: {
      if (!b.is_array() || b.size() != a.size()) return differ("array");
      for (std::size_t i = 0; i < a.size(); ++i) {
        auto r = same_tree(a[i], b[i], path + "[" + std::to_string(i) + "]");
        if (!r.empty()) return r;
      }
      return "";
    }
    case value_t::object: {
      if (!b.is_object() || b.size() != a.size()) return differ("object");
      auto bi = b.begin();
      for (auto ai = a.begin(); ai != a.end(); ++ai, ++bi) {
        if (ai.key() != bi.key()) return differ("member keys or order");
        auto r = same_tree(*ai, *bi, path + "." + ai.key());
        if (!r.empty()) return r;
      }
      return "";
    }
    case value_t::discarded: return differ("discarded");
  }
  return differ("?");
}

inline bool has_float(const json& j) {
  if (j.is_number_float()) return true;
  if (j.is_structured())
    for (const auto& c : j)
      if (has_float(c)) return true;
  return false;
}

// integer_value against what the schema checks computed from nlohmann's double before: integral,
// saturated to int64. They may differ only where a double cannot hold the number exactly.
inline std::string same_integer(const nostr::dom::value& a, const json& b) {
  std::int64_t ours = 0;
  bool ours_ok = nostr::dom::integer_value(a, ours);
  bool ref_ok = false;
  std::int64_t ref = 0;
  if (b.is_number_unsigned()) {
    auto u = b.get<std::uint64_t>();
    ref = u > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(u);
    ref_ok = true;
  } else if (b.is_number_integer()) {
    ref = b.get<std::int64_t>();
    ref_ok = true;
  } else if (b.is_number_float()) {
    double d = b.get<double>();
    if (std::isfinite(d) && std::floor(d) == d) {
      ref_ok = true;
      if (d >= 9223372036854775808.0) ref = INT64_MAX;
      else if (d < -9223372036854775808.0) ref = INT64_MIN;
      else ref = static_cast<std::int64_t>(d);
    }
  }
  if (ours_ok == ref_ok && ours == ref) return "";
  // An exact decimal integer always rounds to an integral double; the converse needs rounding.
  if (ours_ok && !ref_ok) return "integer_value says integer where the double is not: " + b.dump();
  if (!ours_ok) return "";  // e.g. 1.00000000000000000001 or 1e-400: integral only after rounding
  // Both integral, different values: only beyond 2^53, where doubles skip integers.
  if (std::fabs(static_cast<double>(ours)) < 9007199254740992.0) return "integer_value differs: " + b.dump();
  return "";
}

// The full check of one text: the same verdict (our depth bound aside), the same tree, the same
// integers, and a dump that nlohmann reads back to the same value (byte-identical to nlohmann's
// own dump when the document has no float, whose text we keep where nlohmann rewrites it).
inline std::string check_text(std::string_view text) {
  json ref = reference_parse(text);
  nostr::dom::value ours = nostr::dom::parse(text);
  if (ref.is_discarded()) return ours.is_discarded() ? "" : "we accept what nlohmann rejects";
  if (depth_of(ref) > nostr::dom::kDefaultMaxDepth)
    return ours.is_discarded() ? "" : "we accept nesting beyond the bound";
  if (ours.is_discarded()) return "we reject what nlohmann accepts";
  auto r = same_tree(ours, ref);
  if (!r.empty()) return r;
  std::string out = ours.dump();
  if (!has_float(ref) && out != ref.dump()) return "dump differs: oracle " + ref.dump() + ", ours " + out;
  json back = reference_parse(out);
  if (back.is_discarded() || back != ref) return "our dump reads back differently: " + out;
  return "";
}

// Writing a string: nlohmann's escaping and its replacement of ill-formed UTF-8 with U+FFFD.
inline std::string check_string(std::string_view bytes) {
  std::string ours;
  nostr::dom::append_string(ours, bytes);
  std::string ref = json(std::string(bytes)).dump(-1, ' ', false, json::error_handler_t::replace);
  return ours == ref ? "" : "string dump differs: oracle " + ref + ", ours " + ours;
}

}  // namespace json_oracle
