// Subscription bookkeeping for a relay pool, sans-IO: the pool hands in relay frames and `now`,
// and gets back the frames to send and one typed outcome per frame received. No sockets, no
// clock, no randomness: subscription ids and time are the caller's.
//
// Per subscription it keeps the filters, the relays the REQ went to with their state (NIP-01:
// stored events, then EOSE, then live events, until CLOSE or CLOSED), a bounded window of ids
// already delivered (dedupe across relays and across reconnects), and per relay the newest
// created_at seen (the `since` of a resubscribe). Every EVENT is checked against the
// subscription's own filters (relays do send events that do not match) and verified before it
// is delivered.
//
// Relay keys are compared as given: pass the same normalized URL (see relay_url.hpp) every time.
//
// Two ways to drive it. The building blocks (open, req_for, resubscribe, close) leave every
// decision to the caller. The managed API (subscribe, relay_connected, relay_disconnected,
// auth_result, unsubscribe, handle_timeout; subscriptions_managed.cpp) makes them all: it queues
// REQs under a relay's NIP-11 limits, retries a transient CLOSED after a backoff, asks for NIP-42
// AUTH on auth-required, resubscribes with `since` after a reconnect, counts a relay that dropped
// as done for EOSE, and ends a subscription every relay closed. It says what to do as actions
// (take_actions) and when to call again (next_deadline). Times of the managed API are ms.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "relay/backoff.hpp"
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "relay/seen_window.hpp"
#include "util/result.hpp"

