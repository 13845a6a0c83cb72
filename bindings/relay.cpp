// The relay codec and the subscription machine (src/relay) for the JS pool (js/relay/).
//
// Machines are integer handles (relaySubsNew / relaySubsDelete; js/relay/machine.js wraps them
// with a FinalizationRegistry backstop). Relays are small integers per machine (relaySubsRelay
// registers a normalized URL once), so the hot path passes no URL string.
//
// Hot path, one call per received text frame: JS writes the frame into the scratch buffer
// (TextEncoder.encodeInto) and calls relaySubsFeedScratch, which returns the outcome packed in an
// int (see kFeed* below). A delivered event comes back in the scratch buffer as the core parsed
// it (write_events: numbers, lengths and one UTF-8 text per event), so JS builds the object with
// one TextDecoder call and never parses the frame again. Other outcomes carry strings; JS fetches
// them with relaySubsLast only when it needs them.
//
// The stateless codec (encode of REQ/COUNT, reasons, NIP-42 template, URL normalization) returns
// JSON text or plain strings, the rare path; decoding frames, CLOSE and reason parsing, which the
// pool does not use, are in relay_codec.cpp.
#include <emscripten/bind.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "event/filter.hpp"
#include "relay/client_message.hpp"
#include "relay/nip42.hpp"
#include "relay/reason.hpp"
#include "relay/relay_message.hpp"
#include "relay/relay_url.hpp"
#include "relay/subscriptions.hpp"
#include "json_out.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

using relay::outcome;

// Packed feed result: bits 0-3 the outcome type, bits 4-7 its reason (drop_reason for dropped,
// reason_code for closed and ok), bit 8 a flag (eose.all, closed.all, ok.accepted,
// count.approximate). js/relay/machine.js mirrors these.
enum feed_type : int { kDeliver, kEose, kClosed, kDropped, kOk, kNotice, kAuth, kCount };
constexpr int kReasonShift = 4;
constexpr int kFlag = 1 << 8;
constexpr int kActions = 1 << 9;  // the managed API decided actions: relaySubsActions has them

struct machine {
  explicit machine(relay::subscriptions_config cfg) : subs(cfg) {}
  relay::subscriptions subs;
  std::vector<std::string> relays;  // index -> normalized URL, as the pool registered it
  std::optional<outcome> last;      // the last fed outcome unless it was a delivery
  std::vector<outcome> batch;       // the outcomes of the last batch fed
};

std::map<int, std::unique_ptr<machine>> g_machines;
int g_next_machine = 1;

machine* find(int h) {
  auto it = g_machines.find(h);
  return it == g_machines.end() ? nullptr : it->second.get();
}

const std::string* relay_at(const machine& m, int idx) {
  if (idx < 0 || static_cast<std::size_t>(idx) >= m.relays.size()) return nullptr;
  return &m.relays[idx];
}

std::int64_t to_i64(double v) { return static_cast<std::int64_t>(v); }

error bad_handle() { return make_error(errc::invalid_argument, "relay subscription machine was deleted"); }
error bad_relay() { return make_error(errc::invalid_argument, "unknown relay index"); }

// The URLs of a JS array of relay indexes; false when one is unknown.
bool urls_at(const machine& m, const val& relay_idxs, std::vector<std::string>& urls) {
  const unsigned n = relay_idxs["length"].as<unsigned>();
  urls.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    const std::string* url = relay_at(m, relay_idxs[i].as<int>());
    if (!url) return false;
    urls.push_back(*url);
  }
  return true;
}

// A JSON array of filter objects (one or more).
result<std::vector<filter>> filters_from_text(const std::string& text) {
  dom::value j = parse_json(text);
  if (j.is_discarded() || !j.is_array()) return make_error(errc::invalid_filter, "filters must be a JSON array");
  std::vector<filter> out;
  out.reserve(j.size());
  for (const auto& f : j) {
    auto parsed = filter_from_json(f);
    if (!parsed) return parsed.err();
    out.push_back(std::move(*parsed));
  }
  return out;
}

// --- Machines.

