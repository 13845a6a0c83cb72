#include "relay/frame.hpp"

#include "event/event_json.hpp"
#include "relay/sub_id.hpp"

namespace nostr::relay::detail {

result<dom::value> parse_frame(std::string_view frame, std::size_t max_bytes) {
  if (max_bytes != 0 && frame.size() > max_bytes)
    return make_error(errc::relay_frame_too_large,
                      "frame of " + std::to_string(frame.size()) + " bytes exceeds " + std::to_string(max_bytes));
  dom::value j = parse_json(frame);
  if (j.is_discarded()) return make_error(errc::relay_frame_invalid, "frame is not valid JSON");
  if (!j.is_array()) return make_error(errc::relay_frame_invalid, "frame is not a JSON array");
  if (j.empty()) return make_error(errc::relay_frame_invalid, "frame is an empty array");
  if (!j[0].is_string()) return make_error(errc::relay_frame_type, "first element must be the message type string");
  return j;
}

result<void> expect_arity(const dom::value& a, std::size_t n) {
  if (a.size() != n)
    return make_error(errc::relay_frame_arity, verb_of(a) + " takes " + std::to_string(n) + " elements, got " +
                                                   std::to_string(a.size()));
  return {};
}

result<void> expect_min_arity(const dom::value& a, std::size_t n) {
  if (a.size() < n)
    return make_error(errc::relay_frame_arity, verb_of(a) + " takes at least " + std::to_string(n) +
                                                   " elements, got " + std::to_string(a.size()));
  return {};
}

result<const std::string*> string_at(const dom::value& a, std::size_t i, const char* what) {
  const auto& v = a[i];
  if (!v.is_string()) return make_error(errc::relay_frame_type, verb_of(a) + " " + what + " must be a string");
  return &v.get_ref<const std::string&>();
}

result<const std::string*> sub_id_at(const dom::value& a, std::size_t i) {
  auto s = string_at(a, i, "subscription id");
  if (!s) return s.err();
  if (!valid_sub_id(**s)) return make_error(errc::relay_sub_id_invalid, "subscription id must be 1 to 64 characters");
  return s;
}

result<std::vector<filter>> filters_from(const dom::value& a, std::size_t first) {
  std::vector<filter> out;
  if (a.size() <= first) return make_error(errc::relay_frame_arity, verb_of(a) + " needs at least one filter");
  out.reserve(a.size() - first);
  for (std::size_t i = first; i < a.size(); ++i) {
    if (!a[i].is_object()) return make_error(errc::relay_frame_type, verb_of(a) + " filters must be JSON objects");
    auto f = filter_from_json(a[i]);
    if (!f) return f.err();
    out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace nostr::relay::detail
