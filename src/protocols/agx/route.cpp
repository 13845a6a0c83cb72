#include "protocols/agx/route.hpp"

#include "protocols/agx/capability.hpp"

namespace nostr::agx {
namespace {

route_decision plain(route_reason why) {
  route_decision d;
  d.action = route_action::deliver_plain;
  d.reason = why;
  d.may_reply = why == route_reason::plain_message;
  return d;
}

route_decision allowed(route_decision d) {
  d.action = route_action::run_handler;
  d.reason = route_reason::allowed;
  d.send_receipt = true;
  d.may_auto_reply = true;
  return d;
}

route_decision denied(route_decision d, route_reason why) {
  d.action = route_action::deliver_plain;
  d.reason = why;
  d.send_receipt = false;
  d.may_auto_reply = false;
  return d;
}

}  // namespace

const char* route_action_name(route_action a) {
  switch (a) {
    case route_action::run_handler: return "run-handler";
    case route_action::ask_host: return "ask-host";
    case route_action::settle_pending: return "settle-pending";
    case route_action::drop: return "drop";
    case route_action::deliver_plain: return "deliver-plain";
    case route_action::task_update: return "task-update";
    case route_action::task_input: return "task-input";
  }
  return "deliver-plain";
}

const char* route_reason_name(route_reason r) {
  switch (r) {
    case route_reason::plain_message: return "plain-message";
    case route_reason::unknown_content_type: return "unknown-content-type";
    case route_reason::malformed_task: return "malformed-task";
    case route_reason::unknown_capability: return "unknown-capability";
    case route_reason::unmatched_result: return "unmatched-result";
    case route_reason::denied: return "denied";
    case route_reason::denied_unconfigured: return "denied-unconfigured";
    case route_reason::allowed: return "allowed";
    case route_reason::needs_host: return "needs-host";
    case route_reason::matched_result: return "matched-result";
    case route_reason::wrong_sender: return "wrong-sender";
    case route_reason::matched_update: return "matched-update";
    case route_reason::matched_input: return "matched-input";
    case route_reason::unmatched_input: return "unmatched-input";
  }
  return "plain-message";
}

route_decision route(const inbound_message& m, const std::vector<std::string>& handler_keys,
                     const pending_requests& pending, const authorization_policy& policy,
                     const pending_requests* awaiting_input, const route_options& options) {
  switch (m.payload.cls) {
    case content_class::text: return plain(route_reason::plain_message);
    case content_class::unknown: {
      auto d = plain(route_reason::unknown_content_type);
      if (!options.keep_unknown_content_types) d.action = route_action::drop;
      return d;
    }
    case content_class::task: break;
  }
  if (!m.task) return plain(route_reason::malformed_task);
  const task_envelope& env = *m.task;
  route_decision d;
  d.task_id = env.task_id;

  if (env.t == task_envelope::type::result) {
    auto peer = pending.peer_of(env.task_id);
    if (!peer) {
      d.action = route_action::deliver_plain;
      d.reason = route_reason::unmatched_result;
      return d;
    }
    // SPEC.md "Result sender binding": only the peer the request went to may settle it.
    d.action = *peer == m.from ? route_action::settle_pending : route_action::drop;
    d.reason = *peer == m.from ? route_reason::matched_result : route_reason::wrong_sender;
    return d;
  }

  if (env.t == task_envelope::type::status) {
    auto peer = pending.peer_of(env.task_id);
    if (!peer) {
      d.action = route_action::deliver_plain;
      d.reason = route_reason::unmatched_result;
      return d;
    }
    // Bound like a result: a third party who learnt the task id cannot fake progress or ask for input.
    d.action = *peer == m.from ? route_action::task_update : route_action::drop;
    d.reason = *peer == m.from ? route_reason::matched_update : route_reason::wrong_sender;
    return d;
  }

  if (env.t == task_envelope::type::input) {
    auto peer = awaiting_input ? awaiting_input->peer_of(env.task_id) : std::nullopt;
    if (!peer) {
      d.action = route_action::deliver_plain;
      d.reason = route_reason::unmatched_input;
      return d;
    }
    d.action = *peer == m.from ? route_action::task_input : route_action::drop;
    d.reason = *peer == m.from ? route_reason::matched_input : route_reason::wrong_sender;
    return d;
  }

  d.capability = env.capability;
  auto key = find_handler(handler_keys, env.capability);
  if (!key) {
    d.action = route_action::deliver_plain;
    d.reason = route_reason::unknown_capability;
    return d;
  }
  d.handler_key = *key;
  // SPEC.md "Authorization": decided before the handler, per (from, capability), default deny.
  switch (policy.decide(m.from, env.capability)) {
    case auth_verdict::allow: return allowed(std::move(d));
    case auth_verdict::deny: return denied(std::move(d), route_reason::denied);
    case auth_verdict::deny_unconfigured: return denied(std::move(d), route_reason::denied_unconfigured);
    case auth_verdict::ask_host:
      d.action = route_action::ask_host;
      d.reason = route_reason::needs_host;
      return d;
  }
  return denied(std::move(d), route_reason::denied);
}

route_decision after_host_verdict(route_decision d, bool allow) {
  if (d.action != route_action::ask_host) return d;
  return allow ? allowed(std::move(d)) : denied(std::move(d), route_reason::denied);
}

}  // namespace nostr::agx
