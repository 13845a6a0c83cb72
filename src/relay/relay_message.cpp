#include "relay/relay_message.hpp"

#include "event/event_json.hpp"
#include "relay/frame.hpp"
#include "relay/sub_id.hpp"
#include "util/hex.hpp"

namespace nostr::relay {
namespace {

using json = ::nostr::dom::value;

result<void> check_sub_id(std::string_view sub_id) {
  if (!valid_sub_id(sub_id))
    return make_error(errc::invalid_argument, "subscription id must be 1 to 64 characters");
  return {};
}

// "[\"VERB\",\"<sub id>\"" for the messages that start with a subscription id.
result<std::string> head_with_sub(const char* head, std::string_view sub_id) {
  NOSTR_TRY(check_sub_id(sub_id));
  std::string out = head;
  append_json_string(out, sub_id);
  return out;
}

bool as_count(const json& v, std::int64_t& out) {
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return false;
    out = static_cast<std::int64_t>(u);
    return true;
  }
  if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
    return out >= 0;
  }
  return false;
}

}  // namespace

namespace detail {

result<relay_message> decode_relay_json(const json& a) {
  const std::string& verb = verb_of(a);
  if (verb == "EVENT") {
    NOSTR_TRY(expect_arity(a, 3));
    auto sub = sub_id_at(a, 1);
    if (!sub) return sub.err();
    if (!a[2].is_object()) return make_error(errc::relay_frame_type, "EVENT event must be a JSON object");
    auto e = event_from_json(a[2]);
    if (!e) return e.err();
    return relay_message{relay_event{**sub, std::move(*e)}};
  }
  if (verb == "OK") {
    NOSTR_TRY(expect_arity(a, 4));
    auto id = string_at(a, 1, "event id");
    if (!id) return id.err();
    if (!hex::is_lower_hex(**id, 32))
      return make_error(errc::relay_frame_type, "OK event id must be 64 lowercase hex characters");
    if (!a[2].is_boolean()) return make_error(errc::relay_frame_type, "OK status must be true or false");
    auto msg = string_at(a, 3, "message");
    if (!msg) return msg.err();
    return relay_message{relay_ok{**id, a[2].get<bool>(), parse_machine_message(**msg)}};
  }
  if (verb == "EOSE") {
    NOSTR_TRY(expect_arity(a, 2));
    auto sub = sub_id_at(a, 1);
    if (!sub) return sub.err();
    return relay_message{relay_eose{**sub}};
  }
  if (verb == "CLOSED") {
    NOSTR_TRY(expect_arity(a, 3));
    auto sub = sub_id_at(a, 1);
    if (!sub) return sub.err();
    auto msg = string_at(a, 2, "message");
    if (!msg) return msg.err();
    return relay_message{relay_closed{**sub, parse_machine_message(**msg)}};
  }
  if (verb == "NOTICE") {
    NOSTR_TRY(expect_arity(a, 2));
    auto msg = string_at(a, 1, "message");
    if (!msg) return msg.err();
    return relay_message{relay_notice{**msg}};
  }
  if (verb == "AUTH") {
    // NIP-42: from a relay AUTH carries the challenge string (from a client, a signed event).
    NOSTR_TRY(expect_arity(a, 2));
    auto challenge = string_at(a, 1, "challenge");
    if (!challenge) return challenge.err();
    return relay_message{relay_auth{**challenge}};
  }
  if (verb == "COUNT") {
    NOSTR_TRY(expect_arity(a, 3));
    auto sub = sub_id_at(a, 1);
    if (!sub) return sub.err();
    const json& body = a[2];
    if (!body.is_object()) return make_error(errc::relay_frame_type, "COUNT result must be a JSON object");
    relay_count out{**sub, 0, false, {}};
    auto c = body.find("count");
    if (c == body.end() || !as_count(*c, out.count))
      return make_error(errc::relay_frame_type, "COUNT result needs a non-negative integer count");
    auto ap = body.find("approximate");
    if (ap != body.end()) {
      if (!ap->is_boolean()) return make_error(errc::relay_frame_type, "COUNT approximate must be true or false");
      out.approximate = ap->get<bool>();
    }
    auto hll = body.find("hll");
    if (hll != body.end() && hll->is_string()) {
      const auto& h = hll->get_ref<const std::string&>();
      if (h.size() == 512 && hex::is_lower_hex(h, 256)) out.hll = h;
    }
    return relay_message{std::move(out)};
  }
  if (verb == "REQ" || verb == "CLOSE")
    return make_error(errc::relay_frame_unknown_verb, verb + " is a client-to-relay message");
  return make_error(errc::relay_frame_unknown_verb, "unknown relay message type");
}

}  // namespace detail