namespace nostr::relay {

struct subscriptions_config {
  std::size_t seen_cap = 4096;             // ids remembered per subscription (about 100 bytes each)
  std::int64_t resubscribe_overlap = 60;   // seconds taken off the newest created_at on resubscribe
  std::size_t max_frame_bytes = 0;         // 0: no limit; larger frames are dropped unparsed
  // Managed subscriptions: a CLOSED with a transient reason is retried this often per connection,
  // after retry_backoff; the jitter's random numbers come from a generator seeded with seed.
  int subscription_retries = kSubscriptionRetries;
  backoff_policy retry_backoff = kRetryBackoff;
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
};

// The NIP-11 limitation fields a client honors before sending; 0: none given.
struct relay_limits {
  std::size_t max_subscriptions = 0;
  std::size_t max_filters = 0;
  std::size_t max_message_length = 0;
};

// Subscription ids the core uses for liveness probes (a REQ any relay answers at once).
inline constexpr std::string_view kProbePrefix = "ping:";

// Where a subscription stands on one relay.
enum class relay_sub_state : std::uint8_t {
  pending,  // REQ sent, stored events arriving, no EOSE yet
  live,     // EOSE received; new events arrive as published
  closed,   // the relay sent CLOSED; only req_for reopens it (after NIP-42 AUTH, say)
  idle,     // the connection dropped (or, managed: waiting for it, for AUTH or for a retry)
  queued,   // managed: waiting for a free slot under the relay's max_subscriptions
};
const char* relay_sub_state_name(relay_sub_state s);

// --- Outcomes of feeding one relay frame.

struct deliver {  // a verified event matching the subscription, seen for the first time
  std::string sub_id;
  std::string relay;
  event ev;
};
struct eose {
  std::string sub_id;
  std::string relay;
  bool all = false;  // no relay of the subscription is still pending
};
struct closed {
  std::string sub_id;
  std::string relay;
  machine_message status;  // reason auth_required: AUTH, then req_for again
  bool all = false;        // every relay of the subscription has closed it
};
enum class drop_reason : std::uint8_t { duplicate, not_matching, bad_signature, malformed, unknown_subscription };
const char* drop_reason_name(drop_reason r);  // "duplicate", "not-matching", "bad-signature"...
struct dropped {
  drop_reason reason;
  std::string sub_id;    // when the frame got that far
  std::string relay;
  std::string event_id;  // when the frame carried one
  error err;             // a stable code (RELAY_EVENT_DUPLICATE, INVALID_SIGNATURE...) and detail
};

// OK, NOTICE, AUTH and COUNT frames pass through decoded, so the pool parses each frame once.
using outcome = std::variant<deliver, eose, closed, dropped, relay_ok, relay_notice, relay_auth, relay_count>;

// What the managed API asks the pool to do, in order.
enum class action_type : std::uint8_t {
  send,          // send `frame` to `relay` (REQ, CLOSE)
  connect,       // `relay` is needed and not connected: connect (the pool's reconnect policy)
  authenticate,  // answer `relay`'s NIP-42 challenge, then call auth_result
  eose,          // `sub_id` reached the end of stored events (every relay EOSE, dropped or closed)
  relay_closed,  // `sub_id` is over on `relay`: status says why; code is a local error code
                 // (TOO_MANY_FILTERS, MESSAGE_TOO_LARGE) or empty for the relay's own CLOSED
  ended,         // every relay closed `sub_id`: the subscription is gone
  // Publishing (subscriptions_publish.cpp); `publish` names the publish.
  settle,         // the publish is over on `relay`: publish_status, status (the OK), code, detail
  // NIP-42 (subscriptions_auth.cpp).
  sign_auth,    // sign the AUTH template for `challenge` (created_at), then auth_signed(round)
  auth_status,  // `relay`'s connection is now `state` (authenticating, open, auth-required): code, detail, pubkey
  auth_done,    // the AUTH asked for on `relay` ended: accepted or not
  // NIP-45 (subscriptions_count.cpp); `count_id` names the COUNT.
  count_done,  // the COUNT is over: count (approximate, hll), or code and detail (reason, status)
};
const char* action_type_name(action_type t);

// How a publish ended on one relay.
enum class publish_status : std::uint8_t { accepted, rejected, timeout, unreachable, aborted };
const char* publish_status_name(publish_status s);  // "accepted", "rejected", "timeout"...

struct action {
  action_type type;
  std::string relay;
  std::string sub_id;
  std::string frame;
  machine_message status;
  std::string code;
  std::string reason;  // relay_closed: reason_name(status.reason), or the local one (too-many-filters...)
  // Publishing: send (the EVENT frame), connect, authenticate, settle and auth_required name it.
  std::uint64_t publish = 0;
  publish_status outcome = publish_status::accepted;  // settle
  int attempts = 0;             // settle: EVENT frames sent
  bool has_ok = false;          // settle: status is the relay's OK (accepted, rejected)
  std::string detail;           // settle, auth_required: the error's message (code: its code)
  std::int64_t deadline = -1;   // authenticate for a publish: its deadline (ms; -1: none)
  // NIP-42.
  std::uint64_t round = 0;      // sign_auth: hand it back with the signed event
  std::string challenge;        // sign_auth
  std::int64_t created_at = 0;  // sign_auth: of the template (seconds)
  std::string state;            // auth_status
  std::string pubkey;           // auth_status open: the key the relay accepted
  bool accepted = false;        // auth_done
  // NIP-45: send, connect, authenticate and count_done name the COUNT.
  std::uint64_t count_id = 0;
  std::int64_t count = -1;      // count_done: the relay's count (-1: none, see code)
  bool approximate = false;     // count_done
  std::string hll;              // count_done: the relay's HyperLogLog registers, when it sent them
};

struct close_action {
  std::string frame;                // ["CLOSE", <sub id>]
  std::vector<std::string> relays;  // where it is open (pending or live) and must be sent
};

class subscriptions {
 public:
  explicit subscriptions(subscriptions_config cfg = {});

  // Registers a subscription. INVALID_ARGUMENT for a sub id that is empty or over 64 characters
  // or no filters; RELAY_SUBSCRIPTION_EXISTS when the id is in use.
  result<void> open(std::string sub_id, std::vector<filter> filters);

  // The REQ frame to send to `relay`; the subscription is then pending there. When that relay has
  // delivered events before, each filter's since becomes at least resume_since(). Works in any
  // state (a retry after CLOSED "auth-required:"). RELAY_SUBSCRIPTION_UNKNOWN for an unknown id.
  result<std::string> req_for(std::string_view sub_id, std::string_view relay, std::int64_t now);

  // The connection to `relay` dropped: its pending and live subscriptions become idle.
  void relay_disconnected(std::string_view relay);

  // After a reconnect: REQ frames (since adjusted) for every subscription idle or open on
  // `relay`, which become pending. Subscriptions the relay CLOSED are left alone.
  std::vector<std::string> resubscribe(std::string_view relay, std::int64_t now);

