// AGX glue (src/protocols/agx), the requesting side: message, task request and task update
// rumors, the mined wrap, unwrap with every check, reading Agent Cards and NIP-05, the
// routing/authorization state and the replay guard. What only a serving endpoint calls (results,
// receipts, the automated-reply limiter, flood limits, handler lookup, publishing a card) is in
// agx_serve.cpp; a relay's write policy and capability matching on strings are in agx_checks.cpp.
// Events and results cross as JSON text; secrets only through a key handle (bindings/keys.cpp) or
// the secret slot; randomness comes from JS in one crypto.getRandomValues call per operation.
#include <emscripten/bind.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "event/event_reader.hpp"
#include "agx_helpers.hpp"
#include "crypto/secp256k1.hpp"
#include "keys.hpp"
#include "nips/nip44.hpp"
#include "nips/nip59.hpp"
#include "protocols/agx/authorization.hpp"
#include "protocols/agx/card.hpp"
#include "protocols/agx/cursor.hpp"
#include "protocols/agx/endpoint.hpp"
#include "protocols/agx/nip05.hpp"
#include "protocols/agx/message.hpp"
#include "protocols/agx/pending.hpp"
#include "protocols/agx/route.hpp"
#include "protocols/agx/seen_store.hpp"
#include "protocols/agx/unwrap.hpp"
#include "protocols/agx/wrap.hpp"
#include "support.hpp"
#include "wrap_inputs.hpp"
#include "util/hex.hpp"