result<relay_message> decode_relay_message(std::string_view frame, std::size_t max_frame_bytes) {
  auto parsed = detail::parse_frame(frame, max_frame_bytes);
  if (!parsed) return parsed.err();
  return detail::decode_relay_json(*parsed);
}

result<std::string> encode_relay_event(std::string_view sub_id, const event& e) {
  auto out = head_with_sub("[\"EVENT\",", sub_id);
  if (!out) return out;
  out->push_back(',');
  *out += to_json(e);
  out->push_back(']');
  return out;
}

result<std::string> encode_ok(std::string_view event_id, bool accepted, std::string_view message) {
  if (!hex::is_lower_hex(event_id, 32))
    return make_error(errc::invalid_argument, "OK event id must be 64 lowercase hex characters");
  std::string out = "[\"OK\",";
  append_json_string(out, event_id);
  out += accepted ? ",true," : ",false,";
  append_json_string(out, message);
  out.push_back(']');
  return out;
}

result<std::string> encode_eose(std::string_view sub_id) {
  auto out = head_with_sub("[\"EOSE\",", sub_id);
  if (out) out->push_back(']');
  return out;
}

result<std::string> encode_closed(std::string_view sub_id, std::string_view message) {
  auto out = head_with_sub("[\"CLOSED\",", sub_id);
  if (!out) return out;
  out->push_back(',');
  append_json_string(*out, message);
  out->push_back(']');
  return out;
}

std::string encode_notice(std::string_view message) {
  std::string out = "[\"NOTICE\",";
  append_json_string(out, message);
  out.push_back(']');
  return out;
}

std::string encode_auth_challenge(std::string_view challenge) {
  std::string out = "[\"AUTH\",";
  append_json_string(out, challenge);
  out.push_back(']');
  return out;
}

result<std::string> encode_count_result(std::string_view sub_id, std::int64_t count, bool approximate) {
  if (count < 0) return make_error(errc::invalid_argument, "count must not be negative");
  auto out = head_with_sub("[\"COUNT\",", sub_id);
  if (!out) return out;
  *out += ",{\"count\":" + std::to_string(count);
  if (approximate) *out += ",\"approximate\":true";
  *out += "}]";
  return out;
}

result<std::string> encode(const relay_message& m) {
  struct visitor {
    result<std::string> operator()(const relay_event& x) const { return encode_relay_event(x.sub_id, x.ev); }
    result<std::string> operator()(const relay_ok& x) const {
      return encode_ok(x.event_id, x.accepted, x.status.message);
    }
    result<std::string> operator()(const relay_eose& x) const { return encode_eose(x.sub_id); }
    result<std::string> operator()(const relay_closed& x) const { return encode_closed(x.sub_id, x.status.message); }
    result<std::string> operator()(const relay_notice& x) const { return encode_notice(x.message); }
    result<std::string> operator()(const relay_auth& x) const { return encode_auth_challenge(x.challenge); }
    result<std::string> operator()(const relay_count& x) const {
      return encode_count_result(x.sub_id, x.count, x.approximate);
    }
  };
  return std::visit(visitor{}, m);
}

}  // namespace nostr::relay
