// The AGX endpoint machine (sans-IO, as h11 and quinn-proto): one object per identity that owns the
// order SPEC.md's exactly-once rule depends on ("Correlation & replay", "Cursor advance",
// "Authorization", "Result sender binding") and every deadline of the endpoint. Wraps, host answers,
// outgoing requests, poll begin/end and `now` go in; actions and the next deadline come out. The host
// executes the actions in order (persist before anything after it acts), never decides.
//
// Inbound, per wrap: the wrap id is consulted (a processed or cached wrap is a replay) before room is
// checked and before anything is decrypted; the public checks (a signature the caller's layer already
// verified is not verified again); the opening; a rumor being decided (claimed) or processed already
// makes the new wrap a replay (cached); the route; the ids are recorded (persist) the moment the
// route is final, before any action that acts on the message: a task request only once the host's
// authorize answered (claimed meanwhile), with the request wrap's expiry. A full store refuses
// (overloaded, nothing recorded, nothing acted on).
//
// Clock: one unit, milliseconds (`now_ms`); wire times and the replay store are whole seconds of it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "nips/nip59.hpp"
#include "protocols/agx/authorization.hpp"
#include "protocols/agx/cursor.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/pending.hpp"
#include "protocols/agx/poll_schedule.hpp"
#include "protocols/agx/route.hpp"
#include "protocols/agx/seen_store.hpp"
#include "protocols/agx/task_gate.hpp"
#include "protocols/agx/unwrap.hpp"
#include "util/result.hpp"

namespace nostr::agx {

// What became of one inbound wrap.
enum class inbound_verdict {
  processed,   // acted on (its actions say how), ids recorded
  pending,     // a task request waits for the host's authorize (ask_host): host_verdict() ends it
  replay,      // a processed (or being decided) rumor or wrap: nothing to do
  invalid,     // a public check failed: recorded nowhere
  discarded,   // passed the public checks, did not open or check out: cached
  future,      // dated beyond the skew: skipped, not recorded, polled again
  retry,       // a local fault (key, misuse): not recorded, the poll is incomplete
  overloaded,  // the replay store is full: not recorded, the poll is incomplete
  ignored,     // the endpoint is closed
};
const char* inbound_verdict_name(inbound_verdict v);

enum class action_kind {
  persist,       // append `marks` to the durable seen store (before the actions after it)
  ask_host,      // the host's authorize({from, capability}) decides: answer host_verdict(rumor_id)
  record_task,   // a task request the flood limits admitted: its record (expires `until`) is written
                 // before the marks (a crash between leaves it recorded: run again at start)
  run_handler,   // the task request: run now, queued (ticket), or rejected (a failed result)
  deliver,       // the plain path (onMessage), with `reason` and `may_reply`
  receipt,       // a receipt of one of our messages (ref = receipt.ref_event_id)
  settle,        // one of our requests has its result (from its peer): resolve or reject it
  update,        // a status update of one of our requests (its deadline restarted)
  input,         // the answer to one of our handlers' input-required
  drop,          // nothing to act on (`reason`): unknown content type (reported), forged result...
  duplicate_result,  // a second result for a request of ours that settled already: dropped, counted
  expire_request,    // a request of ours timed out (AGX_TIMEOUT): it is closed
  expire_input,      // a handler's wait for input timed out
  poll,          // a catch-up poll is due: poll_begin()
  warn_unconfigured,  // the one-time warning: no authorization configured
};
const char* action_kind_name(action_kind k);

struct action {
  action_kind kind = action_kind::drop;
  std::string rumor_id;
  std::string task_id;
  route_reason reason = route_reason::plain_message;
  bool may_reply = false;
  std::string handler_key;
  std::string capability;
  std::string peer;                   // run_handler: who asked (the flood limits' peer)
  task_admission gate;                // run_handler: run now, queued (ticket), or rejected
  std::int64_t until = 0;             // run_handler: the task record's expiry (s)
  std::vector<seen_entry> marks;      // persist
};

struct inbound_result {
  inbound_verdict verdict = inbound_verdict::ignored;
  std::optional<error> err;                 // invalid / discarded / future / retry / overloaded
  std::optional<opened_wrap> opened;        // once opened
  std::optional<inbound_message> message;   // a 3838 rumor
  std::optional<inbound_receipt> receipt;   // a 3839 rumor
  std::vector<action> actions;
};

struct endpoint_options {
  authorization_policy::mode mode = authorization_policy::mode::unconfigured;
  std::size_t seen_cap = kSeenCap;
  std::size_t cache_cap = kDiscardedCap;
  std::int64_t poll_overlap = kDefaultPollOverlap;   // s
  std::int64_t idle_poll_ms = kDefaultIdlePollMs;
  std::int64_t pending_poll_ms = kDefaultPendingPollMs;
  route_options route;
  std::size_t settled_cap = 10000;  // task ids of our settled requests remembered
};

class endpoint {
 public:
  explicit endpoint(const endpoint_options& o = {});
  endpoint(const endpoint&) = delete;
  endpoint& operator=(const endpoint&) = delete;

