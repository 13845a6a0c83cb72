#include "relay/client_message.hpp"

#include "event/event_json.hpp"
#include "relay/frame.hpp"
#include "relay/sub_id.hpp"

namespace nostr::relay {
namespace {

using json = ::nostr::dom::value;

result<event> event_at(const json& a, std::size_t i) {
  if (!a[i].is_object()) return make_error(errc::relay_frame_type, detail::verb_of(a) + " event must be a JSON object");
  return event_from_json(a[i]);
}

template <class T>
result<client_message> sub_and_filters(const json& a) {
  NOSTR_TRY(detail::expect_min_arity(a, 3));
  auto sub = detail::sub_id_at(a, 1);
  if (!sub) return sub.err();
  auto filters = detail::filters_from(a, 2);
  if (!filters) return filters.err();
  return client_message{T{**sub, std::move(*filters)}};
}

result<void> check_sub_id(std::string_view sub_id) {
  if (!valid_sub_id(sub_id))
    return make_error(errc::invalid_argument, "subscription id must be 1 to 64 characters");
  return {};
}

result<std::string> encode_sub_and_filters(const char* head, std::string_view sub_id,
                                           const std::vector<filter>& filters) {
  NOSTR_TRY(check_sub_id(sub_id));
  if (filters.empty()) return make_error(errc::invalid_argument, "at least one filter is required");
  std::string out = head;
  append_json_string(out, sub_id);
  for (const auto& f : filters) {
    out.push_back(',');
    out += to_json(f);
  }
  out.push_back(']');
  return out;
}

std::string encode_with_event(const char* head, const event& e) {
  std::string out = head;
  out += to_json(e);
  out.push_back(']');
  return out;
}

}  // namespace

result<client_message> decode_client_message(std::string_view frame, std::size_t max_frame_bytes) {
  auto parsed = detail::parse_frame(frame, max_frame_bytes);
  if (!parsed) return parsed.err();
  const json& a = *parsed;
  const std::string& verb = detail::verb_of(a);
  if (verb == "EVENT" || verb == "AUTH") {
    NOSTR_TRY(detail::expect_arity(a, 2));
    auto e = event_at(a, 1);
    if (!e) return e.err();
    if (verb == "EVENT") return client_message{client_event{std::move(*e)}};
    return client_message{client_auth{std::move(*e)}};
  }
  if (verb == "REQ") return sub_and_filters<client_req>(a);
  if (verb == "COUNT") return sub_and_filters<client_count>(a);
  if (verb == "CLOSE") {
    NOSTR_TRY(detail::expect_arity(a, 2));
    auto sub = detail::sub_id_at(a, 1);
    if (!sub) return sub.err();
    return client_message{client_close{**sub}};
  }
  if (verb == "OK" || verb == "EOSE" || verb == "CLOSED" || verb == "NOTICE")
    return make_error(errc::relay_frame_unknown_verb, verb + " is a relay-to-client message");
  return make_error(errc::relay_frame_unknown_verb, "unknown client message type");
}

std::string encode_client_event(const event& e) { return encode_with_event("[\"EVENT\",", e); }

std::string encode_client_auth(const event& e) { return encode_with_event("[\"AUTH\",", e); }

result<std::string> encode_req(std::string_view sub_id, const std::vector<filter>& filters) {
  return encode_sub_and_filters("[\"REQ\",", sub_id, filters);
}

result<std::string> encode_count(std::string_view sub_id, const std::vector<filter>& filters) {
  return encode_sub_and_filters("[\"COUNT\",", sub_id, filters);
}

result<std::string> encode_close(std::string_view sub_id) {
  NOSTR_TRY(check_sub_id(sub_id));
  std::string out = "[\"CLOSE\",";
  append_json_string(out, sub_id);
  out.push_back(']');
  return out;
}

result<std::string> encode(const client_message& m) {
  struct visitor {
    result<std::string> operator()(const client_event& x) const { return encode_client_event(x.ev); }
    result<std::string> operator()(const client_req& x) const { return encode_req(x.sub_id, x.filters); }
    result<std::string> operator()(const client_close& x) const { return encode_close(x.sub_id); }
    result<std::string> operator()(const client_auth& x) const { return encode_client_auth(x.ev); }
    result<std::string> operator()(const client_count& x) const { return encode_count(x.sub_id, x.filters); }
  };
  return std::visit(visitor{}, m);
}

}  // namespace nostr::relay