  // Removes the subscription and says where to send CLOSE. RELAY_SUBSCRIPTION_UNKNOWN.
  result<close_action> close(std::string_view sub_id);

  // Drops every trace of a relay (the pool stopped using it).
  void forget_relay(std::string_view relay);

  // One frame received from `relay`, one outcome.
  // now_ms: for the managed API's retry deadlines.
  outcome feed(std::string_view relay, std::string_view frame, std::int64_t now_ms = 0);
  // Frames received from `relay`, in order: the same outcomes as feeding them one by one, with
  // the signatures of the events that would be delivered checked together (verify_batch), which
  // is faster for a backlog (stored events before EOSE, a query's results).
  // marks, when given: the number of actions decided after each outcome (actions of outcome i are
  // [marks[i-1], marks[i]) of take_actions()), so the pool keeps them in order with deliveries.
  // known_valid, when given: frames some of which were verified elsewhere on these very bytes (a
  // worker, js/relay/verify-workers.js): known_valid[i] != 0 says frame i is an EVENT whose
  // verify() succeeded, so it is not checked again; the others are checked here.
  std::vector<outcome> feed_batch(std::string_view relay, const std::vector<std::string_view>& frames,
                                  std::int64_t now_ms = 0, std::vector<std::size_t>* marks = nullptr,
                                  const std::vector<std::uint8_t>& known_valid = {});
  std::vector<outcome> feed_batch(std::string_view relay, const std::vector<std::string>& frames);
  std::vector<outcome> feed_batch(std::string_view relay, const std::vector<std::string_view>& frames,
                                  const std::vector<std::uint8_t>& known_valid);

  // --- Managed API (times in ms; `since` uses now_ms / 1000).

  // open() plus a REQ for each relay, sent when connected and a slot is free (else connect or
  // queue). max_wait_ms >= 0: the eose action comes then at the latest. Same errors as open(),
  // and INVALID_ARGUMENT for no relays.
  result<void> subscribe(std::string sub_id, std::vector<filter> filters, const std::vector<std::string>& relays,
                         std::int64_t now_ms, std::int64_t max_wait_ms = -1);
  // The subscription ends: CLOSE where it is open, queued REQs move up. Unknown ids are ignored.
  void unsubscribe(std::string_view sub_id);
  // The relay's NIP-11 limits (applied to REQs sent from now on).
  void set_limits(std::string_view relay, relay_limits limits);
  const relay_limits* limits(std::string_view relay) const;
  // The connection to `relay` opened: the REQs of every managed subscription not closed there
  // (since adjusted), within the limits.
  void relay_connected(std::string_view relay, std::int64_t now_ms);
  // The connection dropped. reconnecting: the pool will try again, so the relay counts as done
  // for EOSE now and for subscriptions opened until it is back. Also resets its NIP-42 state.
  void relay_disconnected(std::string_view relay, bool reconnecting);
  // The pool stops using `relay`: each managed subscription is closed there (status `closed`).
  void remove_relay(std::string_view relay, std::string_view message);
  // The outcome of the authenticate action (pubkey when accepted): subscriptions waiting for it
  // are asked again, or closed with the CLOSED that asked for AUTH.
  void auth_result(std::string_view relay, bool accepted, std::int64_t now_ms);
  // NIP-42 state of a relay: the challenge of this connection, whether AUTH succeeded on it, and
  // whether the last attempt failed on the current challenge (asking again would fail again).
  const std::string* challenge(std::string_view relay) const;
  bool authenticated(std::string_view relay) const;
  bool auth_refused(std::string_view relay) const;
  // Whether a refusal (OK or CLOSED reason) asks for AUTH: auth-required, or restricted from a
  // relay that challenged this connection and has not accepted AUTH (some relays refuse readers
  // of DMs that way).
  bool needs_auth(std::string_view relay, reason_code reason) const;
  // A liveness probe for `relay`: a REQ for nothing, answered by EOSE at once; the answer is
  // closed (send action) and reported as an eose outcome for the probe's id.
  std::string probe(std::string_view relay);
  static bool is_probe(std::string_view sub_id) { return sub_id.substr(0, kProbePrefix.size()) == kProbePrefix; }
  // Retries and max_wait deadlines due at now_ms.
  void handle_timeout(std::int64_t now_ms);
  // The earliest deadline, or nothing.
  std::optional<std::int64_t> next_deadline() const;
  // The actions decided since the last call.
  std::vector<action> take_actions();
  bool has_actions() const { return !actions_.empty(); }
  // Whether a managed subscription or a publish still needs `relay` (open, queued or waiting there).
  bool wants_relay(std::string_view relay) const;