// Negative numbers take the core's defaults (relayConstants()). retry: {retries, initialDelay,
// maxDelay, factor, jitter} or undefined; seed: for the retry jitter.
int subs_new(double seen_cap, double overlap, double max_frame_bytes, val retry, double seed) {
  relay::subscriptions_config cfg;
  if (seen_cap >= 1) cfg.seen_cap = static_cast<std::size_t>(seen_cap);
  if (overlap >= 0) cfg.resubscribe_overlap = to_i64(overlap);
  if (max_frame_bytes >= 0) cfg.max_frame_bytes = static_cast<std::size_t>(max_frame_bytes);
  if (!retry.isUndefined() && !retry.isNull()) {
    auto num = [&](const char* k, double& out) {
      val v = retry[k];
      if (v.isNumber()) out = v.as<double>();
    };
    double retries = cfg.subscription_retries, initial = static_cast<double>(cfg.retry_backoff.initial_ms),
           max = static_cast<double>(cfg.retry_backoff.max_ms);
    num("retries", retries);
    num("initialDelay", initial);
    num("maxDelay", max);
    num("factor", cfg.retry_backoff.factor);
    num("jitter", cfg.retry_backoff.jitter);
    cfg.subscription_retries = static_cast<int>(retries);
    cfg.retry_backoff.initial_ms = to_i64(initial);
    cfg.retry_backoff.max_ms = to_i64(max);
  }
  if (seed > 0) cfg.seed = static_cast<std::uint64_t>(seed);
  int h = g_next_machine++;
  g_machines.emplace(h, std::make_unique<machine>(cfg));
  return h;
}

void subs_delete(int h) { g_machines.erase(h); }

// Index of `url` in this machine, registering it on first use. -1 when the handle is gone.
int subs_relay(int h, const std::string& url) {
  machine* m = find(h);
  if (!m) return -fail_code(bad_handle());
  for (std::size_t i = 0; i < m->relays.size(); ++i)
    if (m->relays[i] == url) return static_cast<int>(i);
  m->relays.push_back(url);
  return static_cast<int>(m->relays.size() - 1);
}

// 0 or an errc value.
int subs_open(int h, const std::string& sub_id, const std::string& filters_json) {
  machine* m = find(h);
  if (!m) return fail_code(bad_handle());
  auto filters = filters_from_text(filters_json);
  if (!filters) return fail_code(filters.err());
  auto r = m->subs.open(sub_id, std::move(*filters));
  return r ? 0 : fail_code(r.err());
}

val subs_req_for(int h, const std::string& sub_id, int relay_idx, double now) {
  machine* m = find(h);
  if (!m) return fail(bad_handle());
  const std::string* url = relay_at(*m, relay_idx);
  if (!url) return fail(bad_relay());
  auto frame = m->subs.req_for(sub_id, *url, to_i64(now));
  if (!frame) return fail(frame.err());
  return val(std::move(*frame));
}

void subs_disconnected(int h, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.relay_disconnected(*url);
}

val subs_resubscribe(int h, int relay_idx, double now) {
  machine* m = find(h);
  if (!m) return fail(bad_handle());
  const std::string* url = relay_at(*m, relay_idx);
  if (!url) return fail(bad_relay());
  val out = val::array();
  for (auto& f : m->subs.resubscribe(*url, to_i64(now))) out.call<void>("push", val(std::move(f)));
  return out;
}

// {frame, relays: [relay index...]} where the subscription was open, or undefined.
val subs_close(int h, const std::string& sub_id) {
  machine* m = find(h);
  if (!m) return fail(bad_handle());
  auto action = m->subs.close(sub_id);
  if (!action) return fail(action.err());
  val relays = val::array();
  for (const auto& url : action->relays)
    for (std::size_t i = 0; i < m->relays.size(); ++i)
      if (m->relays[i] == url) relays.call<void>("push", static_cast<int>(i));
  val o = val::object();
  o.set("frame", std::move(action->frame));
  o.set("relays", relays);
  return o;
}

void subs_forget(int h, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.forget_relay(*url);
}

// The delivered events of a feed, in order, for js/relay/machine.js (readEvents), at `offset` of
// the scratch buffer (a multiple of 8):
//   u32 event count, u32 int count, u32 text bytes, u32 0, then f64 [created_at, kind] per event,
//   then i32 per event [tag count, the lengths of sub id, id, pubkey, sig and content, then per
//   tag its item count and each item's length], then the strings' UTF-8 bytes back to back (sub
//   id, id, pubkey, sig, content, tag items). A length is in bytes, negated when the string is not
//   ASCII: JS turns ASCII bytes into a string directly and decodes the rest (well-formed UTF-8:
//   the parser took nothing else), each string on its own, so no string keeps another alive.
std::int32_t signed_length(const std::string& s) {
  const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  const auto n = static_cast<std::int32_t>(s.size());
  return ascii ? n : -n;
}

