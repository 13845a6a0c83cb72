#include "event/event.hpp"

#include <memory>

#include "crypto/hash.hpp"
#include "event/event_json.hpp"
#include "json/scan.hpp"
#include "util/hex.hpp"

namespace nostr {

namespace {
// verify() and verify_batch() say the same
constexpr const char* kIdMismatch = "id is not the hash of the event";
constexpr const char* kBadSignature = "signature does not verify";
}  // namespace

kind_class classify_kind(std::int64_t kind) {
  if (kind == 0 || kind == 3 || (kind >= 10000 && kind < 20000)) return kind_class::replaceable;
  if (kind >= 20000 && kind < 30000) return kind_class::ephemeral;
  if (kind >= 30000 && kind < 40000) return kind_class::addressable;
  if (kind >= 1 && kind < 10000) return kind_class::regular;
  return kind_class::unknown;
}

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  std::size_t run = 0;  // start of the current run of verbatim bytes
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    json_scan::append_escape(out, c);
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

static void append_tags(std::string& out, const tag_list& tags) {
  out.push_back('[');
  for (std::size_t i = 0; i < tags.size(); ++i) {
    if (i) out.push_back(',');
    out.push_back('[');
    for (std::size_t j = 0; j < tags[i].size(); ++j) {
      if (j) out.push_back(',');
      append_json_string(out, tags[i][j]);
    }
    out.push_back(']');
  }
  out.push_back(']');
}

std::string serialize_for_id(std::string_view pubkey, std::int64_t created_at, std::int64_t kind,
                             const tag_list& tags, std::string_view content) {
  std::string out;
  out.reserve(100 + content.size() + tags.size() * 80);
  out += "[0,";
  append_json_string(out, pubkey);
  out.push_back(',');
  out += std::to_string(created_at);
  out.push_back(',');
  out += std::to_string(kind);
  out.push_back(',');
  append_tags(out, tags);
  out.push_back(',');
  append_json_string(out, content);
  out.push_back(']');
  return out;
}

bytes32 compute_id(const event& e) {
  std::string s = serialize_for_id(e);
  return crypto::sha256(as_bytes(s), s.size());
}

std::string compute_id_hex(const event& e) { return hex::encode(compute_id(e)); }

result<void> validate_shape(const event& e) {
  if (!hex::is_lower_hex(e.id, 32)) return make_error(errc::invalid_event, "id must be 64 lowercase hex characters");
  if (!hex::is_lower_hex(e.pubkey, 32))
    return make_error(errc::invalid_event, "pubkey must be 64 lowercase hex characters");
  if (!hex::is_lower_hex(e.sig, 64)) return make_error(errc::invalid_event, "sig must be 128 lowercase hex characters");
  if (e.kind < 0 || e.kind > 65535) return make_error(errc::invalid_event, "kind must be an integer from 0 to 65535");
  if (e.created_at < 0) return make_error(errc::invalid_event, "created_at must be a non-negative integer");
  return {};
}

result<void> verify(const event& e) {
  NOSTR_TRY(validate_shape(e));
  bytes32 id = compute_id(e);
  bytes32 claimed{}, pub{};
  bytes64 sig{};
  (void)hex::decode_to(e.id, claimed.data(), 32);
  (void)hex::decode_to(e.pubkey, pub.data(), 32);
  (void)hex::decode_to(e.sig, sig.data(), 64);
  if (id != claimed) return make_error(errc::id_mismatch, kIdMismatch);
  if (!crypto::schnorr_verify32(sig, id, pub)) return make_error(errc::invalid_signature, kBadSignature);
  return {};
}

std::vector<result<void>> verify_batch(const event* const* events, std::size_t n) {
  std::vector<result<void>> out(n);
  std::vector<crypto::schnorr_check> checks;
  std::vector<std::size_t> at;  // checks[j] is events[at[j]]
  checks.reserve(n);
  at.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const event& e = *events[i];
    if (auto shape = validate_shape(e); !shape) {
      out[i] = shape.err();
      continue;
    }
    crypto::schnorr_check c;
    bytes32 claimed{};
    (void)hex::decode_to(e.id, claimed.data(), 32);
    c.msg = compute_id(e);
    if (c.msg != claimed) {
      out[i] = make_error(errc::id_mismatch, kIdMismatch);
      continue;
    }
    (void)hex::decode_to(e.pubkey, c.pub.data(), 32);
    (void)hex::decode_to(e.sig, c.sig.data(), 64);
    checks.push_back(c);
    at.push_back(i);
  }
  std::unique_ptr<bool[]> ok(new bool[checks.size() + 1]);
  crypto::schnorr_verify32_batch(checks.data(), checks.size(), ok.get());
  for (std::size_t j = 0; j < checks.size(); ++j)
    if (!ok[j]) out[at[j]] = make_error(errc::invalid_signature, kBadSignature);
  return out;
}

