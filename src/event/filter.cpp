#include "event/filter.hpp"

#include <algorithm>

#include "event/event_json.hpp"
#include "event/event_reader.hpp"

namespace nostr {

template <class T>
static bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool matches(const filter& f, const event& e) {
  if (f.ids && !contains(*f.ids, e.id)) return false;
  if (f.authors && !contains(*f.authors, e.pubkey)) return false;
  if (f.kinds && !contains(*f.kinds, e.kind)) return false;
  if (f.since && e.created_at < *f.since) return false;
  if (f.until && e.created_at > *f.until) return false;
  for (const auto& cond : f.tags) {
    bool hit = std::any_of(e.tags.begin(), e.tags.end(), [&](const tag& t) {
      return t.size() >= 2 && t[0] == cond.first && contains(cond.second, t[1]);
    });
    if (!hit) return false;
  }
  return true;
}

static result<std::vector<std::string>> string_list(const dom::value& j, const std::string& key) {
  if (!j.is_array()) return make_error(errc::invalid_filter, key + " must be an array of strings");
  std::vector<std::string> out;
  out.reserve(j.size());
  for (const auto& v : j) {
    if (!v.is_string()) return make_error(errc::invalid_filter, key + " must be an array of strings");
    out.push_back(v.get_ref<const std::string&>());
  }
  return out;
}

static bool as_int(const dom::value& v, std::int64_t& out) {
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return false;
    out = static_cast<std::int64_t>(u);
    return true;
  }
  if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
    return true;
  }
  return false;
}

result<filter> filter_from_json(const dom::value& j) {
  if (!j.is_object()) return make_error(errc::invalid_filter, "filter must be a JSON object");
  filter f;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const auto& v = it.value();
    if (key == "ids" || key == "authors") {
      auto list = string_list(v, key);
      if (!list) return list.err();
      (key == "ids" ? f.ids : f.authors) = std::move(*list);
    } else if (key == "kinds") {
      if (!v.is_array()) return make_error(errc::invalid_filter, "kinds must be an array of integers");
      std::vector<std::int64_t> kinds;
      for (const auto& k : v) {
        std::int64_t n = 0;
        if (!as_int(k, n)) return make_error(errc::invalid_filter, "kinds must be an array of integers");
        kinds.push_back(n);
      }
      f.kinds = std::move(kinds);
    } else if (key == "since" || key == "until" || key == "limit") {
      std::int64_t n = 0;
      if (!as_int(v, n)) return make_error(errc::invalid_filter, key + " must be an integer");
      (key == "since" ? f.since : key == "until" ? f.until : f.limit) = n;
    } else if (key.size() == 2 && key[0] == '#') {
      auto list = string_list(v, key);
      if (!list) return list.err();
      f.tags[key.substr(1)] = std::move(*list);
    }
  }
  return f;
}

// The DOM-free reader (event_reader.cpp): the same acceptance, codes and messages as
// filter_from_json(parse_json(json)), without building a JSON tree.
result<filter> parse_filter(std::string_view json) { return read_filter(json); }

static void append_list(std::string& out, const std::vector<std::string>& v) {
  out.push_back('[');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(',');
    append_json_string(out, v[i]);
  }
  out.push_back(']');
}

std::string to_json(const filter& f) {
  std::string out = "{";
  auto sep = [&] {
    if (out.size() > 1) out.push_back(',');
  };
  if (f.ids) { sep(); out += "\"ids\":"; append_list(out, *f.ids); }
  if (f.authors) { sep(); out += "\"authors\":"; append_list(out, *f.authors); }
  if (f.kinds) {
    sep();
    out += "\"kinds\":[";
    for (std::size_t i = 0; i < f.kinds->size(); ++i) {
      if (i) out.push_back(',');
      out += std::to_string((*f.kinds)[i]);
    }
    out.push_back(']');
  }
  for (const auto& [name, values] : f.tags) {
    sep();
    append_json_string(out, "#" + name);
    out.push_back(':');
    append_list(out, values);
  }
  if (f.since) { sep(); out += "\"since\":" + std::to_string(*f.since); }
  if (f.until) { sep(); out += "\"until\":" + std::to_string(*f.until); }
  if (f.limit) { sep(); out += "\"limit\":" + std::to_string(*f.limit); }
  out.push_back('}');
  return out;
}

}  // namespace nostr