  // --- Publishing (subscriptions_publish.cpp; times in ms). Per relay: wait for the connection,
  // refuse a frame over NIP-11 max_message_length, send the EVENT, wait for its OK until
  // deadline_ms (-1: none); a lost connection sends again once reconnected, `retries` times; a
  // duplicate after a resend is accepted; auth-required (or restricted after a challenge) asks
  // for AUTH once, then sends again; a transient refusal is sent again after the retry backoff
  // (counting against `retries`); anything else is rejected. One settle action per relay.
  // INVALID_ARGUMENT: id 0 or in use, no relays; INVALID_EVENT for an event that does not encode.
  result<void> publish(std::uint64_t id, const event& ev, const std::vector<std::string>& relays, std::int64_t now_ms,
                       std::int64_t deadline_ms, int retries);
  // Settles every relay of `id` not settled yet (the caller's signal aborted): code, detail.
  void cancel_publish(std::uint64_t id, publish_status status, std::string_view code, std::string_view detail);
  // Settles every publish: the pool is closing (aborted, POOL_CLOSED).
  void close_publishes();  // and every COUNT
  // Whether the pool has a signer for NIP-42 AUTH (without one, auth-required is a rejection).
  void set_can_authenticate(bool yes) { can_authenticate_ = yes; }

  // --- NIP-42 AUTH (subscriptions_auth.cpp; times in ms). authenticate() answers the relay's
  // challenge (waiting for one until deadline_ms, -1: none): sign_auth asks the signer for the
  // kind 22242 event, auth_signed() sends it as ["AUTH", ...] and its OK decides. One AUTH at a
  // time per connection (a second call joins it); accepted once stays accepted until a new
  // challenge; refused on a challenge is refused again without asking. Every ending is an
  // auth_done action and goes to auth_result() (subscriptions and publishes waiting for it).
  void authenticate(std::string_view relay, std::int64_t now_ms, std::int64_t deadline_ms);
  void auth_signed(std::string_view relay, std::uint64_t round, const event& signed_event, std::int64_t now_ms);
  void auth_sign_failed(std::string_view relay, std::uint64_t round, std::string_view why, std::int64_t now_ms);
  // eager: answer every challenge at once (with timeout_ms), not only when a relay asks for AUTH.
  void set_auth_policy(bool eager, std::int64_t timeout_ms) {
    eager_auth_ = eager;
    auth_timeout_ms_ = timeout_ms;
  }
  std::size_t publishes() const { return pubs_.size(); }

  // --- NIP-45 COUNT (subscriptions_count.cpp; times in ms). One COUNT on one relay: sent when
  // the relay is connected (otherwise: connect, and wait), answered by the relay's COUNT (count_done
  // with the count) or CLOSED (RELAY_CLOSED; auth-required, or restricted after a challenge, asks
  // for AUTH once and sends again). Not answered: RELAY_UNREACHABLE before the frame went out,
  // RELAY_CONNECTION_LOST when the connection dropped after it, RELAY_TIMEOUT at deadline_ms (-1:
  // none). One count_done per COUNT. INVALID_ARGUMENT: id 0 or in use, a COUNT with this sub id
  // already waiting on this relay; the sub id and filter errors of encode_count.
  result<void> count(std::uint64_t id, const std::string& sub_id, const std::vector<filter>& filters,
                     std::string_view relay, std::int64_t now_ms, std::int64_t deadline_ms);
  // Ends COUNT `id` if it is still waiting (the caller's signal aborted): code, detail.
  void cancel_count(std::uint64_t id, std::string_view code, std::string_view detail);
  std::size_t counts() const { return counts_.size(); }