// Written straight into the scratch buffer (sizes first), so a backlog's events take no second
// copy in WASM memory (which never shrinks).
void write_events(std::size_t offset, const std::vector<const relay::deliver*>& evs) {
  std::size_t n_ints = 0, n_text = 0;
  for (const relay::deliver* d : evs) {
    const event& e = d->ev;
    n_ints += 6 + e.tags.size();
    n_text += d->sub_id.size() + e.id.size() + e.pubkey.size() + e.sig.size() + e.content.size();
    for (const auto& tag : e.tags) {
      n_ints += tag.size();
      for (const auto& item : tag) n_text += item.size();
    }
  }
  const std::size_t nums_at = offset + 16, ints_at = nums_at + 16 * evs.size(), text_at = ints_at + 4 * n_ints;
  std::uint8_t* s = scratch(text_at + n_text);
  const std::uint32_t header[4] = {static_cast<std::uint32_t>(evs.size()), static_cast<std::uint32_t>(n_ints),
                                   static_cast<std::uint32_t>(n_text), 0};
  std::memcpy(s + offset, header, sizeof header);
  std::uint8_t* num = s + nums_at;
  std::uint8_t* ints = s + ints_at;
  std::uint8_t* text = s + text_at;
  auto put_int = [&](std::int32_t v) {
    std::memcpy(ints, &v, 4);
    ints += 4;
  };
  auto put_str = [&](const std::string& v) {
    put_int(signed_length(v));
    std::memcpy(text, v.data(), v.size());
    text += v.size();
  };
  for (const relay::deliver* d : evs) {
    const event& e = d->ev;
    const double nums[2] = {static_cast<double>(e.created_at), static_cast<double>(e.kind)};
    std::memcpy(num, nums, 16);
    num += 16;
    put_int(static_cast<std::int32_t>(e.tags.size()));
    for (const std::string* f : {&d->sub_id, &e.id, &e.pubkey, &e.sig, &e.content}) put_str(*f);
    for (const auto& tag : e.tags) {
      put_int(static_cast<std::int32_t>(tag.size()));
      for (const auto& item : tag) put_str(item);
    }
  }
}

int pack(int type, int reason, bool flag) { return type | (reason << kReasonShift) | (flag ? kFlag : 0); }

int pack_outcome(const outcome& o) {
  return std::visit(
      [](const auto& v) -> int {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, relay::deliver>) return kDeliver;
        if constexpr (std::is_same_v<T, relay::eose>) return pack(kEose, 0, v.all);
        if constexpr (std::is_same_v<T, relay::closed>) return pack(kClosed, static_cast<int>(v.status.reason), v.all);
        if constexpr (std::is_same_v<T, relay::dropped>) return pack(kDropped, static_cast<int>(v.reason), false);
        if constexpr (std::is_same_v<T, relay::relay_ok>)
          return pack(kOk, static_cast<int>(v.status.reason), v.accepted);
        if constexpr (std::is_same_v<T, relay::relay_notice>) return kNotice;
        if constexpr (std::is_same_v<T, relay::relay_auth>) return kAuth;
        if constexpr (std::is_same_v<T, relay::relay_count>) return pack(kCount, 0, v.approximate);
        return -1;
      },
      o);
}

// One received frame, `len` bytes at the start of the scratch buffer. Returns the packed
// outcome, or -1 when the handle or relay index is unknown.
int subs_feed_scratch(int h, int relay_idx, std::size_t len, double now) {
  machine* m = find(h);
  if (!m) return -1;
  const std::string* url = relay_at(*m, relay_idx);
  if (!url) return -1;
  const std::uint8_t* s = scratch(len);
  outcome o = m->subs.feed(*url, as_chars(s, len), to_i64(now));
  int packed = pack_outcome(o) | (m->subs.has_actions() ? kActions : 0);
  if ((packed & 15) == kDeliver) {
    m->last.reset();
    write_events(0, {&std::get<relay::deliver>(o)});
  } else {
    m->last = std::move(o);
  }
  return packed;
}

// A backlog of n frames received from one relay (subscriptions::feed_batch: their signatures
// checked together). Scratch in: n little-endian u32 byte lengths, then the frames back to back.
// Scratch out: the n packed outcomes as i32 at [0, 4n), then at [4n, 8n) the number of actions
// decided up to each outcome (relaySubsActions returns them all, in order), then from the next
// multiple of 8 the delivered events (write_events); relaySubsLastAt(h, i)
// has the strings of outcome i (not a delivery) until the next batch. Returns 0, or -1 for an
// unknown handle or relay index or lengths that overrun `total` bytes.
// known_valid: see subscriptions::feed_batch (empty: every event checked here).
int feed_batch_scratch(int h, int relay_idx, std::size_t n, std::size_t total, double now,
                       const std::vector<std::uint8_t>& known_valid) {
  machine* m = find(h);
  if (!m) return -1;
  const std::string* url = relay_at(*m, relay_idx);
  if (!url || total < 4 * n) return -1;
  std::uint8_t* s = scratch(total);
  std::vector<std::string_view> frames(n);
  std::size_t off = 4 * n;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t len;
    std::memcpy(&len, s + 4 * i, 4);
    if (len > total - off) return -1;
    frames[i] = as_chars(s + off, len);
    off += len;
  }
  std::vector<std::size_t> marks;
  m->batch = m->subs.feed_batch(*url, frames, to_i64(now), &marks, known_valid);
  std::vector<const relay::deliver*> delivered;
  for (const auto& o : m->batch)
    if (auto* d = std::get_if<relay::deliver>(&o)) delivered.push_back(d);
  write_events((8 * n + 7) & ~std::size_t{7}, delivered);
  s = scratch(8 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t packed = pack_outcome(m->batch[i]);
    const std::int32_t mark = static_cast<std::int32_t>(marks[i]);
    std::memcpy(s + 4 * i, &packed, 4);
    std::memcpy(s + 4 * (n + i), &mark, 4);
  }
  return 0;
}

