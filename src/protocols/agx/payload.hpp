// The AGX payload wire format carried as a rumor's plaintext content: the A2A-Message-shaped
// message payload (kind 3838) and the receipt payload (kind 3839). Shapes and key order follow the
// reference's wire.ts so the bytes equal what @nostr-agx/* emits (AGX-WIRE.md "message rumor",
// "receipt rumor").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nostr::agx {

// How a receiver may read a payload's text (SPEC.md "Content types": unknown types are ignored,
// not mis-parsed).
enum class content_class {
  text,     // application/a2a+json (and the reference's other plain types): the text is a message
  task,     // application/agx-task+json: the text may be a task envelope (task.hpp)
  unknown,  // anything else: delivered as opaque, never interpreted
};

// The class of a content-type label. Plain types: application/a2a+json, application/agx+json,
// application/json (the reference's built-in set).
content_class classify_content_type(std::string_view content_type);

// What a sender puts in a message payload. Ids come from the caller's randomness (new_id).
struct message_fields {
  std::string text;
  std::string message_id;
  std::string context_id;
  std::string content_type = std::string("application/a2a+json");
  std::optional<std::string> subject;  // at most kMaxSubject UTF-16 units
  int auto_depth = 0;                  // clamped to 0..255; written only when above 0
};

// {"v":1,"kind":"message","contentType":..,"role":"user","messageId":..,"contextId":..,
//  "parts":[{"text":..}],"subject":..|null[,"autoDepth":n]}.
// role is pinned to "user": AGX does not interpret it (SPEC.md "Automated-reply depth").
// INVALID_UTF8 for text that is not UTF-8; INVALID_ARGUMENT for an empty or oversize id or content
// type, an empty text, or an oversize subject.
result<std::string> message_payload_json(const message_fields& f);

// A parsed inbound message payload.
struct message_payload {
  std::string content_type;
  std::string role;  // "user" or "agent"; never a basis for trust or automation
  std::string message_id;
  std::string context_id;
  std::string text;                    // parts' texts joined
  std::optional<std::string> subject;  // kept to kMaxSubject units
  // SPEC.md: absent or unusable counts as 0 and never fails delivery.
  int auto_depth = 0;
  bool auto_depth_present = false;  // a usable value was on the wire
  content_class cls = content_class::text;
};

// Parses a message payload with the reference schema's rules (v 1, kind "message", contentType at
// most 128 units defaulting to A2A, role user|agent defaulting to user, ids 1..200 units, 1..64
// parts each with a string text, subject null or at most 65535 units, a non-empty joined text).
// An unknown content type is not an error: the payload comes back with cls = unknown.
// AGX_PAYLOAD_INVALID otherwise.
result<message_payload> parse_message_payload(std::string_view json);

enum class receipt_status { delivered, quarantined };
const char* receipt_status_name(receipt_status s);

struct receipt_payload {
  std::string ref_event_id;  // the acknowledged message's RUMOR id
  std::string context_id;
  receipt_status status = receipt_status::delivered;
};

// {"v":1,"kind":"receipt","refEventId":..,"contextId":..,"status":"delivered"}.
// INVALID_ARGUMENT for an empty or oversize id.
result<std::string> receipt_payload_json(const receipt_payload& r);

// AGX_RECEIPT_INVALID unless v 1, kind "receipt", ids 1..200 units, status delivered|quarantined.
result<receipt_payload> parse_receipt_payload(std::string_view json);

// A 128-bit id as 32 lowercase hex characters (the reference's randomId), from caller randomness.
std::string new_id(const std::uint8_t random16[16]);

}  // namespace nostr::agx
