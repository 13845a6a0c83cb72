#include "protocols/agx/payload.hpp"

#include <algorithm>

#include "event/event.hpp"
#include "protocols/agx/constants.hpp"
#include "protocols/agx/json_text.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

using detail::find_string;
using detail::string_len_ok;

error payload_error(std::string detail) { return make_error(errc::agx_payload_invalid, std::move(detail)); }
error receipt_error(std::string detail) { return make_error(errc::agx_receipt_invalid, std::move(detail)); }

bool is_version_one(const dom::value& obj) {
  auto it = obj.find("v");
  long long v = 0;
  return it != obj.end() && detail::integer_in_range(*it, 1, 1, v);
}

bool has_kind(const dom::value& obj, std::string_view kind) {
  const std::string* k = find_string(obj, "kind");
  return k && *k == kind;
}

result<void> check_id_arg(std::string_view what, const std::string& id) {
  if (!detail::valid_utf8(id)) return make_error(errc::invalid_utf8, std::string(what) + " is not UTF-8");
  if (!string_len_ok(id, 1, kMaxId))
    return make_error(errc::invalid_argument, std::string(what) + " must be 1 to 200 characters");
  return {};
}

}  // namespace

content_class classify_content_type(std::string_view ct) {
  if (ct == kTaskContentType) return content_class::task;
  if (ct == kA2aContentType || ct == "application/agx+json" || ct == "application/json") return content_class::text;
  return content_class::unknown;
}

result<std::string> message_payload_json(const message_fields& f) {
  NOSTR_TRY(check_id_arg("messageId", f.message_id));
  NOSTR_TRY(check_id_arg("contextId", f.context_id));
  if (!detail::valid_utf8(f.content_type)) return make_error(errc::invalid_utf8, "contentType is not UTF-8");
  if (!string_len_ok(f.content_type, 1, kMaxContentType))
    return make_error(errc::invalid_argument, "contentType must be 1 to 128 characters");
  if (!detail::valid_utf8(f.text)) return make_error(errc::invalid_utf8, "text is not UTF-8");
  // The receiver drops an empty text (reference parseExchangePayload), so never send one.
  if (f.text.empty()) return make_error(errc::invalid_argument, "text must not be empty");
  if (f.subject) {
    if (!detail::valid_utf8(*f.subject)) return make_error(errc::invalid_utf8, "subject is not UTF-8");
    if (!string_len_ok(*f.subject, 0, kMaxSubject))
      return make_error(errc::invalid_argument, "subject must be at most 200 characters");
  }
  std::string out;
  out.reserve(200 + f.text.size() + f.message_id.size() + f.context_id.size());
  out += "{\"v\":1,\"kind\":\"message\",\"contentType\":";
  append_json_string(out, f.content_type);
  out += ",\"role\":\"user\",\"messageId\":";
  append_json_string(out, f.message_id);
  out += ",\"contextId\":";
  append_json_string(out, f.context_id);
  out += ",\"parts\":[{\"text\":";
  append_json_string(out, f.text);
  out += "}],\"subject\":";
  // The reference writes null for an absent or empty subject.
  if (f.subject && !f.subject->empty())
    append_json_string(out, *f.subject);
  else
    out += "null";
  // SPEC.md "Automated-reply depth": a sender SHOULD clamp into range; 0 is omitted so the common
  // case stays byte-identical to what pre-autoDepth peers emit.
  int depth = std::clamp(f.auto_depth, 0, kMaxAutoDepth);
  if (depth > 0) out += ",\"autoDepth\":" + std::to_string(depth);
  out.push_back('}');
  return out;
}