int subs_feed_batch_scratch(int h, int relay_idx, std::size_t n, std::size_t total, double now) {
  return feed_batch_scratch(h, relay_idx, n, total, now, {});
}

// relaySubsFeedBatchScratch for frames a worker verified (js/relay/verify-workers.js, with
// relayVerifyFramesScratch on these very bytes): `valid` has one character per frame, '1' when
// its event verified there and needs no second check.
int subs_feed_batch_verified_scratch(int h, int relay_idx, std::size_t n, std::size_t total, double now,
                                     const std::string& valid) {
  std::vector<std::uint8_t> known(n, 0);
  for (std::size_t i = 0; i < n && i < valid.size(); ++i) known[i] = valid[i] == '1';
  return feed_batch_scratch(h, relay_idx, n, total, now, known);
}

void set_status(val& o, const relay::machine_message& st) {
  o.set("reason", std::string(relay::reason_name(st.reason)));
  o.set("message", st.message);
  o.set("text", std::string(st.text()));
}

// The strings of an outcome (not a delivery): {subId, eventId, message, ...}.
val outcome_strings(const outcome& out) {
  val o = val::object();
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, relay::eose>) {
          o.set("subId", v.sub_id);
        } else if constexpr (std::is_same_v<T, relay::closed>) {
          o.set("subId", v.sub_id);
          set_status(o, v.status);
        } else if constexpr (std::is_same_v<T, relay::dropped>) {
          o.set("reason", std::string(relay::drop_reason_name(v.reason)));
          o.set("subId", v.sub_id);
          o.set("eventId", v.event_id);
          o.set("code", std::string(errc_name(v.err.code)));
          o.set("message", v.err.detail);
        } else if constexpr (std::is_same_v<T, relay::relay_ok>) {
          o.set("eventId", v.event_id);
          set_status(o, v.status);
        } else if constexpr (std::is_same_v<T, relay::relay_notice>) {
          o.set("message", v.message);
        } else if constexpr (std::is_same_v<T, relay::relay_auth>) {
          o.set("challenge", v.challenge);
        } else if constexpr (std::is_same_v<T, relay::relay_count>) {
          o.set("subId", v.sub_id);
          o.set("count", static_cast<double>(v.count));
        }
      },
      out);
  return o;
}

// The strings of the last outcome fed (not a delivery).
val subs_last(int h) {
  machine* m = find(h);
  if (!m || !m->last) return val::undefined();
  return outcome_strings(*m->last);
}

// The strings of outcome i of the last batch (not a delivery).
val subs_last_at(int h, std::size_t i) {
  machine* m = find(h);
  if (!m || i >= m->batch.size() || std::holds_alternative<relay::deliver>(m->batch[i])) return val::undefined();
  return outcome_strings(m->batch[i]);
}

val subs_state(int h, const std::string& sub_id, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (!url) return val::undefined();
  auto s = m->subs.state(sub_id, *url);
  return s ? val(std::string(relay::relay_sub_state_name(*s))) : val::undefined();
}

// -1 when that relay has delivered nothing on the subscription.
double subs_resume_since(int h, const std::string& sub_id, int relay_idx, double now) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (!url) return -1;
  auto s = m->subs.resume_since(sub_id, *url, to_i64(now));
  return s ? static_cast<double>(*s) : -1;
}

int subs_seen_count(int h, const std::string& sub_id) {
  machine* m = find(h);
  return m ? static_cast<int>(m->subs.seen_count(sub_id)) : 0;
}

int subs_size(int h) {
  machine* m = find(h);
  return m ? static_cast<int>(m->subs.size()) : 0;
}

// --- Managed API (subscriptions_managed.cpp). Times in ms.

int index_of(machine& m, const std::string& url) {
  for (std::size_t i = 0; i < m.relays.size(); ++i)
    if (m.relays[i] == url) return static_cast<int>(i);
  m.relays.push_back(url);
  return static_cast<int>(m.relays.size() - 1);
}

