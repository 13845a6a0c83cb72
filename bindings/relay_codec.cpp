// The relay codec's stateless rare paths for JS (js/relay/codec.js): frames of either direction
// decoded to JSON text, CLOSE encoded, OK/CLOSED reasons parsed. Apart from relay.cpp so a module
// whose JS never calls them (the built demo page's, cmake/wasm.cmake) links without them.
#include <emscripten/bind.h>

#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "event/event_json.hpp"
#include "event/filter.hpp"
#include "json_out.hpp"
#include "relay/client_message.hpp"
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// A relay-to-client frame as JSON text: {"type":"EVENT","subId":...,"event":{...}} and so on.
val decode_relay(const std::string& frame, double max_bytes) {
  auto m = relay::decode_relay_message(frame, max_bytes > 0 ? static_cast<std::size_t>(max_bytes) : 0);
  if (!m) return fail(m.err());
  std::string out = std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        json_out o;
        if constexpr (std::is_same_v<T, relay::relay_event>)
          o.str("type", "EVENT").str("subId", v.sub_id).raw("event", to_json(v.ev));
        if constexpr (std::is_same_v<T, relay::relay_ok>)
          o.str("type", "OK").str("eventId", v.event_id).boolean("accepted", v.accepted).status(v.status);
        if constexpr (std::is_same_v<T, relay::relay_eose>) o.str("type", "EOSE").str("subId", v.sub_id);
        if constexpr (std::is_same_v<T, relay::relay_closed>) o.str("type", "CLOSED").str("subId", v.sub_id).status(v.status);
        if constexpr (std::is_same_v<T, relay::relay_notice>) o.str("type", "NOTICE").str("message", v.message);
        if constexpr (std::is_same_v<T, relay::relay_auth>) o.str("type", "AUTH").str("challenge", v.challenge);
        if constexpr (std::is_same_v<T, relay::relay_count>)
          o.str("type", "COUNT").str("subId", v.sub_id).num("count", v.count).boolean("approximate", v.approximate);
        return o.done();
      },
      *m);
  return val(std::move(out));
}

std::string filters_text(const std::vector<filter>& fs) {
  std::string a = "[";
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (i) a += ',';
    a += to_json(fs[i]);
  }
  return a + "]";
}

// A client-to-relay frame as JSON text: {"type":"REQ","subId":...,"filters":[...]} and so on.
val decode_client(const std::string& frame, double max_bytes) {
  auto m = relay::decode_client_message(frame, max_bytes > 0 ? static_cast<std::size_t>(max_bytes) : 0);
  if (!m) return fail(m.err());
  std::string out = std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        json_out o;
        if constexpr (std::is_same_v<T, relay::client_event>) o.str("type", "EVENT").raw("event", to_json(v.ev));
        if constexpr (std::is_same_v<T, relay::client_req>)
          o.str("type", "REQ").str("subId", v.sub_id).raw("filters", filters_text(v.filters));
        if constexpr (std::is_same_v<T, relay::client_close>) o.str("type", "CLOSE").str("subId", v.sub_id);
        if constexpr (std::is_same_v<T, relay::client_auth>) o.str("type", "AUTH").raw("event", to_json(v.ev));
        if constexpr (std::is_same_v<T, relay::client_count>)
          o.str("type", "COUNT").str("subId", v.sub_id).raw("filters", filters_text(v.filters));
        return o.done();
      },
      *m);
  return val(std::move(out));
}

val encode_close(const std::string& sub_id) {
  auto frame = relay::encode_close(sub_id);
  if (!frame) return fail(frame.err());
  return val(std::move(*frame));
}

// {reason, prefix, text, transient} of an OK or CLOSED message.
val parse_reason(const std::string& message) {
  auto mm = relay::parse_machine_message(message);
  val o = val::object();
  o.set("reason", std::string(relay::reason_name(mm.reason)));
  o.set("prefix", std::string(mm.prefix()));
  o.set("text", std::string(mm.text()));
  o.set("transient", relay::reason_is_transient(mm.reason));
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(relay_codec) {
  emscripten::function("relayDecodeRelay", &decode_relay);
  emscripten::function("relayDecodeClient", &decode_client);
  emscripten::function("relayEncodeClose", &encode_close);
  emscripten::function("relayParseReason", &parse_reason);
}

}  // namespace nostr::bindings