result<message_payload> parse_message_payload(std::string_view json) {
  auto j = detail::parse_peer_json(json);
  if (j.is_discarded()) return payload_error("payload is not JSON (or nested too deeply)");
  if (!j.is_object()) return payload_error("payload must be a JSON object");
  if (!is_version_one(j)) return payload_error("v must be 1");
  if (!has_kind(j, "message")) return payload_error("kind must be \"message\"");
  message_payload p;

  auto ct = j.find("contentType");
  if (ct == j.end()) {
    p.content_type = std::string(kA2aContentType);
  } else {
    if (!ct->is_string() || !string_len_ok(ct->get_ref<const std::string&>(), 0, kMaxContentType))
      return payload_error("contentType must be a string of at most 128 characters");
    p.content_type = ct->get_ref<const std::string&>();
  }

  auto role = j.find("role");
  if (role == j.end()) {
    p.role = "user";
  } else {
    const std::string* r = role->is_string() ? &role->get_ref<const std::string&>() : nullptr;
    if (!r || (*r != "user" && *r != "agent")) return payload_error("role must be \"user\" or \"agent\"");
    p.role = *r;
  }

  // SPEC.md "Automated-reply depth": unusable (negative, fractional, out of range, not a number)
  // is treated exactly as absent, never as a reason to reject.
  auto depth = j.find("autoDepth");
  long long d = 0;
  if (depth != j.end() && detail::integer_in_range(*depth, 0, kMaxAutoDepth, d)) {
    p.auto_depth = static_cast<int>(d);
    p.auto_depth_present = true;
  }

  const std::string* mid = find_string(j, "messageId");
  if (!mid || !string_len_ok(*mid, 1, kMaxId)) return payload_error("messageId must be a string of 1 to 200 characters");
  p.message_id = *mid;
  const std::string* cid = find_string(j, "contextId");
  if (!cid || !string_len_ok(*cid, 1, kMaxId)) return payload_error("contextId must be a string of 1 to 200 characters");
  p.context_id = *cid;

  auto parts = j.find("parts");
  if (parts == j.end() || !parts->is_array() || parts->empty() || parts->size() > kMaxParts)
    return payload_error("parts must be an array of 1 to 64 entries");
  for (const auto& part : *parts) {
    if (!part.is_object()) return payload_error("each part must be an object");
    const std::string* t = find_string(part, "text");
    if (!t) return payload_error("each part needs a string text");
    p.text += *t;
  }
  // The reference keeps at most MAX_INBOUND_BODY units: a bound no conforming peer reaches.
  if (p.text.size() > kMaxInboundBody) p.text = std::string(detail::utf16_prefix(p.text, kMaxInboundBody));
  if (p.text.empty()) return payload_error("the message text is empty");

  auto subject = j.find("subject");
  if (subject != j.end() && !subject->is_null()) {
    if (!subject->is_string() || !string_len_ok(subject->get_ref<const std::string&>(), 0, kMaxInboundSubject))
      return payload_error("subject must be null or a string of at most 65535 characters");
    // An advisory header never costs the message: an over-long one is shortened.
    const auto& s = subject->get_ref<const std::string&>();
    if (!s.empty()) p.subject = std::string(detail::utf16_prefix(s, kMaxSubject));
  }
  p.cls = classify_content_type(p.content_type);
  return p;
}

const char* receipt_status_name(receipt_status s) {
  return s == receipt_status::quarantined ? "quarantined" : "delivered";
}

result<std::string> receipt_payload_json(const receipt_payload& r) {
  NOSTR_TRY(check_id_arg("refEventId", r.ref_event_id));
  NOSTR_TRY(check_id_arg("contextId", r.context_id));
  std::string out = "{\"v\":1,\"kind\":\"receipt\",\"refEventId\":";
  append_json_string(out, r.ref_event_id);
  out += ",\"contextId\":";
  append_json_string(out, r.context_id);
  out += ",\"status\":\"";
  out += receipt_status_name(r.status);
  out += "\"}";
  return out;
}

result<receipt_payload> parse_receipt_payload(std::string_view json) {
  auto j = detail::parse_peer_json(json);
  if (j.is_discarded()) return receipt_error("receipt is not JSON");
  if (!j.is_object()) return receipt_error("receipt must be a JSON object");
  if (!is_version_one(j)) return receipt_error("v must be 1");
  if (!has_kind(j, "receipt")) return receipt_error("kind must be \"receipt\"");
  receipt_payload r;
  const std::string* ref = find_string(j, "refEventId");
  if (!ref || !string_len_ok(*ref, 1, kMaxId)) return receipt_error("refEventId must be a string of 1 to 200 characters");
  r.ref_event_id = *ref;
  const std::string* cid = find_string(j, "contextId");
  if (!cid || !string_len_ok(*cid, 1, kMaxId)) return receipt_error("contextId must be a string of 1 to 200 characters");
  r.context_id = *cid;
  const std::string* st = find_string(j, "status");
  if (st && *st == "delivered")
    r.status = receipt_status::delivered;
  else if (st && *st == "quarantined")
    r.status = receipt_status::quarantined;
  else
    return receipt_error("status must be \"delivered\" or \"quarantined\"");
  return r;
}

std::string new_id(const std::uint8_t random16[16]) { return hex::encode(random16, 16); }

}  // namespace nostr::agx