// 0 or an errc value; relays: an array of relay indexes.
int subs_subscribe(int h, const std::string& sub_id, const std::string& filters_json, val relay_idxs, double now,
                   double max_wait) {
  machine* m = find(h);
  if (!m) return fail_code(bad_handle());
  auto filters = filters_from_text(filters_json);
  if (!filters) return fail_code(filters.err());
  std::vector<std::string> urls;
  if (!urls_at(*m, relay_idxs, urls)) return fail_code(bad_relay());
  auto r = m->subs.subscribe(sub_id, std::move(*filters), urls, to_i64(now), max_wait >= 0 ? to_i64(max_wait) : -1);
  return r ? 0 : fail_code(r.err());
}

void subs_unsubscribe(int h, const std::string& sub_id) {
  if (machine* m = find(h)) m->subs.unsubscribe(sub_id);
}

void subs_set_limits(int h, int relay_idx, double max_subscriptions, double max_filters, double max_message_length) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  auto count = [](double v) { return v > 0 ? static_cast<std::size_t>(v) : std::size_t{0}; };
  if (url) m->subs.set_limits(*url, {count(max_subscriptions), count(max_filters), count(max_message_length)});
}

void subs_connected(int h, int relay_idx, double now) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.relay_connected(*url, to_i64(now));
}

void subs_dropped(int h, int relay_idx, bool reconnecting) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.relay_disconnected(*url, reconnecting);
}

void subs_remove_relay(int h, int relay_idx, const std::string& message) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.remove_relay(std::string(*url), message);
}

void subs_auth_result(int h, int relay_idx, bool accepted, double now) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.auth_result(*url, accepted, to_i64(now));
}

// Whether an OK or CLOSED reason (a name: "restricted"...) asks this relay for AUTH.
bool subs_needs_auth(int h, int relay_idx, const std::string& reason) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (!url) return false;
  for (int i = 0; i <= static_cast<int>(relay::reason_code::unknown); ++i)
    if (reason == relay::reason_name(static_cast<relay::reason_code>(i)))
      return m->subs.needs_auth(*url, static_cast<relay::reason_code>(i));
  return false;
}

// {challenge?, authenticated, refused}: the relay's NIP-42 state on this connection.
val subs_auth_state(int h, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  val o = val::object();
  if (!url) return o;
  if (const std::string* c = m->subs.challenge(*url)) o.set("challenge", *c);
  o.set("authenticated", m->subs.authenticated(*url));
  o.set("refused", m->subs.auth_refused(*url));
  return o;
}

val subs_probe(int h, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (!url) return fail(bad_relay());
  return val(m->subs.probe(*url));
}

void subs_timeout(int h, double now) {
  if (machine* m = find(h)) m->subs.handle_timeout(to_i64(now));
}

// -1: no deadline.
double subs_next_deadline(int h) {
  machine* m = find(h);
  auto d = m ? m->subs.next_deadline() : std::nullopt;
  return d ? static_cast<double>(*d) : -1;
}

bool subs_wants_relay(int h, int relay_idx) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  return url && m->subs.wants_relay(*url);
}

// The actions decided since the last call: [{type, relay (index, -1 for none), subId, frame?,
// reason?, message?, code?}].
std::string auth_template_json(const std::string& relay_url, const std::string& challenge, double now);

