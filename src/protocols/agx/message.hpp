// AGX rumors: building the unsigned 3838 (message, task request, task result) and 3839 (receipt)
// events a sender seals and wraps (wrap.hpp), and reading the rumor of an opened wrap
// (unwrap.hpp) back into a message or a receipt. A rumor has no sig and is never publishable by
// itself (SPEC.md "Event kinds": MUST NOT be published bare).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "event/event.hpp"
#include "protocols/agx/payload.hpp"
#include "protocols/agx/task.hpp"
#include "protocols/agx/unwrap.hpp"
#include "util/result.hpp"

namespace nostr::agx {

// Kind 3838 rumor by `author_pubkey_hex` to `recipient_pubkey_hex` at the real time `now`:
// tags [["p",recipient],["content-type",f.content_type]], content = message_payload_json(f).
// AGX_TOO_LARGE when the serialized rumor exceeds kInteropMaxRumorBytes (SPEC.md "Message size":
// fail before sending, never a transport throw); errors of message_payload_json; INVALID_PUBLIC_KEY.
result<event> message_rumor(const message_fields& f, std::string_view author_pubkey_hex,
                            std::string_view recipient_pubkey_hex, std::int64_t now);

// A task request as a message: text = task_request_json, content type application/agx-task+json,
// contextId = task_id (the transport correlation id). auto_depth as for any message.
struct task_request_fields {
  std::string task_id;
  std::string capability;
  std::optional<std::string> payload_json;
  std::string message_id;
  int auto_depth = 0;
  bool accepts_updates = false;  // task.hpp task_request_json: we understand status and input
};
result<event> task_request_rumor(const task_request_fields& f, std::string_view author_pubkey_hex,
                                 std::string_view recipient_pubkey_hex, std::int64_t now);

// A task result as a message (never carries autoDepth: SPEC.md, a result is terminal). When the
// rumor would exceed the bound, the result is replaced by failed "result too large" rather than
// truncated (SPEC.md "Message size"); replaced_too_large says so.
struct result_rumor {
  event rumor;
  bool replaced_too_large = false;
};
result<result_rumor> task_result_rumor(std::string_view task_id, const task_result& r, std::string_view message_id,
                                       std::string_view author_pubkey_hex, std::string_view recipient_pubkey_hex,
                                       std::int64_t now);

// A task status update or input answer (task_status_json / task_input_json text) as a message:
// content type application/agx-task+json, contextId = task_id, no autoDepth (it belongs to a task
// already running, not a new automated exchange). AGX_TOO_LARGE past the bound.
result<event> task_envelope_rumor(std::string_view envelope_json, std::string_view task_id, std::string_view message_id,
                                  std::string_view author_pubkey_hex, std::string_view recipient_pubkey_hex,
                                  std::int64_t now);

// Kind 3839 rumor acknowledging the message rumor `ref_rumor_id` (its RUMOR id, not a wrap id):
// tags [["p",recipient],["e",ref]], content = receipt_payload_json.
result<event> receipt_rumor(std::string_view ref_rumor_id, std::string_view context_id, receipt_status status,
                            std::string_view author_pubkey_hex, std::string_view recipient_pubkey_hex,
                            std::int64_t now);

// --- Reading an opened wrap

struct inbound_message {
  std::string from;     // seal signer
  std::string rumor_id; // message identity (receipts and replay are keyed on it)
  std::string wrap_id;
  std::int64_t sent_at = 0;          // rumor created_at: sender-declared
  std::int64_t wrap_created_at = 0;  // backdated
  message_payload payload;
  // Set when payload.cls is task and the text parses as an envelope; a task-labelled message
  // whose text does not parse stays a message (task_malformed) for the plain path.
  std::optional<task_envelope> task;
  bool task_malformed = false;
};

// The message of an opened 3838 rumor. AGX_RUMOR_KIND for another kind; AGX_PAYLOAD_INVALID for a
// payload that does not parse. A content-type tag that disagrees with the payload's contentType
// makes the class unknown (never guess which label to believe).
result<inbound_message> read_message(const opened_wrap& w);

struct inbound_receipt {
  std::string from;
  std::string rumor_id;
  std::string wrap_id;
  std::int64_t sent_at = 0;
  std::int64_t wrap_created_at = 0;
  receipt_payload receipt;
};

// The receipt of an opened 3839 rumor: AGX_RUMOR_KIND for another kind; AGX_RECEIPT_INVALID for a
// payload that does not parse or an e tag that is missing or differs from refEventId.
result<inbound_receipt> read_receipt(const opened_wrap& w);

}  // namespace nostr::agx