  // --- configuration
  result<void> allow(std::string_view pubkey_hex, std::string_view pattern);
  bool revoke(std::string_view pubkey_hex) { return policy_.revoke(pubkey_hex); }
  void set_handlers(std::vector<std::string> keys) { handlers_ = std::move(keys); }
  void keep_unknown_content_types(bool keep) { options_.route.keep_unknown_content_types = keep; }
  // The flood limits of served tasks (task_gate.hpp): every run_handler action carries the gate's
  // verdict (run, queued with its ticket, rate_limited or overloaded: answered with a failed result).
  void set_task_limits(const task_limits& l) { gate_ = task_gate(l); }
  // A served task ended: its slot is freed; the next queued ticket to start, or ticket 0.
  task_ticket task_done(std::string_view peer) { return gate_.release(peer); }
  // A task accepted before a restart runs again: admitted (not rate-counted, never refused).
  task_admission offer_rerun(std::string_view peer, std::int64_t now_ms) { return gate_.offer(peer, now_ms / 1000, true); }
  // Queued tickets dropped (the host stops): their records bring them back at the next start.
  std::vector<task_ticket> clear_queue() { return gate_.clear(); }
  const task_gate& gate() const { return gate_; }
  // The route of a message as things stand (no state changes): the public AgxRouter's route().
  route_decision preview(const inbound_message& m) const {
    return route(m, handlers_, requests_, policy_, &awaiting_, options_.route);
  }
  // A result for one of our requests from `from`, outside receive() (the public AgxRouter).
  settle_outcome settle(std::string_view task_id, std::string_view from);
  // True once, when nothing authorizes task requests (the host warns).
  bool take_unconfigured_warning() { return policy_.take_unconfigured_warning(); }
  const authorization_policy& policy() const { return policy_; }

  // --- inbound
  // A wrap with the recipient's keys at hand (one call: every check, the opening, the decision).
  // signature_verified: the caller's layer checked the id and signature already (the pool's feed).
  inbound_result receive(const event& wrap, const nip59::conversation_key_fn& ck, std::string_view me_hex,
                         std::int64_t now_ms, bool signature_verified = false);
  // For a key held by an external signer, in two steps: the checks before decrypting (a result
  // whose verdict is not `processed` ends it: replay, overloaded, invalid, future), then, once the
  // signer opened it, opened() (or open_failed() when it did not check out).
  inbound_result before_open(const event& wrap, std::string_view me_hex, std::int64_t now_ms,
                             bool signature_verified = false);
  inbound_result opened(opened_wrap w, std::int64_t now_ms);
  void open_failed(std::string_view wrap_id, disposition d, std::int64_t now_ms);
  // The host's authorize answered for a claimed task request.
  std::vector<action> host_verdict(std::string_view rumor_id, bool allowed, std::int64_t now_ms);