val subs_actions(int h) {
  val out = val::array();
  machine* m = find(h);
  if (!m) return out;
  for (auto& a : m->subs.take_actions()) {
    val o = val::object();
    o.set("type", std::string(relay::action_type_name(a.type)));
    o.set("relay", a.relay.empty() ? -1 : index_of(*m, a.relay));
    o.set("subId", a.sub_id);
    if (!a.frame.empty()) o.set("frame", std::move(a.frame));
    if (a.type == relay::action_type::relay_closed || a.type == relay::action_type::authenticate) {
      o.set("reason", a.reason.empty() ? std::string(relay::reason_name(a.status.reason)) : a.reason);
      o.set("message", a.status.message);
      if (!a.code.empty()) o.set("code", a.code);
    }
    if (a.type == relay::action_type::sign_auth) {
      o.set("round", static_cast<double>(a.round));
      o.set("template", val::global("JSON").call<val>("parse", auth_template_json(a.relay, a.challenge,
                                                                                  static_cast<double>(a.created_at))));
    } else if (a.type == relay::action_type::auth_status) {
      o.set("state", a.state);
      if (!a.code.empty()) {
        o.set("code", a.code);
        o.set("detail", a.detail);
      }
      if (!a.pubkey.empty()) o.set("pubkey", a.pubkey);
    } else if (a.type == relay::action_type::auth_done) {
      o.set("accepted", a.accepted);
    }
    if (a.publish != 0) {
      o.set("publish", static_cast<double>(a.publish));
      if (a.type == relay::action_type::authenticate)
        o.set("deadline", a.deadline >= 0 ? val(static_cast<double>(a.deadline)) : val::global("Infinity"));
      if (a.type == relay::action_type::settle) {
        o.set("status", std::string(relay::publish_status_name(a.outcome)));
        o.set("attempts", a.attempts);
        if (a.has_ok) {
          o.set("reason", a.reason);
          o.set("message", a.status.message);
        }
      }
      if (a.type == relay::action_type::settle) {
        o.set("code", a.code);
        o.set("detail", a.detail);
      }
    }
    if (a.count_id != 0) {
      o.set("countId", static_cast<double>(a.count_id));
      if (a.type == relay::action_type::authenticate)
        o.set("deadline", a.deadline >= 0 ? val(static_cast<double>(a.deadline)) : val::global("Infinity"));
      if (a.type == relay::action_type::count_done) {
        if (a.code.empty()) {
          o.set("count", static_cast<double>(a.count));
          o.set("approximate", a.approximate);
          if (!a.hll.empty()) o.set("hll", a.hll);
        } else {
          o.set("code", a.code);
          o.set("detail", a.detail);
          if (!a.reason.empty()) {
            o.set("reason", a.reason);
            o.set("message", a.status.message);
          }
        }
      }
    }
    out.call<void>("push", o);
  }
  return out;
}

// --- NIP-45 COUNT (subscriptions_count.cpp). Times in ms; deadline -1: none.

// 0 or an errc value (INVALID_ARGUMENT, INVALID_FILTER, RELAY_SUB_ID_INVALID...).
int subs_count(int h, double id, int relay_idx, const std::string& sub_id, const std::string& filters_json, double now,
               double deadline) {
  machine* m = find(h);
  if (!m) return fail_code(bad_handle());
  auto filters = filters_from_text(filters_json);
  if (!filters) return fail_code(filters.err());
  const std::string* url = relay_at(*m, relay_idx);
  if (!url) return fail_code(bad_relay());
  auto r = m->subs.count(static_cast<std::uint64_t>(id), sub_id, *filters, *url, to_i64(now),
                         deadline >= 0 ? to_i64(deadline) : -1);
  return r ? 0 : fail_code(r.err());
}

// The caller's signal aborted COUNT `id` (ABORTED).
void subs_abort_count(int h, double id) {
  if (machine* m = find(h)) m->subs.cancel_count(static_cast<std::uint64_t>(id), "ABORTED", "the operation was aborted");
}

// --- Publishing (subscriptions_publish.cpp). Times in ms.

// 0 or an errc value. event_json: the event's NIP-01 fields (checked by the caller: verify);
// relays: relay indexes; deadline -1: none.
int subs_publish(int h, double id, val relay_idxs, const std::string& event_json, double now, double deadline,
                 int retries) {
  machine* m = find(h);
  if (!m) return fail_code(bad_handle());
  dom::value j = parse_json(event_json);
  if (j.is_discarded()) return fail_code(make_error(errc::invalid_event, "event is not JSON"));
  auto ev = event_from_json(j);
  if (!ev) return fail_code(ev.err());
  std::vector<std::string> urls;
  if (!urls_at(*m, relay_idxs, urls)) return fail_code(bad_relay());
  auto r = m->subs.publish(static_cast<std::uint64_t>(id), *ev, urls, to_i64(now), deadline >= 0 ? to_i64(deadline) : -1,
                           retries);
  return r ? 0 : fail_code(r.err());
}

// The caller's signal aborted publish `id`: every relay not settled settles aborted (ABORTED).
void subs_abort_publish(int h, double id) {
  if (machine* m = find(h))
    m->subs.cancel_publish(static_cast<std::uint64_t>(id), relay::publish_status::aborted, "ABORTED",
                           "the operation was aborted");
}

void subs_close_publishes(int h) {
  if (machine* m = find(h)) m->subs.close_publishes();
}

void subs_set_can_authenticate(int h, bool yes) {
  if (machine* m = find(h)) m->subs.set_can_authenticate(yes);
}

// --- NIP-42 (subscriptions_auth.cpp). Times in ms; deadline -1: none.

void subs_authenticate(int h, int relay_idx, double now, double deadline) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.authenticate(*url, to_i64(now), deadline >= 0 ? to_i64(deadline) : -1);
}

