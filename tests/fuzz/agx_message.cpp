// AGX rumors from the network (after the wrap and seal checks): message and receipt payloads,
// read_message / read_receipt on a rumor carrying the input as content, and the routing decision
// of an accepted message. Mode (first byte & 3):
//   0: parse_message_payload; an accepted payload, rebuilt with message_payload_json, parses to
//      the same fields;
//   1: parse_receipt_payload; receipt_payload_json of an accepted receipt parses back equal;
//   2: a kind 3838 rumor with the input as content (content-type tag from the second byte),
//      read_message, then route() against fixed handlers, pending requests and policies;
//   3: a kind 3839 rumor with the input as content and an e tag, read_receipt.
#include "protocols/agx/authorization.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/payload.hpp"
#include "protocols/agx/pending.hpp"
#include "protocols/agx/route.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::agx;

static const std::string kPeer(64, 'b');
static const std::string kMe(64, 'c');
static const std::string kRef(64, 'd');

static opened_wrap rumor_of(std::int64_t kind, std::string_view content, tag_list tags) {
  opened_wrap w;
  w.from = kPeer;
  w.wrap_id = std::string(64, 'e');
  w.wrap_created_at = 1700000000;
  w.rumor.id = std::string(64, 'f');
  w.rumor.pubkey = kPeer;
  w.rumor.created_at = 1700000001;
  w.rumor.kind = kind;
  w.rumor.content = std::string(content);
  w.rumor.tags = std::move(tags);
  return w;
}

static void route_everywhere(const inbound_message& m) {
  static const std::vector<std::string> handlers{"invoice.review", "echo"};
  static pending_requests pending = [] {
    pending_requests p;
    (void)p.add("task-1", kPeer, std::nullopt);
    (void)p.add("t", std::string(64, '0'), 1700000100);
    return p;
  }();
  static const authorization_policy none;
  static const authorization_policy all = authorization_policy::accept_all();
  static const authorization_policy host = authorization_policy::host_decides();
  static const authorization_policy list = [] {
    authorization_policy p;
    (void)p.allow(kPeer, "invoice.*");
    return p;
  }();
  for (const auto* policy : {&none, &all, &host, &list}) {
    route_decision d = route(m, handlers, pending, *policy);
    FUZZ_CHECK(!d.send_receipt || d.action == route_action::run_handler);
    FUZZ_CHECK(!d.may_auto_reply || d.action == route_action::run_handler);
    // Not a task: delivered as a plain message, or dropped for an unknown content type (the
    // default; route_options keeps them), never a receipt, a handler run or a settled request.
    if (!m.task)
      FUZZ_CHECK(d.action == route_action::deliver_plain ||
                 (d.action == route_action::drop && d.reason == route_reason::unknown_content_type));
    (void)route_action_name(d.action);
    (void)route_reason_name(d.reason);
    (void)after_host_verdict(d, true);
    (void)after_host_verdict(d, false);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t mode = data[0] & 3;
  const std::uint8_t sel = data[1];
  const std::string_view in = fuzz::text(data + 2, size - 2);
  switch (mode) {
    case 0: {
      auto p = parse_message_payload(in);
      if (!p.ok()) return 0;
      FUZZ_CHECK(!p->text.empty());
      message_fields f;
      f.text = p->text;
      f.message_id = p->message_id;
      f.context_id = p->context_id;
      f.content_type = p->content_type;
      f.auto_depth = p->auto_depth;
      if (p->subject && p->subject->size() <= 200) f.subject = p->subject;
      auto out = message_payload_json(f);
      if (!out.ok()) return 0;  // the inbound caps are wider than the outbound ones
      auto again = parse_message_payload(*out);
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(again->text == p->text && again->message_id == p->message_id &&
                 again->context_id == p->context_id && again->content_type == p->content_type &&
                 again->auto_depth == p->auto_depth && again->cls == p->cls);
      return 0;
    }
    case 1: {
      auto r = parse_receipt_payload(in);
      if (!r.ok()) return 0;
      auto out = receipt_payload_json(*r);
      FUZZ_CHECK(out.ok());
      auto again = parse_receipt_payload(*out);
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(again->ref_event_id == r->ref_event_id && again->context_id == r->context_id &&
                 again->status == r->status);
      return 0;
    }
    case 2: {
      static const char* types[] = {"application/a2a+json", "application/agx-task+json", "application/json",
                                    "text/plain"};
      tag_list tags{{"p", kMe}};
      if (sel & 4) tags.push_back({"content-type", types[sel & 3]});
      auto m = read_message(rumor_of(3838, in, tags));
      if (!m.ok()) return 0;
      FUZZ_CHECK(m->from == kPeer);
      FUZZ_CHECK(!(m->task && m->task_malformed));
      route_everywhere(*m);
      return 0;
    }
    default: {
      tag_list tags{{"p", kMe}};
      if (sel & 1) tags.push_back({"e", kRef});
      auto r = read_receipt(rumor_of(3839, in, tags));
      if (r.ok()) FUZZ_CHECK(r->receipt.ref_event_id == kRef);
      return 0;
    }
  }
}
