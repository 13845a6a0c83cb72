// Where an inbound message goes (SPEC.md "Unhandled task traffic", "Authorization",
// "Result sender binding", "Content types"). A task-labelled message is consumed as a task only
// when we can service it: a request for a capability we have a handler for, or a result for one of
// our open requests. Everything else (unknown capability, unmatched or late result, malformed
// envelope) goes to the plain-message path and is never auto-replied to. A request we could
// service but the policy denies gets no reply and no receipt, never reaches the handler, and is
// delivered on the plain path too. A message of an unknown content type is ignored ("ignored, not
// mis-parsed", as the reference drops it) unless the host keeps such messages: then it goes to the
// plain path, unanswered too. Only a plain text message may get an automated reply.
#pragma once
#include <string>
#include <vector>

#include "protocols/agx/authorization.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/pending.hpp"

namespace nostr::agx {

enum class route_action {
  run_handler,     // send the receipt (before the handler runs), run it, send its result
  ask_host,        // the host's authorize function decides: then call after_host_verdict
  settle_pending,  // the result of one of our requests, from the peer it went to
  drop,            // a result from another sender for one of our requests, or an unknown content
                   // type (unless kept): no delivery, no reply
  deliver_plain,   // onMessage; no task reply, no receipt
  task_update,     // a status update (working / input-required) of one of our requests, from its peer
  task_input,      // the answer to one of our handlers' input-required, from the task's requester
};

enum class route_reason {
  plain_message,         // a text message
  unknown_content_type,  // dropped, or delivered as opaque when the host keeps them
  malformed_task,        // task-labelled but not an envelope
  unknown_capability,    // no handler for it
  unmatched_result,      // no open request with this task id
  denied,                // the policy (or the host) said no
  denied_unconfigured,   // no policy configured: the host warns once
  allowed,
  needs_host,
  matched_result,
  wrong_sender,
  matched_update,
  matched_input,
  unmatched_input,  // no handler of ours waits for input on this task id
};

const char* route_action_name(route_action a);
const char* route_reason_name(route_reason r);

struct route_decision {
  route_action action = route_action::deliver_plain;
  route_reason reason = route_reason::plain_message;
  bool send_receipt = false;  // true only with run_handler
  bool may_auto_reply = false;  // a task reply may be sent (run_handler only)
  // The plain path may answer it with a message (a reply handle): a plain text message only, never
  // task traffic we do not service, a denied request or an unknown content type (SPEC.md: those
  // MUST NOT be auto-replied to, and a denied request receives no reply).
  bool may_reply = false;
  std::string handler_key;    // run_handler / ask_host: the registered key that services it
  std::string capability;
  std::string task_id;
};

struct route_options {
  bool keep_unknown_content_types = false;  // deliver them (plain path) instead of dropping them
};

// awaiting_input: the tasks our handlers asked input for (task id -> the requester), or null.
// A status update is bound to the peer of the request like a result; an input answer to the
// requester of the task: from anyone else it is dropped.
route_decision route(const inbound_message& m, const std::vector<std::string>& handler_keys,
                     const pending_requests& pending, const authorization_policy& policy,
                     const pending_requests* awaiting_input = nullptr, const route_options& options = {});

// Completes an ask_host decision with the host's answer (no effect on any other decision).
route_decision after_host_verdict(route_decision d, bool allowed);

}  // namespace nostr::agx