  // --- outgoing requests (deadline: timeout_ms > 0, else none)
  result<void> open_request(std::string_view task_id, std::string_view peer_hex, std::string_view rumor_id,
                            std::int64_t timeout_ms, std::int64_t now_ms);
  bool cancel_request(std::string_view task_id);
  // Our answer to an input-required went out: the request waits again (short polls restart).
  void input_sent(std::string_view task_id, std::int64_t now_ms);
  std::size_t open_requests() const { return requests_.size(); }
  // Our handler asked `peer` for input on `task_id` (deadline: timeout_ms > 0).
  result<void> await_input(std::string_view task_id, std::string_view peer_hex, std::int64_t timeout_ms,
                           std::int64_t now_ms);
  bool end_await(std::string_view task_id);

  // --- polls (SPEC.md "Cursor advance")
  poll_window poll_begin(std::int64_t now_ms);
  // complete: every relay answered with EOSE and no wrap was left retry/overloaded.
  void poll_end(const poll_window& w, bool complete, std::int64_t now_ms);
  std::int64_t cursor() const { return cursor_.position(); }
  void set_cursor(std::int64_t s) { cursor_ = inbox_cursor(s, overlap_); }
  std::int64_t lookback() const { return cursor_.lookback(); }
  // The catch-up timer starts (after start()'s first poll); before, no poll deadline.
  void start_polling() { polling_on_ = true; }

  // --- deadlines (ms; -1: none)
  std::int64_t next_deadline() const;
  std::vector<action> handle_timeout(std::int64_t now_ms);

  // --- the replay memory
  result<std::size_t> load(std::string_view snapshot_json, std::int64_t now_ms);
  std::vector<seen_entry> take_journal() { return processed_.take_journal(); }
  std::size_t processed_count() const { return processed_.size(); }
  std::size_t cap() const { return processed_.cap(); }
  std::size_t cached() const { return cache_.size(); }
  bool has_room(std::int64_t now_ms) { return guard_.has_room(now_ms / 1000); }
  std::uint64_t duplicate_results() const { return duplicate_results_; }

  // No action comes out after this (inbound is ignored, no deadline, timeouts produce nothing).
  void close();
  bool closed() const { return closed_; }

 private:
  struct claim {
    opened_wrap wrap;
    inbound_message message;
    route_decision decision;
  };
  inbound_result decide(opened_wrap w, std::int64_t now_ms);
  // Records the ids (false: the store is full) and appends the persist action.
  bool commit(const opened_wrap& w, std::int64_t until, std::int64_t now_ms, std::vector<action>& out);
  void final_route(const opened_wrap& w, const inbound_message& m, const route_decision& d, std::int64_t now_ms,
                   std::vector<action>& out, inbound_verdict& verdict);
  void remember_settled(const std::string& task_id, const std::string& peer, std::int64_t now_s);

  endpoint_options options_;
  authorization_policy policy_;
  std::vector<std::string> handlers_;
  memory_seen_store processed_;
  memory_seen_store cache_;
  replay_guard guard_;
  std::int64_t overlap_;
  inbox_cursor cursor_;
  poll_schedule polls_;
  bool polling_ = false;
  bool polling_on_ = false;
  task_gate gate_;
  pending_requests requests_;  // deadlines in ms
  std::map<std::string, std::int64_t> request_timeouts_;  // task id -> its timeout (restarted by updates)
  pending_requests awaiting_;  // deadlines in ms
  std::map<std::string, claim> claimed_;  // rumor id -> a task request waiting for the host
  std::map<std::string, std::pair<std::string, std::int64_t>> settled_;  // task id -> (peer, until s)
  std::uint64_t duplicate_results_ = 0;
  bool closed_ = false;
};

}  // namespace nostr::agx
