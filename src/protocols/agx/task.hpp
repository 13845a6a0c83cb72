// AGX task semantics (SPEC.md "Task lifecycle"): the request and result envelopes carried as a
// message's text under application/agx-task+json, the task states with their legal transitions,
// and the error boundary a failed result crosses.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nostr::agx {

// --- Envelopes

// {"t":"req","taskId":..,"capability":..,"payload":<JSON>[,"accepts":["status","input"]]}.
// payload_json is JSON text embedded as given (pass JSON.stringify's output for byte equality with
// the reference); nullopt leaves the key out, as JSON.stringify does for undefined.
// accepts_updates: the requester understands our status and input envelopes (below), so the
// responder may send them; without it (the reference's shape) a responder sends none. A reference
// peer's schema ignores the extra member.
// INVALID_ARGUMENT (ids empty or over 200 characters, payload not JSON), INVALID_UTF8.
result<std::string> task_request_json(std::string_view task_id, std::string_view capability,
                                      std::optional<std::string_view> payload_json, bool accepts_updates = false);

// The names a request's "accepts" lists: the envelope types it understands beyond req/res.
constexpr std::string_view kAcceptsStatus = "status";
constexpr std::string_view kAcceptsInput = "input";

enum class result_status { completed, failed };
const char* result_status_name(result_status s);

struct task_result {
  result_status status = result_status::completed;
  std::optional<std::string> output_json;  // completed: the handler's return value as JSON
  std::optional<std::string> error;        // failed: at most kMaxResultError characters
};

// A completed result carrying output_json (nullopt: the handler returned nothing).
task_result completed_result(std::optional<std::string> output_json);
// SPEC.md "Error boundary": a thrown handler error reaches the peer only as "handler failed"; the
// text of an AgxPublicError (public_message) is forwarded verbatim, cut to kMaxResultError units so
// the reference's schema (error at most 2000) still accepts the result.
task_result failed_result(std::optional<std::string_view> public_message);

// {"t":"res","taskId":..,"status":..[,"output":<JSON>][,"error":..]}.
// INVALID_ARGUMENT (task id, output not JSON, error over 2000 characters), INVALID_UTF8.
result<std::string> task_result_json(std::string_view task_id, const task_result& r);

enum class task_state { submitted, working, input_required, completed, failed, canceled };

// Status updates (SPEC.md "Task lifecycle": working / input-required "are reserved for status
// updates"; neither SPEC.md nor the reference gives them a wire shape, so this one is ours):
//   {"t":"status","taskId":..,"status":"working"|"input-required"[,"message":..]}  responder -> requester
//   {"t":"input","taskId":..[,"input":<JSON>]}                                    requester -> responder
// A reference peer parses neither as a task envelope and delivers it on its plain-message path.
// INVALID_ARGUMENT (task id, state not working/input-required, message over 2000 characters,
// input not JSON), INVALID_UTF8.
result<std::string> task_status_json(std::string_view task_id, task_state state,
                                     std::optional<std::string_view> message);
result<std::string> task_input_json(std::string_view task_id, std::optional<std::string_view> input_json);

// A parsed task envelope. Raw JSON members come back as compact JSON text.
struct task_envelope {
  enum class type { request, result, status, input } t = type::request;
  std::string task_id;
  // request
  std::string capability;
  std::optional<std::string> payload_json;  // nullopt when the key is absent
  // What the requester said it understands ("accepts"): status updates may go to it only when
  // accepts_status, an input-required status only when it accepts both (it must answer with input).
  bool accepts_status = false;
  bool accepts_input = false;
  // result
  result_status status = result_status::completed;
  std::optional<std::string> output_json;
  std::optional<std::string> error;
  // status: working or input-required, with an optional note (at most 2000 characters)
  task_state update_state{};
  std::optional<std::string> message;
  // input: the requester's answer to input-required (nullopt when the key is absent)
  std::optional<std::string> input_json;
};

// Parses a message text as a task envelope with the reference schema's rules (t req|res, and our
// status|input; taskId
// and capability 1..200 units; status completed|failed; error a string of at most 2000 units; other
// members ignored, and a request's "accepts" read leniently: entries that are not strings, and
// any member that is not an array, count for nothing). AGX_TASK_INVALID otherwise: such traffic
// goes to the plain-message path.
result<task_envelope> parse_task_envelope(std::string_view text);

// Which of our status envelopes a responder sends for a request (SPEC.md gives them no wire shape,
// so a peer gets them only when it said it understands them, task_request_json's "accepts"): status
// updates when the request accepts "status"; an input-required status only when it accepts "input"
// too, since the requester must answer it. A reference peer's request accepts neither.
inline bool may_send_status(const task_envelope& request) { return request.accepts_status; }
inline bool may_request_input(const task_envelope& request) { return request.accepts_status && request.accepts_input; }

// --- States (A2A-aligned): task_state is declared above, with the status envelopes.

// "submitted", "working", "input-required", "completed", "failed", "canceled".
const char* task_state_name(task_state s);
std::optional<task_state> parse_task_state(std::string_view name);
bool is_terminal(task_state s);

// submitted -> working | input-required | a terminal state; working <-> input-required; any
// non-terminal state -> completed | failed | canceled; nothing leaves a terminal state, and no
// state moves to itself.
bool can_transition(task_state from, task_state to);

// `to` when the move is legal, AGX_TASK_TRANSITION otherwise.
result<task_state> transition(task_state from, task_state to);

// The state a result envelope settles a task in.
inline task_state state_of(result_status s) {
  return s == result_status::completed ? task_state::completed : task_state::failed;
}

}  // namespace nostr::agx