// The signer's answer to sign-auth `round`: the signed event's JSON text (an answer that is not
// an event fails the AUTH as a signer error would).
void subs_auth_signed(int h, int relay_idx, double round, const std::string& event_json, double now) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (!url) return;
  dom::value j = parse_json(event_json);
  auto ev = j.is_discarded() ? result<event>(make_error(errc::invalid_event, "not JSON")) : event_from_json(j);
  if (!ev)
    m->subs.auth_sign_failed(*url, static_cast<std::uint64_t>(round), "not a signed event: " + ev.err().detail, to_i64(now));
  else
    m->subs.auth_signed(*url, static_cast<std::uint64_t>(round), *ev, to_i64(now));
}

void subs_auth_sign_failed(int h, int relay_idx, double round, const std::string& why, double now) {
  machine* m = find(h);
  const std::string* url = m ? relay_at(*m, relay_idx) : nullptr;
  if (url) m->subs.auth_sign_failed(*url, static_cast<std::uint64_t>(round), why, to_i64(now));
}

void subs_set_auth_policy(int h, bool eager, double timeout) {
  if (machine* m = find(h)) m->subs.set_auth_policy(eager, to_i64(timeout));
}

// --- Stateless codec.

val normalize_url(const std::string& url) {
  auto r = relay::normalize_relay_url(url);
  if (!r) return fail(r.err());
  return val(std::move(*r));
}

// The unsigned NIP-42 event as JSON text.
std::string auth_template_json(const std::string& relay_url, const std::string& challenge, double now) {
  event_template t = relay::auth_template(relay_url, challenge, to_i64(now));
  std::string tags = "[";
  for (std::size_t i = 0; i < t.tags.size(); ++i) {
    tags += i ? ",[" : "[";
    for (std::size_t j = 0; j < t.tags[i].size(); ++j) {
      if (j) tags += ',';
      append_json_string(tags, t.tags[i][j]);
    }
    tags += ']';
  }
  tags += ']';
  return json_out{}.num("kind", t.kind).num("created_at", t.created_at).raw("tags", tags).str("content", t.content).done();
}

// ["REQ"|"COUNT", sub id, filters...] from a JSON array of filters, checked by the core.
val encode_req(bool count, const std::string& sub_id, const std::string& filters_json) {
  auto filters = filters_from_text(filters_json);
  if (!filters) return fail(filters.err());
  auto frame = count ? relay::encode_count(sub_id, *filters) : relay::encode_req(sub_id, *filters);
  if (!frame) return fail(frame.err());
  return val(std::move(*frame));
}

// ["EVENT", event] or ["AUTH", event] (NIP-42) from the event's JSON text: the seven NIP-01
// fields only, whatever else the object had.
val encode_event_frame(bool auth, const std::string& event_json) {
  dom::value j = parse_json(event_json);
  if (j.is_discarded()) return fail(make_error(errc::invalid_event, "event is not JSON"));
  auto ev = event_from_json(j);
  if (!ev) return fail(ev.err());
  return val(auth ? relay::encode_client_auth(*ev) : relay::encode_client_event(*ev));
}

// The relay constants js/relay uses, so it keeps no copy: defaults of the subscription machine,
// the retry and reconnect backoff, the probe prefix.
val relay_constants() {
  const relay::subscriptions_config d;
  auto backoff = [](const relay::backoff_policy& p) {
    val o = val::object();
    o.set("initialDelay", static_cast<double>(p.initial_ms));
    o.set("maxDelay", static_cast<double>(p.max_ms));
    o.set("factor", p.factor);
    o.set("jitter", p.jitter);
    return o;
  };
  val c = val::object();
  c.set("seenCap", static_cast<double>(d.seen_cap));
  c.set("resubscribeOverlap", static_cast<double>(d.resubscribe_overlap));
  c.set("subscriptionRetries", d.subscription_retries);
  c.set("publishRetries", relay::kPublishRetries);
  c.set("publishTimeout", static_cast<double>(relay::kPublishTimeoutMs));
  c.set("authTimeout", static_cast<double>(relay::kAuthTimeoutMs));
  c.set("retry", backoff(d.retry_backoff));
  val reconnect = backoff(relay::kReconnectBackoff);
  reconnect.set("stableAfter", static_cast<double>(relay::kReconnectStableAfterMs));
  c.set("reconnect", reconnect);
  c.set("probePrefix", std::string(relay::kProbePrefix));
  c.set("maxSubIdLength", 64);
  return c;
}

// The delay of reconnect attempt `attempt` (ms), and the attempt number after a connection that
// stayed open opened_for ms (-1: it never opened).
double backoff_delay(int attempt, double initial, double max, double factor, double jitter, double random01) {
  return static_cast<double>(
      relay::backoff_delay(attempt, relay::backoff_policy{to_i64(initial), to_i64(max), factor, jitter}, random01));
}

int next_reconnect_attempt(int attempt, double opened_for, double stable_after) {
  return relay::next_reconnect_attempt(attempt, to_i64(opened_for), to_i64(stable_after));
}

