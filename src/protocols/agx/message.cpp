#include "protocols/agx/message.hpp"

#include "protocols/agx/constants.hpp"
#include "protocols/agx/size.hpp"
#include "util/hex.hpp"

namespace nostr::agx {
namespace {

result<void> check_keys(std::string_view author, std::string_view recipient) {
  if (!hex::is_lower_hex(author, 32)) return make_error(errc::invalid_public_key, "author must be 64 lowercase hex");
  if (!hex::is_lower_hex(recipient, 32))
    return make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex");
  return {};
}

event make_rumor(std::int64_t kind, tag_list tags, std::string content, std::string_view author, std::int64_t now) {
  event_template t;
  t.kind = kind;
  t.created_at = now;  // the real time: only the seal and wrap are backdated
  t.tags = std::move(tags);
  t.content = std::move(content);
  return make_unsigned(t, author);
}

const std::string* first_tag_value(const tag_list& tags, std::string_view name) {
  for (const auto& t : tags)
    if (t.size() >= 2 && t[0] == name) return &t[1];
  return nullptr;
}

}  // namespace

result<event> message_rumor(const message_fields& f, std::string_view author, std::string_view recipient,
                            std::int64_t now) {
  NOSTR_TRY(check_keys(author, recipient));
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  auto content = message_payload_json(f);
  if (!content) return content.err();
  event rumor = make_rumor(kMessageKind, {{"p", std::string(recipient)}, {"content-type", f.content_type}},
                           std::move(*content), author, now);
  std::size_t n = rumor_bytes(rumor);
  if (n > kInteropMaxRumorBytes)
    return make_error(errc::agx_too_large, "serialized rumor is " + std::to_string(n) + " bytes; the limit is 28672");
  return rumor;
}

result<event> task_request_rumor(const task_request_fields& f, std::string_view author, std::string_view recipient,
                                 std::int64_t now) {
  auto text = task_request_json(f.task_id, f.capability, f.payload_json, f.accepts_updates);
  if (!text) return text.err();
  message_fields m;
  m.text = std::move(*text);
  m.message_id = f.message_id;
  m.context_id = f.task_id;
  m.content_type = std::string(kTaskContentType);
  m.auto_depth = f.auto_depth;
  return message_rumor(m, author, recipient, now);
}

result<result_rumor> task_result_rumor(std::string_view task_id, const task_result& r, std::string_view message_id,
                                       std::string_view author, std::string_view recipient, std::int64_t now) {
  auto build = [&](const task_result& res) -> result<event> {
    auto text = task_result_json(task_id, res);
    if (!text) return text.err();
    message_fields m;
    m.text = std::move(*text);
    m.message_id = std::string(message_id);
    m.context_id = std::string(task_id);
    m.content_type = std::string(kTaskContentType);
    return message_rumor(m, author, recipient, now);
  };
  auto rumor = build(r);
  if (rumor) return result_rumor{std::move(*rumor), false};
  if (rumor.code() != errc::agx_too_large) return rumor.err();
  auto replaced = build(failed_result(kResultTooLarge));
  if (!replaced) return replaced.err();
  return result_rumor{std::move(*replaced), true};
}

result<event> task_envelope_rumor(std::string_view envelope_json, std::string_view task_id, std::string_view message_id,
                                  std::string_view author, std::string_view recipient, std::int64_t now) {
  auto env = parse_task_envelope(envelope_json);
  if (!env || (env->t != task_envelope::type::status && env->t != task_envelope::type::input) || env->task_id != task_id)
    return make_error(errc::invalid_argument, "expected a status or input envelope of this task");
  message_fields m;
  m.text = std::string(envelope_json);
  m.message_id = std::string(message_id);
  m.context_id = std::string(task_id);
  m.content_type = std::string(kTaskContentType);
  return message_rumor(m, author, recipient, now);
}

result<event> receipt_rumor(std::string_view ref_rumor_id, std::string_view context_id, receipt_status status,
                            std::string_view author, std::string_view recipient, std::int64_t now) {
  NOSTR_TRY(check_keys(author, recipient));
  if (now < 0) return make_error(errc::invalid_argument, "now must be non-negative");
  // Receipts are keyed by the message's rumor id (SPEC.md "Correlation & replay").
  if (!hex::is_lower_hex(ref_rumor_id, 32))
    return make_error(errc::invalid_argument, "a receipt references a rumor id (64 lowercase hex)");
  receipt_payload p;
  p.ref_event_id = std::string(ref_rumor_id);
  p.context_id = std::string(context_id);
  p.status = status;
  auto content = receipt_payload_json(p);
  if (!content) return content.err();
  return make_rumor(kReceiptKind, {{"p", std::string(recipient)}, {"e", std::string(ref_rumor_id)}},
                    std::move(*content), author, now);
}

result<inbound_message> read_message(const opened_wrap& w) {
  if (w.rumor.kind != kMessageKind) return make_error(errc::agx_rumor_kind, "not a message rumor (3838)");
  auto p = parse_message_payload(w.rumor.content);
  if (!p) return p.err();
  inbound_message m;
  m.from = w.from;
  m.rumor_id = w.rumor.id;
  m.wrap_id = w.wrap_id;
  m.sent_at = w.rumor.created_at;
  m.wrap_created_at = w.wrap_created_at;
  m.payload = std::move(*p);
  const std::string* tag_ct = first_tag_value(w.rumor.tags, "content-type");
  if (tag_ct && *tag_ct != m.payload.content_type) m.payload.cls = content_class::unknown;
  if (m.payload.cls == content_class::task) {
    auto env = parse_task_envelope(m.payload.text);
    if (env)
      m.task = std::move(*env);
    else
      m.task_malformed = true;
  }
  return m;
}

result<inbound_receipt> read_receipt(const opened_wrap& w) {
  if (w.rumor.kind != kReceiptKind) return make_error(errc::agx_rumor_kind, "not a receipt rumor (3839)");
  auto p = parse_receipt_payload(w.rumor.content);
  if (!p) return p.err();
  const std::string* e = first_tag_value(w.rumor.tags, "e");
  if (!e || *e != p->ref_event_id)
    return make_error(errc::agx_receipt_invalid, "receipt e tag is missing or differs from refEventId");
  inbound_receipt r;
  r.from = w.from;
  r.rumor_id = w.rumor.id;
  r.wrap_id = w.wrap_id;
  r.sent_at = w.rumor.created_at;
  r.wrap_created_at = w.wrap_created_at;
  r.receipt = std::move(*p);
  return r;
}

}  // namespace nostr::agx