  // --- Queries.
  bool contains(std::string_view sub_id) const;
  std::size_t size() const { return subs_.size(); }
  const std::vector<filter>* filters(std::string_view sub_id) const;
  std::optional<relay_sub_state> state(std::string_view sub_id, std::string_view relay) const;
  std::vector<std::string> relays(std::string_view sub_id) const;
  // min(newest created_at seen from relay, now) - overlap, at least 0; nothing when that relay
  // has delivered nothing (then the original filters are right as they are). Capping at `now`
  // keeps one event dated in the future from making the pool skip everything until then.
  std::optional<std::int64_t> resume_since(std::string_view sub_id, std::string_view relay, std::int64_t now) const;
  std::size_t seen_count(std::string_view sub_id) const;

 private:
  struct relay_entry {
    std::string url;
    relay_sub_state state = relay_sub_state::pending;
    std::optional<std::int64_t> newest;  // created_at of the newest event seen from this relay
    // Managed only.
    bool done = false;          // EOSE, dropped or closed: no longer holds the subscription's EOSE back
    bool auth_tried = false;    // AUTH asked for once on this connection
    bool awaiting_auth = false;
    int retries = 0;            // transient CLOSED retried on this connection
    std::int64_t retry_at = 0;  // ms; 0: none
    machine_message closed_by;  // the CLOSED that asked for AUTH
  };
  struct subscription {
    std::vector<filter> filters;
    std::vector<relay_entry> relays;  // a handful: linear search beats a map
    seen_window seen;
    bool managed = false;
    bool eosed = false;            // the eose action went out
    std::uint64_t order = 0;       // subscribe order: REQs go out in it
    std::optional<std::int64_t> eose_at{};  // max_wait deadline, ms
    relay_entry* find_relay(std::string_view url);
    const relay_entry* find_relay(std::string_view url) const;
  };

  subscription* find(std::string_view sub_id);
  const subscription* find(std::string_view sub_id) const;
  std::optional<std::int64_t> since_for(const relay_entry& r, std::int64_t now) const;
  std::string req_frame(const std::string& sub_id, const subscription& s, const relay_entry& r, std::int64_t now) const;

  // A frame's message in msg, or the outcome of a frame that does not decode.
  std::optional<outcome> decode(std::string_view relay, std::string_view frame, relay_message& msg) const;
  outcome dispatch(std::string_view relay, relay_message&& msg, const result<void>* verified);
  // Whether an EVENT would reach verification now (open here, well-formed id, not seen, matching).
  bool wants_verify(std::string_view relay, const relay_event& m) const;
  // verified: the event's verify() result when already known (feed_batch), else null.
  outcome on_event(std::string_view relay, relay_event&& m, const result<void>* verified = nullptr);
  outcome on_eose(std::string_view relay, relay_eose&& m);
  outcome on_closed(std::string_view relay, relay_closed&& m);

  // Per relay connection (managed API).
  struct relay_conn {
    bool connected = false;
    bool down = false;  // dropped, a reconnect is coming
    relay_limits limits;
    std::size_t active = 0;          // managed REQs open (pending or live) there
    std::vector<std::string> queue;  // sub ids waiting for a slot, in order
    std::optional<std::string> challenge;
    enum class auth : std::uint8_t { none, authenticated, refused } auth_state = auth::none;
    std::optional<std::string> refused_challenge;
    std::uint64_t probes = 0;
    // The AUTH in flight (subscriptions_auth.cpp).
    enum class auth_step : std::uint8_t { idle, wait_challenge, signing, wait_ok } step = auth_step::idle;
    std::int64_t auth_deadline = -1;
    std::uint64_t auth_round = 0;
    std::string auth_event_id;
    std::string auth_pubkey;
  };
  void auth_sign(std::string_view relay, relay_conn& c);
  void auth_end(std::string_view relay, bool accepted, std::string_view code = {}, std::string detail = {});
  void auth_emit_status(std::string_view relay, std::string state, std::string code = {}, std::string detail = {},
                        std::string pubkey = {});
  void auth_on_challenge(std::string_view relay);
  bool auth_on_ok(std::string_view relay, const relay_ok& ok);
  void auth_disconnected(std::string_view relay);
  void auth_timeout(std::int64_t now_ms);
  void auth_next_deadline(std::optional<std::int64_t>& best) const;

