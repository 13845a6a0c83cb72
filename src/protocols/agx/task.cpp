#include "protocols/agx/task.hpp"

#include "event/event.hpp"
#include "protocols/agx/constants.hpp"
#include "protocols/agx/json_text.hpp"

namespace nostr::agx {
namespace {

error task_error(std::string detail) { return make_error(errc::agx_task_invalid, std::move(detail)); }

result<void> check_short_string(std::string_view what, std::string_view s) {
  if (!detail::valid_utf8(s)) return make_error(errc::invalid_utf8, std::string(what) + " is not UTF-8");
  if (s.empty() || detail::utf16_length(s) > kMaxId)
    return make_error(errc::invalid_argument, std::string(what) + " must be 1 to 200 characters");
  return {};
}

// JSON text we are asked to embed: well-formed, UTF-8, bounded nesting (so the peer can re-read it).
result<void> check_embedded_json(std::string_view what, std::string_view text) {
  if (detail::parse_peer_json(text).is_discarded())
    return make_error(errc::invalid_argument, std::string(what) + " is not JSON (or nested too deeply)");
  return {};
}

// Embedded JSON without surrounding whitespace, so the output is compact like JSON.stringify's.
std::string_view trimmed(std::string_view s) {
  const char* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

}  // namespace

result<std::string> task_request_json(std::string_view task_id, std::string_view capability,
                                      std::optional<std::string_view> payload_json, bool accepts_updates) {
  NOSTR_TRY(check_short_string("taskId", task_id));
  NOSTR_TRY(check_short_string("capability", capability));
  if (payload_json) NOSTR_TRY(check_embedded_json("payload", *payload_json));
  std::string out = "{\"t\":\"req\",\"taskId\":";
  append_json_string(out, task_id);
  out += ",\"capability\":";
  append_json_string(out, capability);
  if (payload_json) {
    out += ",\"payload\":";
    out += trimmed(*payload_json);
  }
  if (accepts_updates) {
    out += ",\"accepts\":[\"";
    out += kAcceptsStatus;
    out += "\",\"";
    out += kAcceptsInput;
    out += "\"]";
  }
  out.push_back('}');
  return out;
}

const char* result_status_name(result_status s) { return s == result_status::completed ? "completed" : "failed"; }

task_result completed_result(std::optional<std::string> output_json) {
  task_result r;
  r.status = result_status::completed;
  r.output_json = std::move(output_json);
  return r;
}

task_result failed_result(std::optional<std::string_view> public_message) {
  task_result r;
  r.status = result_status::failed;
  if (public_message && detail::valid_utf8(*public_message))
    r.error = std::string(detail::utf16_prefix(*public_message, kMaxResultError));
  else
    r.error = std::string(kHandlerFailed);
  return r;
}

result<std::string> task_result_json(std::string_view task_id, const task_result& r) {
  NOSTR_TRY(check_short_string("taskId", task_id));
  if (r.output_json) NOSTR_TRY(check_embedded_json("output", *r.output_json));
  if (r.error) {
    if (!detail::valid_utf8(*r.error)) return make_error(errc::invalid_utf8, "error is not UTF-8");
    if (detail::utf16_length(*r.error) > kMaxResultError)
      return make_error(errc::invalid_argument, "error must be at most 2000 characters");
  }
  std::string out = "{\"t\":\"res\",\"taskId\":";
  append_json_string(out, task_id);
  out += ",\"status\":\"";
  out += result_status_name(r.status);
  out.push_back('"');
  if (r.output_json) {
    out += ",\"output\":";
    out += trimmed(*r.output_json);
  }
  if (r.error) {
    out += ",\"error\":";
    append_json_string(out, *r.error);
  }
  out.push_back('}');
  return out;
}

result<std::string> task_status_json(std::string_view task_id, task_state state,
                                     std::optional<std::string_view> message) {
  NOSTR_TRY(check_short_string("taskId", task_id));
  if (state != task_state::working && state != task_state::input_required)
    return make_error(errc::invalid_argument, "a status update is working or input-required");
  if (message) {
    if (!detail::valid_utf8(*message)) return make_error(errc::invalid_utf8, "message is not UTF-8");
    if (detail::utf16_length(*message) > kMaxResultError)
      return make_error(errc::invalid_argument, "message must be at most 2000 characters");
  }
  std::string out = "{\"t\":\"status\",\"taskId\":";
  append_json_string(out, task_id);
  out += ",\"status\":\"";
  out += task_state_name(state);
  out.push_back('"');
  if (message) {
    out += ",\"message\":";
    append_json_string(out, *message);
  }
  out.push_back('}');
  return out;
}

result<std::string> task_input_json(std::string_view task_id, std::optional<std::string_view> input_json) {
  NOSTR_TRY(check_short_string("taskId", task_id));
  if (input_json) NOSTR_TRY(check_embedded_json("input", *input_json));
  std::string out = "{\"t\":\"input\",\"taskId\":";
  append_json_string(out, task_id);
  if (input_json) {
    out += ",\"input\":";
    out += trimmed(*input_json);
  }
  out.push_back('}');
  return out;
}

result<task_envelope> parse_task_envelope(std::string_view text) {
  auto j = detail::parse_peer_json(text);
  if (j.is_discarded()) return task_error("task envelope is not JSON (or nested too deeply)");
  if (!j.is_object()) return task_error("task envelope must be a JSON object");
  task_envelope env;
  const std::string* t = detail::find_string(j, "t");
  if (!t || (*t != "req" && *t != "res" && *t != "status" && *t != "input"))
    return task_error("t must be \"req\", \"res\", \"status\" or \"input\"");
  const std::string* id = detail::find_string(j, "taskId");
  if (!id || !detail::string_len_ok(*id, 1, kMaxId)) return task_error("taskId must be a string of 1 to 200 characters");
  env.task_id = *id;

  if (*t == "req") {
    env.t = task_envelope::type::request;
    const std::string* cap = detail::find_string(j, "capability");
    if (!cap || !detail::string_len_ok(*cap, 1, kMaxId))
      return task_error("capability must be a string of 1 to 200 characters");
    env.capability = *cap;
    auto p = j.find("payload");
    if (p != j.end()) env.payload_json = detail::dump_json(*p);
    auto acc = j.find("accepts");
    if (acc != j.end() && acc->is_array())
      for (const auto& a : *acc) {
        if (!a.is_string()) continue;
        env.accepts_status = env.accepts_status || a.get_ref<const std::string&>() == kAcceptsStatus;
        env.accepts_input = env.accepts_input || a.get_ref<const std::string&>() == kAcceptsInput;
      }
    return env;
  }

  if (*t == "status") {
    env.t = task_envelope::type::status;
    const std::string* st = detail::find_string(j, "status");
    auto state = st ? parse_task_state(*st) : std::nullopt;
    if (!state || (*state != task_state::working && *state != task_state::input_required))
      return task_error("a status update's status must be \"working\" or \"input-required\"");
    env.update_state = *state;
    auto msg = j.find("message");
    if (msg != j.end() && !msg->is_null()) {
      if (!msg->is_string() || !detail::string_len_ok(msg->get_ref<const std::string&>(), 0, kMaxResultError))
        return task_error("message must be a string of at most 2000 characters");
      env.message = msg->get_ref<const std::string&>();
    }
    return env;
  }
  if (*t == "input") {
    env.t = task_envelope::type::input;
    auto in = j.find("input");
    if (in != j.end()) env.input_json = detail::dump_json(*in);
    return env;
  }

  env.t = task_envelope::type::result;
  const std::string* st = detail::find_string(j, "status");
  if (st && *st == "completed")
    env.status = result_status::completed;
  else if (st && *st == "failed")
    env.status = result_status::failed;
  else
    return task_error("status must be \"completed\" or \"failed\"");
  auto out = j.find("output");
  if (out != j.end()) env.output_json = detail::dump_json(*out);
  auto err = j.find("error");
  if (err != j.end()) {
    if (!err->is_string() || !detail::string_len_ok(err->get_ref<const std::string&>(), 0, kMaxResultError))
      return task_error("error must be a string of at most 2000 characters");
    env.error = err->get_ref<const std::string&>();
  }
  return env;
}

// --- States

const char* task_state_name(task_state s) {
  switch (s) {
    case task_state::submitted: return "submitted";
    case task_state::working: return "working";
    case task_state::input_required: return "input-required";
    case task_state::completed: return "completed";
    case task_state::failed: return "failed";
    case task_state::canceled: return "canceled";
  }
  return "submitted";
}

std::optional<task_state> parse_task_state(std::string_view name) {
  for (auto s : {task_state::submitted, task_state::working, task_state::input_required, task_state::completed,
                 task_state::failed, task_state::canceled})
    if (name == task_state_name(s)) return s;
  return std::nullopt;
}

bool is_terminal(task_state s) {
  return s == task_state::completed || s == task_state::failed || s == task_state::canceled;
}

bool can_transition(task_state from, task_state to) {
  if (from == to || is_terminal(from)) return false;
  if (is_terminal(to)) return true;
  switch (from) {
    case task_state::submitted: return to == task_state::working || to == task_state::input_required;
    case task_state::working: return to == task_state::input_required;
    case task_state::input_required: return to == task_state::working;
    default: return false;
  }
}

result<task_state> transition(task_state from, task_state to) {
  if (!can_transition(from, to))
    return make_error(errc::agx_task_transition,
                      std::string("task cannot go from ") + task_state_name(from) + " to " + task_state_name(to));
  return to;
}

}  // namespace nostr::agx
