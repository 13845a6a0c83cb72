// AGX task envelopes (a task-labelled message's text) from the network: an accepted request,
// result, status update or input answer, written again with task_request_json / task_result_json /
// task_status_json / task_input_json, parses to the same envelope;
// task state names parse and print back.
#include "protocols/agx/task.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::agx;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = fuzz::text(data, size);
  if (auto s = parse_task_state(in)) FUZZ_CHECK(in == task_state_name(*s));

  auto t = parse_task_envelope(in);
  if (!t.ok()) {
    FUZZ_CHECK(t.code() == errc::agx_task_invalid);
    return 0;
  }
  FUZZ_CHECK(!t->task_id.empty());
  result<std::string> out = make_error(errc::internal);
  if (t->t == task_envelope::type::request) {
    std::optional<std::string_view> payload;
    if (t->payload_json) payload = *t->payload_json;
    out = task_request_json(t->task_id, t->capability, payload);
  } else if (t->t == task_envelope::type::status) {
    std::optional<std::string_view> message;
    if (t->message) message = *t->message;
    out = task_status_json(t->task_id, t->update_state, message);
  } else if (t->t == task_envelope::type::input) {
    std::optional<std::string_view> input;
    if (t->input_json) input = *t->input_json;
    out = task_input_json(t->task_id, input);
  } else {
    task_result r;
    r.status = t->status;
    r.output_json = t->output_json;
    r.error = t->error;
    out = task_result_json(t->task_id, r);
  }
  FUZZ_CHECK(out.ok());
  auto again = parse_task_envelope(*out);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->t == t->t && again->task_id == t->task_id && again->capability == t->capability &&
             again->payload_json == t->payload_json && again->status == t->status &&
             again->output_json == t->output_json && again->error == t->error &&
             again->update_state == t->update_state && again->message == t->message && again->input_json == t->input_json);
  return 0;
}
