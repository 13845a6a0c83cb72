// JSON text built by hand with the core's own escaping (append_json_string), rather than through
// nlohmann's serializer, which would add its code to the module for these rare paths. Shared by
// relay.cpp and relay_codec.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "event/event.hpp"
#include "relay/reason.hpp"

namespace nostr::bindings {

struct json_out {
  std::string s;
  bool first = true;
  json_out& key(const char* k) {
    s += first ? '{' : ',';
    first = false;
    append_json_string(s, k);
    s += ':';
    return *this;
  }
  json_out& str(const char* k, std::string_view v) {
    key(k);
    append_json_string(s, v);
    return *this;
  }
  json_out& raw(const char* k, std::string_view v) {
    key(k);
    s += v;
    return *this;
  }
  json_out& num(const char* k, std::int64_t v) { return raw(k, std::to_string(v)); }
  json_out& boolean(const char* k, bool v) { return raw(k, v ? "true" : "false"); }
  json_out& status(const relay::machine_message& st) {
    return str("reason", relay::reason_name(st.reason)).str("message", st.message).str("text", st.text());
  }
  std::string done() {
    s += first ? "{}" : "}";
    return std::move(s);
  }
};

}  // namespace nostr::bindings