namespace nostr::bindings {
namespace {

using json = dom::value;

using agx_glue::fresh_id;
using agx_glue::task_limits_of;
using agx_glue::opt;
using agx_glue::string_list;

json raw_json(const std::optional<std::string>& text) {
  if (!text) return nullptr;
  auto j = parse_json(*text);
  return j.is_discarded() ? json(nullptr) : j;
}

// --- rumors (the author is a pubkey; ids come from the CSPRNG)

val message_rumor(const std::string& text, const std::string& author, const std::string& recipient, double now_s,
                  bool has_subject, const std::string& subject, int auto_depth, const std::string& content_type,
                  const std::string& context_id) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  agx::message_fields f;
  f.text = text;
  f.message_id = fresh_id();
  f.context_id = context_id.empty() ? fresh_id() : context_id;
  if (!content_type.empty()) f.content_type = content_type;
  f.subject = opt(has_subject, subject);
  f.auto_depth = auto_depth;
  auto r = agx::message_rumor(f, author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

val task_request_rumor(const std::string& task_id, const std::string& capability, bool has_payload,
                       const std::string& payload_json, const std::string& author, const std::string& recipient,
                       double now_s, int auto_depth, bool accepts_updates) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  agx::task_request_fields f;
  f.task_id = task_id;
  f.capability = capability;
  f.payload_json = opt(has_payload, payload_json);
  f.message_id = fresh_id();
  f.auto_depth = auto_depth;
  f.accepts_updates = accepts_updates;
  auto r = agx::task_request_rumor(f, author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

// A status update (state "working" or "input-required", message optional) or, with state
// "input", the requester's answer (input JSON optional) as a 3838 rumor.
val task_update_rumor(const std::string& task_id, const std::string& state, bool has_text, const std::string& text,
                      const std::string& author, const std::string& recipient, double now_s) {
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  result<std::string> env = make_error(errc::invalid_argument, "state must be working, input-required or input");
  if (state == "input") {
    env = agx::task_input_json(task_id, opt(has_text, text));
  } else if (auto st = agx::parse_task_state(state); st) {
    env = agx::task_status_json(task_id, *st, has_text ? std::optional<std::string_view>(text) : std::nullopt);
  }
  if (!env) return fail(env.err());
  auto r = agx::task_envelope_rumor(*env, task_id, fresh_id(), author, recipient, now);
  if (!r) return fail(r.err());
  return val(nip59::rumor_to_json(*r));
}

// --- the wrap, mined in bounded slices

// seal_and_start's rumor checks, for the handle path (which seals with the handle's cached
// conversation key instead of a raw secret).
result<void> check_agx_rumor(const event& rumor, const std::string& recipient) {
  if (rumor.kind != agx::kMessageKind && rumor.kind != agx::kReceiptKind)
    return make_error(errc::invalid_argument, "AGX wraps only message (3838) and receipt (3839) rumors");
  std::size_t p_tags = 0;
  bool names_recipient = false;
  for (const auto& t : rumor.tags) {
    if (t.empty() || t[0] != "p") continue;
    ++p_tags;
    names_recipient = t.size() >= 2 && t[1] == recipient;
  }
  if (p_tags != 1 || !names_recipient)
    return make_error(errc::invalid_argument, "the rumor must carry exactly one p tag, the recipient");
  return {};
}

class wrap_job {
 public:
  wrap_job() = default;

  // Seals with a LocalSigner handle (must be the rumor's author) and prepares the wrap.
  val start_with_handle(int handle, const std::string& rumor_json, const std::string& recipient, double now_s,
                        const std::string& random) {
    miner_.reset();
    const auto* author = key_for_handle(handle);
    if (!author) return fail(disposed());
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto rumor = nip59::parse_rumor(rumor_json);
    if (!rumor) return fail(rumor.err());
    if (rumor->pubkey != hex::encode(author->public_key()))
      return fail(make_error(errc::invalid_argument, "the rumor's author is not this signer"));
    auto ok = check_agx_rumor(*rumor, recipient);
    if (!ok) return fail(ok.err());
    bytes32 rcpt{};
    if (!read_pubkey(recipient, rcpt))
      return fail(make_error(errc::invalid_public_key, "recipient must be 64 lowercase hex characters"));
    auto ck = conversation_key_for_handle(handle, rcpt);
    if (!ck) return fail(ck.err());
    auto seal = nip59::create_seal(*rumor, *author, **ck, rnd.seal_nonce, rnd.seal_aux,
                                   agx::backdated(now, rnd.seal_tweak));
    if (!seal) return fail(seal.err());
    auto m = agx::wrap_miner::start(*seal, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // The author's secret key is in the secret slot (taken first).
  val start_with_secret(const std::string& rumor_json, const std::string& recipient, double now_s,
                        const std::string& random) {
    secret32 sk = take_secret();
    miner_.reset();
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto rumor = nip59::parse_rumor(rumor_json);
    if (!rumor) return fail(rumor.err());
    auto m = agx::seal_and_start(*rumor, sk.b, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // The seal was made by an external signer (NIP-07, NIP-46): only the one-time key's work here.
  val start_with_seal(const std::string& seal_json, const std::string& recipient, double now_s,
                      const std::string& random) {
    miner_.reset();
    std::int64_t now;
    if (!read_now(now_s, now)) return fail(bad_now());
    nip59::wrap_randomness rnd;
    if (!read_wrap_randomness(random, rnd)) return fail(bad_random());
    auto seal = read_event(seal_json);
    if (!seal) return fail(make_error(errc::nip59_invalid_seal, "the seal is not a signed event"));
    auto m = agx::wrap_miner::start(*seal, recipient, now, rnd);
    if (!m) return fail(m.err());
    miner_.emplace(std::move(*m));
    return val(true);
  }

  // Up to `iterations` more nonces: true once found.
  val step(double iterations) {
    if (!miner_) return fail(make_error(errc::invalid_argument, "wrap not started"));
    if (!std::isfinite(iterations) || iterations < 1) iterations = 1;
    auto r = miner_->step(static_cast<std::uint64_t>(iterations));
    if (!r) return fail(r.err());
    return val(*r);
  }

  double tried() const { return miner_ ? static_cast<double>(miner_->tried()) : 0; }

  val finish() {
    if (!miner_) return fail(make_error(errc::invalid_argument, "wrap not started"));
    auto w = miner_->finish();
    if (!w) return fail(w.err());
    miner_.reset();
    return val(to_json(*w));
  }

 private:
  std::optional<agx::wrap_miner> miner_;
};

// --- unwrap

// How the inbox treats the last unwrap failure: 'retry', 'ignore' or 'discard' (unwrap.hpp).
agx::disposition g_disposition = agx::disposition::ignore;

void set_disposition(errc code, agx::unwrap_stage stage) { g_disposition = agx::disposition_of(code, stage); }

json message_json(const agx::inbound_message& m) {
  json j;
  j["contentType"] = m.payload.content_type;
  j["role"] = m.payload.role;
  j["messageId"] = m.payload.message_id;
  j["contextId"] = m.payload.context_id;
  j["text"] = m.payload.text;
  j["subject"] = m.payload.subject ? json(*m.payload.subject) : json(nullptr);
  j["autoDepth"] = m.payload.auto_depth;
  return j;
}

json task_json(const agx::task_envelope& t) {
  json j;
  j["taskId"] = t.task_id;
  if (t.t == agx::task_envelope::type::request) {
    j["t"] = "req";
    j["capability"] = t.capability;
    j["payload"] = raw_json(t.payload_json);
    // Which of our status envelopes the requester gets (the core's rule, task.hpp).
    j["updates"] = {{"status", agx::may_send_status(t)}, {"input", agx::may_request_input(t)}};
  } else if (t.t == agx::task_envelope::type::status) {
    j["t"] = "status";
    j["status"] = agx::task_state_name(t.update_state);
    j["message"] = t.message ? json(*t.message) : json(nullptr);
  } else if (t.t == agx::task_envelope::type::input) {
    j["t"] = "input";
    j["input"] = raw_json(t.input_json);
  } else {
    j["t"] = "res";
    j["status"] = agx::result_status_name(t.status);
    j["output"] = raw_json(t.output_json);
    j["error"] = t.error ? json(*t.error) : json(nullptr);
  }
  return j;
}

// The fields every opened wrap carries to JS (opened_json and the endpoint's inbound_json).
json opened_head(const agx::opened_wrap& w) {
  json j;
  j["from"] = w.from;
  j["wrapId"] = w.wrap_id;
  j["wrapCreatedAt"] = w.wrap_created_at;
  j["wrapExpiresAt"] = w.wrap_expires_at;
  j["rumor"] = parse_json(nip59::rumor_to_json(w.rumor));
  j["sentAt"] = w.rumor.created_at;
  return j;
}

void put_receipt(json& j, const agx::inbound_receipt& r) {
  j["kind"] = "receipt";
  j["class"] = "receipt";
  j["receipt"] = {{"refEventId", r.receipt.ref_event_id},
                  {"contextId", r.receipt.context_id},
                  {"status", agx::receipt_status_name(r.receipt.status)}};
}

// A message and its class: text, unknown, or the task envelope's type.
void put_message(json& j, const agx::inbound_message& m) {
  j["kind"] = "message";
  j["message"] = message_json(m);
  j["taskMalformed"] = m.task_malformed;
  j["class"] = "unknown";
  if (m.payload.cls == agx::content_class::text) j["class"] = "text";
  if (m.payload.cls == agx::content_class::task && m.task) {
    switch (m.task->t) {
      case agx::task_envelope::type::request: j["class"] = "task-request"; break;
      case agx::task_envelope::type::result: j["class"] = "task-result"; break;
      case agx::task_envelope::type::status: j["class"] = "task-status"; break;
      case agx::task_envelope::type::input: j["class"] = "task-input"; break;
    }
    j["task"] = task_json(*m.task);
  }
}

result<std::string> opened_json(const agx::opened_wrap& w) {
  json j = opened_head(w);
  if (w.rumor.kind == agx::kReceiptKind) {
    auto r = agx::read_receipt(w);
    if (!r) return r.err();
    put_receipt(j, *r);
    return j.dump();
  }
  auto m = agx::read_message(w);
  if (!m) return m.err();
  put_message(j, *m);
  return j.dump();
}

val finish_unwrap(const result<agx::opened_wrap>& out) {
  if (!out) {
    set_disposition(out.err().code, agx::unwrap_stage::opening);
    return fail(out.err());
  }
  auto j = opened_json(*out);
  if (!j) {
    g_disposition = agx::disposition::discard;
    return fail(j.err());
  }
  return val(*j);
}

// The public checks, then the opening: the disposition of a failure depends on which failed.
val checked_unwrap(const event& w, const nip59::conversation_key_fn& ck, const std::string& me, std::int64_t now) {
  auto ok = agx::check_wrap(w, me, now);
  if (!ok) {
    set_disposition(ok.err().code, agx::unwrap_stage::public_checks);
    return fail(ok.err());
  }
  return finish_unwrap(agx::unwrap_checked(w, ck, me));
}

// The wrap JSON is in the scratch buffer; the recipient is a LocalSigner handle.
val unwrap_with_handle(int handle, std::size_t wrap_len, double now_s) {
  g_disposition = agx::disposition::retry_later;
  const auto* me = key_for_handle(handle);
  if (!me) return fail(disposed());
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(as_chars(scratch(wrap_len), wrap_len));
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  bytes32 wrap_author{};
  (void)hex::decode_to(w->pubkey, wrap_author.data(), 32);
  auto provider = [handle, &wrap_author](const bytes32& peer) -> result<bytes32> {
    if (peer == wrap_author) return conversation_key_uncached(handle, peer);
    auto ck = conversation_key_for_handle(handle, peer);
    if (!ck) return ck.err();
    return **ck;
  };
  return checked_unwrap(*w, provider, hex::encode(me->public_key()), now);
}

// The recipient's secret key is in the secret slot.
val unwrap_with_secret(std::size_t wrap_len, double now_s) {
  secret32 sk = take_secret();
  g_disposition = agx::disposition::retry_later;
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(as_chars(scratch(wrap_len), wrap_len));
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  auto pub = crypto::xonly_public_key(sk.b);
  if (!pub) return fail(pub.err());
  auto provider = [&sk](const bytes32& peer) { return nip44::get_conversation_key(sk.b, peer); };
  return checked_unwrap(*w, provider, hex::encode(*pub), now);
}

std::string last_unwrap_disposition() {
  switch (g_disposition) {
    case agx::disposition::retry_later: return "retry";
    case agx::disposition::discard: return "discard";
    case agx::disposition::ignore: return "ignore";
  }
  return "ignore";
}

// Step by step, for a recipient key held by an external signer: the public checks, then the
// seal the signer decrypted from the wrap, then the rumor it decrypted from the seal.
val check_wrap_public(const std::string& wrap_json, const std::string& me, double now_s) {
  g_disposition = agx::disposition::retry_later;
  std::int64_t now;
  if (!read_now(now_s, now)) return fail(bad_now());
  auto w = read_event(wrap_json);
  if (!w) {
    g_disposition = agx::disposition::ignore;
    return fail(w.err());
  }
  auto ok = agx::check_wrap(*w, me, now);
  if (!ok) {
    set_disposition(ok.err().code, agx::unwrap_stage::public_checks);
    return fail(ok.err());
  }
  return val(true);
}

val open_seal(const std::string& seal_json) {
  g_disposition = agx::disposition::discard;
  auto seal = agx::open_seal_json(seal_json);
  if (!seal) return fail(seal.err());
  return val(to_json(*seal));
}

val open_rumor(const std::string& wrap_json, const std::string& seal_json, const std::string& rumor_json,
               const std::string& me) {
  g_disposition = agx::disposition::discard;
  auto w = read_event(wrap_json);
  if (!w) return fail(w.err());
  auto seal = agx::open_seal_json(seal_json);
  if (!seal) return fail(seal.err());
  return finish_unwrap(agx::open_rumor_json(*w, *seal, rumor_json, me));
}

// created_at of a seal made outside the core (backdated up to two days, never the future).
double backdated(double now_s, const std::string& random8) {
  std::int64_t now;
  if (!read_now(now_s, now) || random8.size() != 8) return -1;
  return static_cast<double>(agx::backdated(now, read_u64(as_bytes(random8))));
}

// --- discovery: reading Agent Cards (11337), NIP-05

val parse_card(const std::string& event_json) {
  auto e = read_event(event_json);
  if (!e) return fail(e.err());
  auto c = agx::parse_card(*e);
  if (!c) return fail(c.err());
  auto opt_json = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  json out;
  out["pubkey"] = c->pubkey;
  out["createdAt"] = c->created_at;
  out["id"] = e->id;
  out["org"] = opt_json(c->org);
  out["displayName"] = opt_json(c->display_name);
  out["nip05"] = opt_json(c->nip05);
  out["capabilities"] = c->capabilities;
  out["relays"] = c->relays;
  out["payloadTypes"] = c->payload_types;
  return val(out.dump());
}

// name@domain -> {name, domain, url}
val parse_nip05(const std::string& identifier) {
  auto a = agx::parse_nip05(identifier);
  if (!a) return fail(a.err());
  json out;
  out["name"] = a->name;
  out["domain"] = a->domain;
  out["url"] = agx::nip05_url(*a);
  return val(out.dump());
}

val nip05_pubkey(const std::string& body, const std::string& name) {
  auto pk = agx::nip05_pubkey(body, name);
  if (!pk) return fail(pk.err());
  return val(*pk);
}

// --- handler keys (string_list is declared above)

// --- the endpoint machine (src/protocols/agx/endpoint): glue only. An inbound wrap crosses once
// (its JSON text in, the verdict, the opened message and the actions out as one JSON text); a
// host answer crosses once more. Times are the one clock's milliseconds.

std::int64_t ms_of(double v) { return std::isfinite(v) ? static_cast<std::int64_t>(v) : 0; }

json marks_json(const std::vector<agx::seen_entry>& marks) {
  json j = json::array();
  for (const auto& e : marks) j.push_back(json::array({hex::encode(e.id), e.expires_at}));
  return j;
}

json action_json(const agx::action& a) {
  json j;
  j["kind"] = agx::action_kind_name(a.kind);
  switch (a.kind) {
    case agx::action_kind::persist: j["marks"] = marks_json(a.marks); return j;
    case agx::action_kind::poll:
    case agx::action_kind::warn_unconfigured: return j;
    default: break;
  }
  if (!a.rumor_id.empty()) j["rumorId"] = a.rumor_id;
  if (!a.task_id.empty()) j["taskId"] = a.task_id;
  if (a.kind == agx::action_kind::deliver || a.kind == agx::action_kind::drop) {
    j["reason"] = agx::route_reason_name(a.reason);
    j["mayReply"] = a.may_reply;
  }
  if (a.kind == agx::action_kind::ask_host) j["capability"] = a.capability;
  if (a.kind == agx::action_kind::record_task) j["until"] = a.until;
  if (a.kind == agx::action_kind::run_handler) {
    j["handlerKey"] = a.handler_key;
    j["capability"] = a.capability;
    j["until"] = a.until;
    j["gate"] = agx::task_verdict_name(a.gate.verdict);
    if (a.gate.ticket) j["ticket"] = a.gate.ticket;
    if (a.gate.verdict == agx::task_verdict::rate_limited) j["retryAfter"] = a.gate.retry_after;
  }
  return j;
}

json actions_json(const std::vector<agx::action>& as) {
  json j = json::array();
  for (const auto& a : as) j.push_back(action_json(a));
  return j;
}

// The opened message as the JS API shows it (unwrapAgx's shape), from what the machine read.
json inbound_json(const agx::inbound_result& r) {
  json j;
  j["verdict"] = agx::inbound_verdict_name(r.verdict);
  if (r.err) {
    j["code"] = errc_name(r.err->code);
    j["message"] = r.err->detail;
  }
  if (r.opened) {
    json o = opened_head(*r.opened);
    if (r.receipt) put_receipt(o, *r.receipt);
    else if (r.message) put_message(o, *r.message);
    j["opened"] = std::move(o);
  }
  j["actions"] = actions_json(r.actions);
  return j;
}

class endpoint_binding {
 public:
  // mode: "unconfigured", "accept-all" or "host"; caps 0: the defaults.
  endpoint_binding(const std::string& mode, double seen_cap, double cache_cap, double overlap, double idle_ms,
                   double pending_ms)
      : ep_(options(mode, seen_cap, cache_cap, overlap, idle_ms, pending_ms)) {}

  val allow(const std::string& pubkey, const std::string& pattern) {
    auto r = ep_.allow(pubkey, pattern);
    if (!r) return fail(r.err());
    return val(true);
  }
  bool revoke(const std::string& pubkey) { return ep_.revoke(pubkey); }
  std::string decide(const std::string& from, const std::string& capability) const {
    return agx::auth_verdict_name(ep_.policy().decide(from, capability));
  }
  bool take_unconfigured_warning() { return ep_.take_unconfigured_warning(); }
  void set_handlers(const std::string& keys_json) { ep_.set_handlers(string_list(keys_json)); }
  void set_keep_unknown_content_types(bool keep) { ep_.keep_unknown_content_types(keep); }
  void set_task_limits(double max_concurrent, double per_peer_concurrent, double max_queued, double per_peer_queued,
                       double rate_count, double rate_window, double max_tracked) {
    ep_.set_task_limits(task_limits_of(max_concurrent, per_peer_concurrent, max_queued, per_peer_queued, rate_count, rate_window, max_tracked));
  }

  // One inbound wrap (its JSON text) with a LocalSigner handle: every check, the opening and the
  // decision in one call. verified: the pool's feed verified its id and signature already.
  std::string receive_with_handle(int handle, const std::string& wrap_json, double now_ms, bool verified) {
    const auto* me = key_for_handle(handle);
    if (!me) return failed(agx::inbound_verdict::retry, disposed());
    auto w = read_event(wrap_json);
    if (!w) return failed(agx::inbound_verdict::invalid, w.err());
    bytes32 wrap_author{};
    (void)hex::decode_to(w->pubkey, wrap_author.data(), 32);
    auto provider = [handle, &wrap_author](const bytes32& peer) -> result<bytes32> {
      if (peer == wrap_author) return conversation_key_uncached(handle, peer);
      auto ck = conversation_key_for_handle(handle, peer);
      if (!ck) return ck.err();
      return **ck;
    };
    return inbound_json(ep_.receive(*w, provider, hex::encode(me->public_key()), ms_of(now_ms), verified)).dump();
  }
  // An external signer's key: the checks before decrypting ("processed": go on and open it) ...
  std::string before_open(const std::string& wrap_json, const std::string& me, double now_ms, bool verified) {
    auto w = read_event(wrap_json);
    if (!w) return failed(agx::inbound_verdict::invalid, w.err());
    return inbound_json(ep_.before_open(*w, me, ms_of(now_ms), verified)).dump();
  }
  // ... then the seal and rumor the signer decrypted: the NIP-59 checks and the decision.
  std::string opened(const std::string& wrap_json, const std::string& seal_json, const std::string& rumor_json,
                     const std::string& me, double now_ms) {
    auto w = read_event(wrap_json);
    if (!w) return failed(agx::inbound_verdict::invalid, w.err());
    auto seal = agx::open_seal_json(seal_json);
    if (!seal) return open_failure(w->id, seal.err(), now_ms);
    auto o = agx::open_rumor_json(*w, *seal, rumor_json, me);
    if (!o) return open_failure(w->id, o.err(), now_ms);
    return inbound_json(ep_.opened(std::move(*o), ms_of(now_ms))).dump();
  }
  // The signer could not open it: "discard" (bad input: cached) or "retry" (unavailable).
  void open_failed(const std::string& wrap_id, bool discard, double now_ms) {
    ep_.open_failed(wrap_id, discard ? agx::disposition::discard : agx::disposition::retry_later, ms_of(now_ms));
  }
  std::string host_verdict(const std::string& rumor_id, bool allowed, double now_ms) {
    return actions_json(ep_.host_verdict(rumor_id, allowed, ms_of(now_ms))).dump();
  }

  // timeout_ms <= 0: no deadline.
  val open_request(const std::string& task_id, const std::string& peer, double timeout_ms, double now_ms) {
    auto r = ep_.open_request(task_id, peer, "", ms_of(timeout_ms), ms_of(now_ms));
    if (!r) return fail(r.err());
    return val(true);
  }
  bool cancel_request(const std::string& task_id) { return ep_.cancel_request(task_id); }
  void input_sent(const std::string& task_id, double now_ms) { ep_.input_sent(task_id, ms_of(now_ms)); }
  double open_requests() const { return static_cast<double>(ep_.open_requests()); }
  val await_input(const std::string& task_id, const std::string& peer, double timeout_ms, double now_ms) {
    auto r = ep_.await_input(task_id, peer, ms_of(timeout_ms), ms_of(now_ms));
    if (!r) return fail(r.err());
    return val(true);
  }
  bool end_await(const std::string& task_id) { return ep_.end_await(task_id); }
  std::string settle(const std::string& task_id, const std::string& from) {
    switch (ep_.settle(task_id, from)) {
      case agx::settle_outcome::settled: return "settled";
      case agx::settle_outcome::wrong_sender: return "wrong-sender";
      case agx::settle_outcome::unknown: return "unknown";
    }
    return "unknown";
  }

  // The poll's relay filter since (s); poll_end gets the same window back.
  double poll_begin(double now_ms) {
    window_ = ep_.poll_begin(ms_of(now_ms));
    return static_cast<double>(window_.since);
  }
  void poll_end(bool complete, double now_ms) { ep_.poll_end(window_, complete, ms_of(now_ms)); }
  double cursor() const { return static_cast<double>(ep_.cursor()); }
  void set_cursor(double s) { ep_.set_cursor(static_cast<std::int64_t>(s)); }
  double lookback() const { return static_cast<double>(ep_.lookback()); }
  void start_polling() { ep_.start_polling(); }

  double next_deadline() const { return static_cast<double>(ep_.next_deadline()); }
  std::string handle_timeout(double now_ms) { return actions_json(ep_.handle_timeout(ms_of(now_ms))).dump(); }

  // Served tasks: a task ended (the next queued ticket, 0: none); a re-run after a restart.
  double task_done(const std::string& peer) { return static_cast<double>(ep_.task_done(peer).ticket); }
  std::string offer_rerun(const std::string& peer, double now_ms) {
    auto a = ep_.offer_rerun(peer, ms_of(now_ms));
    json j;
    j["gate"] = agx::task_verdict_name(a.verdict);
    j["ticket"] = a.ticket;
    return j.dump();
  }
  std::string clear_queue() {
    json j = json::array();
    for (const auto& t : ep_.clear_queue()) j.push_back(t.ticket);
    return j.dump();
  }
  double running() const { return static_cast<double>(ep_.gate().running()); }
  double queued() const { return static_cast<double>(ep_.gate().queued()); }
  double tracked_peers() const { return static_cast<double>(ep_.gate().tracked_peers()); }

  // The durable marks at start ([[id, expiresAt], ...] as a snapshot's "seen").
  val load(const std::string& entries_json, double now_ms) {
    auto n = ep_.load("{\"v\":1,\"seen\":" + entries_json + "}", ms_of(now_ms));
    if (!n) return fail(n.err());
    return val(static_cast<double>(*n));
  }
  std::string take_journal() { return marks_json(ep_.take_journal()).dump(); }
  bool has_room(double now_ms) { return ep_.has_room(ms_of(now_ms)); }
  double processed() const { return static_cast<double>(ep_.processed_count()); }
  double cap() const { return static_cast<double>(ep_.cap()); }
  double cached() const { return static_cast<double>(ep_.cached()); }
  double duplicate_results() const { return static_cast<double>(ep_.duplicate_results()); }

  // The public AgxRouter's route(): the decision for an opened rumor as things stand.
  // host_verdict: -1 none yet, 0 deny, 1 allow.
  val route(const std::string& rumor_json, const std::string& from, const std::string& wrap_id, int host_verdict) {
    auto rumor = nip59::parse_rumor(rumor_json);
    if (!rumor) return fail(rumor.err());
    agx::opened_wrap w;
    w.from = from;
    w.wrap_id = wrap_id;
    w.rumor = std::move(*rumor);
    auto m = agx::read_message(w);
    if (!m) return fail(m.err());
    auto d = ep_.preview(*m);
    if (host_verdict >= 0) d = agx::after_host_verdict(std::move(d), host_verdict == 1);
    json out;
    out["action"] = agx::route_action_name(d.action);
    out["reason"] = agx::route_reason_name(d.reason);
    out["sendReceipt"] = d.send_receipt;
    out["mayAutoReply"] = d.may_auto_reply;
    out["mayReply"] = d.may_reply;
    out["handlerKey"] = d.handler_key;
    out["capability"] = d.capability;
    out["taskId"] = d.task_id;
    return val(out.dump());
  }

  void close() { ep_.close(); }

 private:
  static agx::endpoint_options options(const std::string& mode, double seen_cap, double cache_cap, double overlap,
                                       double idle_ms, double pending_ms) {
    agx::endpoint_options o;
    if (mode == "accept-all") o.mode = agx::authorization_policy::mode::accept_all;
    else if (mode == "host") o.mode = agx::authorization_policy::mode::host;
    o.seen_cap = seen_cap >= 1 ? static_cast<std::size_t>(seen_cap) : agx::kSeenCap;
    o.cache_cap = cache_cap >= 1 ? static_cast<std::size_t>(cache_cap) : agx::kDiscardedCap;
    o.poll_overlap = overlap >= 0 ? static_cast<std::int64_t>(overlap) : agx::kDefaultPollOverlap;
    o.idle_poll_ms = ms_of(idle_ms);
    o.pending_poll_ms = ms_of(pending_ms);
    return o;
  }
  static std::string failed(agx::inbound_verdict v, const error& e) {
    agx::inbound_result r;
    r.verdict = v;
    r.err = e;
    return inbound_json(r).dump();
  }
  std::string open_failure(const std::string& wrap_id, const error& e, double now_ms) {
    ep_.open_failed(wrap_id, agx::disposition::discard, ms_of(now_ms));
    return failed(agx::inbound_verdict::discarded, e);
  }

  agx::endpoint ep_;
  agx::poll_window window_;
};

// The AGX constants table: js/agx keeps no copy of a kind, a window or a default.
val agx_constants() {
  val kinds = val::object();
  kinds.set("message", static_cast<double>(agx::kMessageKind));
  kinds.set("receipt", static_cast<double>(agx::kReceiptKind));
  kinds.set("seal", static_cast<double>(agx::kSealKind));
  kinds.set("giftWrap", static_cast<double>(agx::kGiftWrapKind));
  kinds.set("card", static_cast<double>(agx::kCardKind));
  kinds.set("relayList", static_cast<double>(agx::kRelayListKind));
  kinds.set("deletion", static_cast<double>(agx::kDeletionKind));
  val c = val::object();
  c.set("kinds", kinds);
  c.set("powBits", agx::kPowBits);
  c.set("maxWrapBackdate", static_cast<double>(agx::kMaxWrapBackdate));
  c.set("wrapTtl", static_cast<double>(agx::kWrapTtl));
  c.set("maxFutureSkew", static_cast<double>(agx::kMaxFutureSkew));
  c.set("defaultPollOverlap", static_cast<double>(agx::kDefaultPollOverlap));
  c.set("seenRetention", static_cast<double>(agx::kSeenRetention));
  c.set("maxPollOverlap", static_cast<double>(agx::kMaxPollOverlap));
  c.set("seenCap", static_cast<double>(agx::kSeenCap));
  c.set("idlePollMs", static_cast<double>(agx::kDefaultIdlePollMs));
  c.set("pendingPollMs", static_cast<double>(agx::kDefaultPendingPollMs));
  c.set("maxRumorBytes", static_cast<double>(agx::kInteropMaxRumorBytes));
  c.set("maxAutoDepth", agx::kDefaultAutoDepthCeiling);
  c.set("a2aContentType", std::string(agx::kA2aContentType));
  c.set("taskContentType", std::string(agx::kTaskContentType));
  return c;
}

// --- replay guard over an in-memory store

class replay_guard_binding {
 public:
  replay_guard_binding(double cap, double cache_cap)
      : store_(cap >= 1 ? static_cast<std::size_t>(cap) : agx::kSeenCap),
        cache_(cache_cap >= 1 ? static_cast<std::size_t>(cache_cap) : agx::kDiscardedCap, agx::when_full::evict),
        guard_(store_, cache_) {}
  bool known_wrap(const std::string& id, double now) { return guard_.known_wrap(id, static_cast<std::int64_t>(now)); }
  bool known_rumor(const std::string& id, double now) { return guard_.known_rumor(id, static_cast<std::int64_t>(now)); }
  bool has_room(double now) { return guard_.has_room(static_cast<std::int64_t>(now)); }
  // true, or undefined with AGX_OVERLOADED as the last error (nothing recorded).
  val processed(const std::string& rumor_id, const std::string& wrap_id, double now, double until) {
    auto r = guard_.processed(rumor_id, wrap_id, static_cast<std::int64_t>(now), static_cast<std::int64_t>(until));
    if (!r) return fail(r.err());
    return val(true);
  }
  void discarded(const std::string& wrap_id, double now) { guard_.discarded(wrap_id, static_cast<std::int64_t>(now)); }
  double size() const { return static_cast<double>(store_.size()); }
  double cap() const { return static_cast<double>(store_.cap()); }
  double cached() const { return static_cast<double>(cache_.size()); }
  double prune(double now) {
    cache_.prune(static_cast<std::int64_t>(now));
    return static_cast<double>(store_.prune(static_cast<std::int64_t>(now)));
  }
  // Durable mirror hooks: a snapshot of live entries, loading one, and the marks since last taken.
  std::string snapshot(double now) const { return store_.snapshot_json(static_cast<std::int64_t>(now)); }
  val load_snapshot(const std::string& text, double now) {
    auto n = store_.load_snapshot(text, static_cast<std::int64_t>(now));
    if (!n) return fail(n.err());
    return val(static_cast<double>(*n));
  }
  std::string take_journal() {
    json j = json::array();
    for (const auto& e : store_.take_journal()) j.push_back(json::array({hex::encode(e.id), e.expires_at}));
    return j.dump();
  }

 private:
  agx::memory_seen_store store_;
  agx::memory_seen_store cache_;
  agx::replay_guard guard_;
};

// 0, or INVALID_ARGUMENT as the last error (fail_code) for a poll overlap past the retention.
int check_poll_overlap(double overlap) {
  if (!(overlap >= -1 && overlap <= 9007199254740991.0)) return fail_code(make_error(errc::invalid_argument, "pollOverlap must be integer seconds"));
  auto r = agx::check_poll_overlap(static_cast<std::int64_t>(overlap));
  return r ? 0 : fail_code(r.err());
}

}  // namespace

EMSCRIPTEN_BINDINGS(agx) {
  emscripten::function("agxMessageRumor", &message_rumor);
  emscripten::function("agxTaskRequestRumor", &task_request_rumor);
  emscripten::function("agxTaskUpdateRumor", &task_update_rumor);
  emscripten::function("agxUnwrapWithHandle", &unwrap_with_handle);
  emscripten::function("agxUnwrapWithSecret", &unwrap_with_secret);
  emscripten::function("agxLastUnwrapDisposition", &last_unwrap_disposition);
  emscripten::function("agxCheckWrap", &check_wrap_public);
  emscripten::function("agxOpenSeal", &open_seal);
  emscripten::function("agxOpenRumor", &open_rumor);
  emscripten::function("agxBackdated", &backdated);
  emscripten::function("agxParseCard", &parse_card);
  emscripten::function("agxParseNip05", &parse_nip05);
  emscripten::function("agxNip05Pubkey", &nip05_pubkey);
  emscripten::class_<wrap_job>("AgxWrapJob")
      .constructor<>()
      .function("startWithHandle", &wrap_job::start_with_handle)
      .function("startWithSecret", &wrap_job::start_with_secret)
      .function("startWithSeal", &wrap_job::start_with_seal)
      .function("step", &wrap_job::step)
      .function("tried", &wrap_job::tried)
      .function("finish", &wrap_job::finish);
  emscripten::function("agxConstants", &agx_constants);
  emscripten::class_<endpoint_binding>("AgxEndpoint")
      .constructor<std::string, double, double, double, double, double>()
      .function("allow", &endpoint_binding::allow)
      .function("revoke", &endpoint_binding::revoke)
      .function("decide", &endpoint_binding::decide)
      .function("takeUnconfiguredWarning", &endpoint_binding::take_unconfigured_warning)
      .function("setHandlers", &endpoint_binding::set_handlers)
      .function("setKeepUnknownContentTypes", &endpoint_binding::set_keep_unknown_content_types)
      .function("setTaskLimits", &endpoint_binding::set_task_limits)
      .function("receiveWithHandle", &endpoint_binding::receive_with_handle)
      .function("beforeOpen", &endpoint_binding::before_open)
      .function("opened", &endpoint_binding::opened)
      .function("openFailed", &endpoint_binding::open_failed)
      .function("hostVerdict", &endpoint_binding::host_verdict)
      .function("openRequest", &endpoint_binding::open_request)
      .function("cancelRequest", &endpoint_binding::cancel_request)
      .function("inputSent", &endpoint_binding::input_sent)
      .function("openRequests", &endpoint_binding::open_requests)
      .function("awaitInput", &endpoint_binding::await_input)
      .function("endAwait", &endpoint_binding::end_await)
      .function("settle", &endpoint_binding::settle)
      .function("pollBegin", &endpoint_binding::poll_begin)
      .function("pollEnd", &endpoint_binding::poll_end)
      .function("cursor", &endpoint_binding::cursor)
      .function("setCursor", &endpoint_binding::set_cursor)
      .function("lookback", &endpoint_binding::lookback)
      .function("startPolling", &endpoint_binding::start_polling)
      .function("nextDeadline", &endpoint_binding::next_deadline)
      .function("handleTimeout", &endpoint_binding::handle_timeout)
      .function("taskDone", &endpoint_binding::task_done)
      .function("offerRerun", &endpoint_binding::offer_rerun)
      .function("clearQueue", &endpoint_binding::clear_queue)
      .function("running", &endpoint_binding::running)
      .function("queued", &endpoint_binding::queued)
      .function("trackedPeers", &endpoint_binding::tracked_peers)
      .function("load", &endpoint_binding::load)
      .function("takeJournal", &endpoint_binding::take_journal)
      .function("hasRoom", &endpoint_binding::has_room)
      .function("processed", &endpoint_binding::processed)
      .function("cap", &endpoint_binding::cap)
      .function("cached", &endpoint_binding::cached)
      .function("duplicateResults", &endpoint_binding::duplicate_results)
      .function("route", &endpoint_binding::route)
      .function("close", &endpoint_binding::close);
  emscripten::function("agxCheckPollOverlap", &check_poll_overlap);
  emscripten::class_<replay_guard_binding>("AgxReplayGuard")
      .constructor<double, double>()
      .function("knownWrap", &replay_guard_binding::known_wrap)
      .function("knownRumor", &replay_guard_binding::known_rumor)
      .function("hasRoom", &replay_guard_binding::has_room)
      .function("processed", &replay_guard_binding::processed)
      .function("discarded", &replay_guard_binding::discarded)
      .function("size", &replay_guard_binding::size)
      .function("cap", &replay_guard_binding::cap)
      .function("cached", &replay_guard_binding::cached)
      .function("prune", &replay_guard_binding::prune)
      .function("snapshot", &replay_guard_binding::snapshot)
      .function("loadSnapshot", &replay_guard_binding::load_snapshot)
      .function("takeJournal", &replay_guard_binding::take_journal);
}

}  // namespace nostr::bindings