// Name tables, so JS mirrors the core's enums without copying them.
val reason_names() {
  val a = val::array();
  for (int i = 0; i <= static_cast<int>(relay::reason_code::unknown); ++i)
    a.call<void>("push", std::string(relay::reason_name(static_cast<relay::reason_code>(i))));
  return a;
}

val transient_reasons() {
  val a = val::array();
  for (int i = 0; i <= static_cast<int>(relay::reason_code::unknown); ++i)
    a.call<void>("push", relay::reason_is_transient(static_cast<relay::reason_code>(i)));
  return a;
}

val drop_reason_names() {
  val a = val::array();
  for (int i = 0; i <= static_cast<int>(relay::drop_reason::unknown_subscription); ++i)
    a.call<void>("push", std::string(relay::drop_reason_name(static_cast<relay::drop_reason>(i))));
  return a;
}

}  // namespace

EMSCRIPTEN_BINDINGS(relay) {
  emscripten::function("relaySubsNew", &subs_new);
  emscripten::function("relaySubsDelete", &subs_delete);
  emscripten::function("relaySubsRelay", &subs_relay);
  emscripten::function("relaySubsOpen", &subs_open);
  emscripten::function("relaySubsReqFor", &subs_req_for);
  emscripten::function("relaySubsDisconnected", &subs_disconnected);
  emscripten::function("relaySubsResubscribe", &subs_resubscribe);
  emscripten::function("relaySubsClose", &subs_close);
  emscripten::function("relaySubsForget", &subs_forget);
  emscripten::function("relaySubsFeedScratch", &subs_feed_scratch);
  emscripten::function("relaySubsLast", &subs_last);
  emscripten::function("relaySubsFeedBatchScratch", &subs_feed_batch_scratch);
  emscripten::function("relaySubsFeedBatchVerifiedScratch", &subs_feed_batch_verified_scratch);
  emscripten::function("relaySubsLastAt", &subs_last_at);
  emscripten::function("relaySubsState", &subs_state);
  emscripten::function("relaySubsResumeSince", &subs_resume_since);
  emscripten::function("relaySubsSeenCount", &subs_seen_count);
  emscripten::function("relaySubsSize", &subs_size);
  emscripten::function("relaySubsSubscribe", &subs_subscribe);
  emscripten::function("relaySubsUnsubscribe", &subs_unsubscribe);
  emscripten::function("relaySubsSetLimits", &subs_set_limits);
  emscripten::function("relaySubsConnected", &subs_connected);
  emscripten::function("relaySubsDropped", &subs_dropped);
  emscripten::function("relaySubsRemoveRelay", &subs_remove_relay);
  emscripten::function("relaySubsAuthResult", &subs_auth_result);
  emscripten::function("relaySubsNeedsAuth", &subs_needs_auth);
  emscripten::function("relaySubsAuthState", &subs_auth_state);
  emscripten::function("relaySubsProbe", &subs_probe);
  emscripten::function("relaySubsTimeout", &subs_timeout);
  emscripten::function("relaySubsNextDeadline", &subs_next_deadline);
  emscripten::function("relaySubsWantsRelay", &subs_wants_relay);
  emscripten::function("relaySubsActions", &subs_actions);
  emscripten::function("relaySubsPublish", &subs_publish);
  emscripten::function("relaySubsCount", &subs_count);
  emscripten::function("relaySubsAbortCount", &subs_abort_count);
  emscripten::function("relaySubsAbortPublish", &subs_abort_publish);
  emscripten::function("relaySubsClosePublishes", &subs_close_publishes);
  emscripten::function("relaySubsSetCanAuthenticate", &subs_set_can_authenticate);
  emscripten::function("relaySubsAuthenticate", &subs_authenticate);
  emscripten::function("relaySubsAuthSigned", &subs_auth_signed);
  emscripten::function("relaySubsAuthSignFailed", &subs_auth_sign_failed);
  emscripten::function("relaySubsSetAuthPolicy", &subs_set_auth_policy);
  emscripten::function("relayConstants", &relay_constants);
  emscripten::function("relayBackoffDelay", &backoff_delay);
  emscripten::function("relayNextReconnectAttempt", &next_reconnect_attempt);
  emscripten::function("relayNormalizeUrl", &normalize_url);
  emscripten::function("relayAuthTemplate", &auth_template_json);
  emscripten::function("relayEncodeReq", &encode_req);
  emscripten::function("relayEncodeEventFrame", &encode_event_frame);
  emscripten::function("relayReasonNames", &reason_names);
  emscripten::function("relayTransientReasons", &transient_reasons);
  emscripten::function("relayDropReasonNames", &drop_reason_names);
}

}  // namespace nostr::bindings