  // One publish (subscriptions_publish.cpp).
  enum class pub_stage : std::uint8_t { wait_open, wait_ok, wait_auth, backoff, settled };
  struct pub_target {
    std::string url;
    pub_stage stage = pub_stage::wait_open;
    int sends = 0;
    int failures = 0;  // lost connections and transient refusals
    bool auth_tried = false;
    std::int64_t retry_at = 0;
    machine_message last;  // the last OK refusal
  };
  struct pub_state {
    std::string frame;
    std::string event_id;
    std::int64_t deadline = -1;
    int retries = 0;
    std::vector<pub_target> targets;
  };
  void pub_send(std::uint64_t id, pub_state& p, pub_target& t);
  // A relay waited for that will not answer: a timeout when it took the EVENT, else unreachable.
  void pub_settle_unanswered(std::uint64_t id, pub_target& t);
  void pub_settle(std::uint64_t id, pub_target& t, publish_status status, std::string code = {},
                  std::string detail = {}, bool has_ok = false);
  void pub_on_ok(std::string_view relay, const relay_ok& ok);
  void pub_connected(std::string_view relay);
  void pub_disconnected(std::string_view relay, bool reconnecting);
  void pub_auth_result(std::string_view relay, bool accepted);
  void pub_remove_relay(std::string_view relay);
  void pub_timeout(std::int64_t now_ms);
  void pub_next_deadline(std::optional<std::int64_t>& best) const;
  bool pub_wants_relay(std::string_view relay) const;
  void pub_forget_settled();

  // One COUNT (subscriptions_count.cpp).
  enum class count_stage : std::uint8_t { wait_open, wait_answer, wait_auth };
  struct count_state {
    std::string url;
    std::string sub_id;
    std::string frame;
    std::int64_t deadline = -1;
    count_stage stage = count_stage::wait_open;
    bool sent = false;
    bool auth_tried = false;
    bool done = false;          // count_done went out; erased by cnt_forget_done
    machine_message closed_by;  // the CLOSED that asked for AUTH
  };
  void cnt_send(std::uint64_t id, count_state& c);
  void cnt_done(std::uint64_t id, count_state& c, std::string code, std::string detail);
  void cnt_refused(std::uint64_t id, count_state& c, const machine_message& status);
  bool cnt_on_count(std::string_view relay, relay_count& m);
  bool cnt_on_closed(std::string_view relay, const relay_closed& m);
  void cnt_connected(std::string_view relay);
  void cnt_disconnected(std::string_view relay, bool reconnecting);
  void cnt_auth_result(std::string_view relay, bool accepted);
  void cnt_remove_relay(std::string_view relay);
  void cnt_timeout(std::int64_t now_ms);
  void cnt_next_deadline(std::optional<std::int64_t>& best) const;
  bool cnt_wants_relay(std::string_view relay) const;
  void cnt_forget_done();

  relay_conn& conn(std::string_view relay);
  const relay_conn* find_conn(std::string_view relay) const;
  std::vector<std::string> managed_on(std::string_view relay) const;  // in subscribe order
  void try_send(const std::string& sub_id, subscription& s, relay_entry& r, std::int64_t now_ms);
  void flush_queue(std::string_view relay, std::int64_t now_ms);
  void release_slot(std::string_view relay, relay_entry& r);
  void close_on_relay(const std::string& sub_id, subscription& s, relay_entry& r, machine_message status,
                      std::string code = {}, std::string reason = {});
  void check_eose(const std::string& sub_id, subscription& s);
  void managed_closed(const std::string& sub_id, subscription& s, relay_entry& r, const machine_message& status);
  double next_random();
  void emit(action_type t, std::string relay, std::string sub_id, std::string frame = {}, machine_message status = {},
            std::string code = {}, std::string reason = {});

  subscriptions_config cfg_;
  std::map<std::string, subscription, std::less<>> subs_;  // less<>: look up by string_view
  std::map<std::string, relay_conn, std::less<>> conns_;
  std::vector<action> actions_;
  std::uint64_t next_order_ = 0;
  std::uint64_t rng_;
  std::int64_t now_ms_ = 0;  // of the frame being fed
  std::map<std::uint64_t, pub_state> pubs_;  // by id: settles go out in publish order
  std::map<std::uint64_t, count_state> counts_;  // by id; a finished COUNT is erased
  bool can_authenticate_ = false;
  bool eager_auth_ = false;
  std::int64_t auth_timeout_ms_ = kAuthTimeoutMs;
};

}  // namespace nostr::relay
