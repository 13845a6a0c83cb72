#include "protocols/agx/card.hpp"

#include "nips/nip19.hpp"
#include "protocols/agx/constants.hpp"
#include "protocols/agx/json_text.hpp"
#include "protocols/agx/nip05.hpp"
#include "relay/relay_url.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

error invalid(std::string d) { return make_error(errc::agx_card_invalid, std::move(d)); }

void append_string_array(std::string& out, const std::vector<std::string>& v) {
  out.push_back('[');
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out.push_back(',');
    append_json_string(out, v[i]);
  }
  out.push_back(']');
}

result<void> all_utf8(const std::vector<std::string>& v, const char* what) {
  for (const auto& s : v)
    if (!detail::valid_utf8(s)) return make_error(errc::invalid_utf8, std::string(what) + " entry is not UTF-8");
  return {};
}

// null/absent -> nothing; an array of strings each within max_len, at most max_count of them.
result<std::vector<std::string>> string_array(const dom::value& obj, const char* key, std::size_t max_count,
                                              std::size_t max_len) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  if (!it->is_array() || it->size() > max_count)
    return invalid(std::string(key) + " must be an array of at most " + std::to_string(max_count) + " entries");
  for (const auto& e : *it) {
    if (!e.is_string() || !detail::string_len_ok(e.get_ref<const std::string&>(), 0, max_len))
      return invalid(std::string(key) + " entries must be strings of at most " + std::to_string(max_len) + " characters");
    out.push_back(e.get_ref<const std::string&>());
  }
  return out;
}

result<std::optional<std::string>> optional_string(const dom::value& obj, const char* key, std::size_t max_len) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::optional<std::string>{};
  if (!it->is_string() || !detail::string_len_ok(it->get_ref<const std::string&>(), 0, max_len))
    return invalid(std::string(key) + " must be null or a string of at most " + std::to_string(max_len) + " characters");
  return std::optional<std::string>{it->get_ref<const std::string&>()};
}

}  // namespace

result<std::string> card_content_json(const card_fields& f) {
  bytes32 pk{};
  if (!hex::is_lower_hex(f.pubkey_hex, 32) || !hex::decode_to(f.pubkey_hex, pk.data(), 32))
    return make_error(errc::invalid_public_key, "pubkey must be 64 lowercase hex");
  if (!detail::valid_utf8(f.org)) return make_error(errc::invalid_utf8, "org is not UTF-8");
  if (!detail::string_len_ok(f.org, 0, kMaxCardOrg)) return invalid("org must be at most 200 characters");
  if (f.nip05 && !f.nip05->empty() && !parse_nip05(*f.nip05)) return invalid("nip05 is not a valid name@domain");
  if (f.capabilities.size() > kMaxCardCapabilities) return invalid("at most 64 capabilities");
  NOSTR_TRY(all_utf8(f.capabilities, "capability"));
  for (const auto& c : f.capabilities)
    if (!detail::string_len_ok(c, 1, kMaxCardCapability)) return invalid("capabilities must be 1 to 200 characters");
  if (f.relays.size() > kMaxCardRelays) return invalid("at most 10 relays");
  for (const auto& r : f.relays)
    if (r.size() > kMaxCardRelay || !relay::normalize_relay_url(r)) return invalid("relays must be ws:// or wss:// URLs");
  NOSTR_TRY(all_utf8(f.payload_types, "payload type"));
  NOSTR_TRY(all_utf8(f.encryption, "encryption"));

  std::string out = "{\"v\":1,\"org\":";
  append_json_string(out, f.org);
  out += ",\"npub\":";
  append_json_string(out, nip19::encode_npub(pk));
  out += ",\"nip05\":";
  if (f.nip05 && !f.nip05->empty())
    append_json_string(out, *f.nip05);
  else
    out += "null";
  out += ",\"relays\":";
  append_string_array(out, f.relays);
  out += ",\"capabilities\":";
  append_string_array(out, f.capabilities);
  out += ",\"payloadTypes\":";
  append_string_array(out, f.payload_types);
  out += ",\"encryption\":";
  append_string_array(out, f.encryption);
  out += ",\"version\":\"";
  out += kCardVersion;
  out += "\"}";
  return out;
}

result<event_template> card_template(const card_fields& f, std::int64_t now) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  auto content = card_content_json(f);
  if (!content) return content.err();
  event_template t;
  t.kind = kCardKind;
  t.created_at = now;
  if (f.nip05 && !f.nip05->empty()) t.tags.push_back({"nip05", *f.nip05});
  t.content = std::move(*content);
  return t;
}

result<peer_card> parse_card(const event& e) {
  NOSTR_TRY(verify(e));
  if (e.kind != kCardKind) return invalid("an Agent Card is kind 11337");
  auto j = detail::parse_peer_json(e.content);
  if (j.is_discarded() || !j.is_object()) return invalid("card content must be a JSON object");
  peer_card c;
  c.pubkey = e.pubkey;
  c.created_at = e.created_at;

  auto org = optional_string(j, "org", kMaxCardOrg);
  if (!org) return org.err();
  c.org = std::move(*org);
  if (c.org && !c.org->empty()) c.display_name = std::string(detail::utf16_prefix(*c.org, kMaxCardDisplayName));
  auto nip05 = optional_string(j, "nip05", kMaxNip05Length);
  if (!nip05) return nip05.err();
  if (*nip05 && !(*nip05)->empty()) c.nip05 = std::move(*nip05);
  auto caps = string_array(j, "capabilities", kMaxCardCapabilities, kMaxCardCapability);
  if (!caps) return caps.err();
  c.capabilities = std::move(*caps);
  auto relays = string_array(j, "relays", kMaxCardRelays, kMaxCardRelay);
  if (!relays) return relays.err();
  c.relays = std::move(*relays);

  // Not in the reference's schema: read leniently, strings only, bounded.
  auto pt = j.find("payloadTypes");
  if (pt != j.end() && pt->is_array())
    for (const auto& v : *pt)
      if (v.is_string() && c.payload_types.size() < kMaxCardCapabilities &&
          detail::string_len_ok(v.get_ref<const std::string&>(), 1, kMaxContentType))
        c.payload_types.push_back(v.get_ref<const std::string&>());

  // The card speaks only for its signer: an npub naming anyone else is a contradiction.
  auto npub = j.find("npub");
  if (npub != j.end() && !npub->is_null()) {
    if (!npub->is_string()) return invalid("npub must be a string");
    auto pk = nip19::decode_npub(npub->get_ref<const std::string&>());
    if (!pk || hex::encode(*pk) != e.pubkey) return invalid("npub does not name the card's signer");
  }
  return c;
}

result<event_template> card_retraction_template(const std::vector<std::string>& ids, std::string_view reason,
                                                std::int64_t now) {
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  if (ids.empty()) return make_error(errc::invalid_argument, "name at least one card event id");
  if (!detail::valid_utf8(reason)) return make_error(errc::invalid_utf8, "reason is not UTF-8");
  event_template t;
  t.kind = kDeletionKind;
  t.created_at = now;  // a deletion carries no expiration: it must outlive what it deletes
  for (const auto& id : ids) {
    if (!hex::is_lower_hex(id, 32)) return make_error(errc::invalid_argument, "event ids are 64 lowercase hex");
    t.tags.push_back({"e", id});
  }
  t.tags.push_back({"k", std::to_string(kCardKind)});
  t.content = std::string(reason);
  return t;
}

}  // namespace nostr::agx
