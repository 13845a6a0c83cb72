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
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "relay/seen_window.hpp"
#include "util/result.hpp"

namespace nostr::relay {

struct subscriptions_config {
  std::size_t seen_cap = 4096;             // ids remembered per subscription (about 100 bytes each)
  std::int64_t resubscribe_overlap = 60;   // seconds taken off the newest created_at on resubscribe
  std::size_t max_frame_bytes = 0;         // 0: no limit; larger frames are dropped unparsed
};

// Where a subscription stands on one relay.
enum class relay_sub_state : std::uint8_t {
  pending,  // REQ sent, stored events arriving, no EOSE yet
  live,     // EOSE received; new events arrive as published
  closed,   // the relay sent CLOSED; only req_for reopens it (after NIP-42 AUTH, say)
  idle,     // the connection dropped; resubscribe() reopens it
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
  outcome feed(std::string_view relay, std::string_view frame);
  // Frames received from `relay`, in order: the same outcomes as feeding them one by one, with
  // the signatures of the events that would be delivered checked together (verify_batch), which
  // is faster for a backlog (stored events before EOSE, a query's results).
  std::vector<outcome> feed_batch(std::string_view relay, const std::vector<std::string_view>& frames);
  std::vector<outcome> feed_batch(std::string_view relay, const std::vector<std::string>& frames);

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
  };
  struct subscription {
    std::vector<filter> filters;
    std::vector<relay_entry> relays;  // a handful: linear search beats a map
    seen_window seen;
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

  subscriptions_config cfg_;
  std::map<std::string, subscription, std::less<>> subs_;  // less<>: look up by string_view
};

}  // namespace nostr::relay