event make_unsigned(const event_template& t, std::string_view pubkey_hex) {
  event e;
  e.pubkey = std::string(pubkey_hex);
  e.created_at = t.created_at;
  e.kind = t.kind;
  e.tags = t.tags;
  e.content = t.content;
  e.id = compute_id_hex(e);
  return e;
}

event finalize(const event_template& t, const crypto::keypair& key, const bytes32& aux) {
  event e;
  e.pubkey = hex::encode(key.public_key());
  e.created_at = t.created_at;
  e.kind = t.kind;
  e.tags = t.tags;
  e.content = t.content;
  bytes32 id = compute_id(e);
  e.id = hex::encode(id);
  e.sig = hex::encode(key.sign32(id, aux));
  return e;
}

// --- JSON

dom::value parse_json(std::string_view text) { return dom::parse(text); }

result<tag_list> tags_from_json(const dom::value& j) {
  if (!j.is_array()) return make_error(errc::invalid_event, "tags must be an array");
  tag_list tags;
  tags.reserve(j.size());
  for (const auto& t : j) {
    if (!t.is_array()) return make_error(errc::invalid_event, "each tag must be an array");
    tag out;
    out.reserve(t.size());
    for (const auto& v : t) {
      if (!v.is_string()) return make_error(errc::invalid_event, "tag values must be strings");
      out.push_back(v.get_ref<const std::string&>());
    }
    tags.push_back(std::move(out));
  }
  return tags;
}

static bool get_string(const dom::value& j, const char* key, std::string& out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return false;
  out = it->get_ref<const std::string&>();
  return true;
}

static bool get_integer(const dom::value& j, const char* key, std::int64_t& out) {
  auto it = j.find(key);
  if (it == j.end()) return false;
  if (it->is_number_unsigned()) {
    auto v = it->get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(INT64_MAX)) return false;
    out = static_cast<std::int64_t>(v);
    return true;
  }
  if (it->is_number_integer()) {
    out = it->get<std::int64_t>();
    return true;
  }
  return false;
}

result<event> event_from_json(const dom::value& j) {
  if (!j.is_object()) return make_error(errc::invalid_event, "event must be a JSON object");
  event e;
  if (!get_string(j, "id", e.id)) return make_error(errc::invalid_event, "id missing or not a string");
  if (!get_string(j, "pubkey", e.pubkey)) return make_error(errc::invalid_event, "pubkey missing or not a string");
  if (!get_integer(j, "created_at", e.created_at))
    return make_error(errc::invalid_event, "created_at missing or not an integer");
  if (!get_integer(j, "kind", e.kind)) return make_error(errc::invalid_event, "kind missing or not an integer");
  auto tags_it = j.find("tags");
  if (tags_it == j.end()) return make_error(errc::invalid_event, "tags missing");
  auto tags = tags_from_json(*tags_it);
  if (!tags) return tags.err();
  e.tags = std::move(*tags);
  if (!get_string(j, "content", e.content)) return make_error(errc::invalid_event, "content missing or not a string");
  if (!get_string(j, "sig", e.sig)) return make_error(errc::invalid_event, "sig missing or not a string");
  return e;
}

result<event> parse_event(std::string_view json) {
  auto j = parse_json(json);
  if (j.is_discarded()) return make_error(errc::invalid_json, "event is not valid JSON");
  return event_from_json(j);
}

std::string to_json(const event& e) {
  std::string out;
  out.reserve(250 + e.content.size() + e.tags.size() * 80);
  out += "{\"id\":";
  append_json_string(out, e.id);
  out += ",\"pubkey\":";
  append_json_string(out, e.pubkey);
  out += ",\"created_at\":" + std::to_string(e.created_at);
  out += ",\"kind\":" + std::to_string(e.kind);
  out += ",\"tags\":";
  append_tags(out, e.tags);
  out += ",\"content\":";
  append_json_string(out, e.content);
  out += ",\"sig\":";
  append_json_string(out, e.sig);
  out.push_back('}');
  return out;
}

}  // namespace nostr
