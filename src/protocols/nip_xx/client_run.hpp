// The client's view of one run: every event the agent sends about a prompt goes in, already
// decrypted, and a typed update comes out. It applies the seed's "Streaming and reconciliation"
// and "Validation and failure rules":
// - events whose (author, p, e root, encryption) do not belong to this run are ignored;
// - duplicates by event id are ignored; deltas are ordered by (seq, created_at, id) when seq is
//   present, else (created_at, id); identical (seq, text) pairs are deduplicated;
// - a missing seq marks the run degraded while the text is still rendered best-effort;
// - a seq that contradicts another (same seq with other text, seq order against created_at order,
//   or a run mixing deltas with and without seq) is INVALID_SEQUENCE and is not applied;
// - nothing but a newer terminal is applied after a terminal; of several terminals the one with
//   the highest (created_at, id) wins ("clients MUST keep only the terminal event with the highest
//   created_at and highest id as tie-breaker"), so the run settles only a grace period after its
//   first terminal (settle_at_ms), whoever sent what: a relay may deliver an older terminal first,
//   another device may have cancelled, two instances of one agent may both answer;
// - the final text comes from ai.response only.
// It also owns the run's deadlines (sans-IO: the driver passes now_ms and arms one timer at
// next_deadline(), then calls handle_timeout): the terminal grace, the idle timeout (no event of
// the run for idle_timeout_ms: RUN_INCOMPLETE) and the wait for the agent's CANCELLED after an
// ai.cancel. Once closed (a timeout ended it, or close()), it takes no event and fires no deadline.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "event/event.hpp"
#include "protocols/nip_xx/constants.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "protocols/nip_xx/payload.hpp"

namespace nostr::nip_xx {

enum class update_kind {
  status,     // status payload
  delta,      // text so far changed
  tool_call,  // tool telemetry
  terminal,   // a terminal was accepted (or replaced a lower one)
  ignored,    // not for this run, duplicate, or after the terminal: nothing changed
  rejected,   // for this run but invalid (code says why); nothing changed
};

struct run_update {
  update_kind type = update_kind::ignored;
  std::string reason;  // ignored/rejected: why
  errc code = errc::ok;  // rejected: PARSE_ERROR, INVALID_SCHEMA, UNSUPPORTED_ENCRYPTION, INVALID_SEQUENCE
  std::optional<status_payload> status;
  std::optional<tool_call_payload> tool_call;
  std::optional<std::string> thinking;  // delta: a thinking block (envelope mode=thinking), not answer text
  bool replaced = false;  // terminal: it replaced an earlier terminal
  std::string replaced_id;  // terminal, replaced: the event id of the terminal it replaced
  // delta: how the rendered text changed, handed out incrementally (a long answer is not copied
  // whole per delta): `append` is added at the end, unless text_reset (a delta landed before the
  // end: the whole text() is to be read again).
  std::string append;
  bool text_reset = false;
  bool degraded = false;  // delta: the run's gap state after it
};

// What handle_timeout found due.
enum class timeout_outcome {
  none,                // nothing due (or the run is closed)
  settled,             // the grace after the first terminal ended: terminal() is the outcome
  idle,                // no event of the run for idle_timeout_ms: RUN_INCOMPLETE
  cancel_unconfirmed,  // no terminal within the cancel timeout after an ai.cancel: CANCELLED
};

struct terminal_state {
  kind k = kind::response;
  std::string event_id;
  std::int64_t created_at = 0;
  std::optional<response_payload> response;  // text already unwrapped from an envelope
  std::optional<error_payload> error;
};

class client_run {
 public:
  // terminal_grace_ms: see settle_at_ms (0: the first terminal settles the run at once).
  // idle_timeout_ms: 0 turns the idle deadline off.
  client_run(std::string prompt_id, std::string agent_pubkey, std::string client_pubkey,
             std::int64_t terminal_grace_ms = default_terminal_grace_ms,
             std::int64_t idle_timeout_ms = default_idle_timeout_ms);

  // e: the received event (signature already verified); plaintext: its decrypted content;
  // now_ms: the local time it arrived (any monotonic ms clock; only settle_at_ms uses it).
  run_update on_event(const event& e, std::string_view plaintext, std::int64_t now_ms = 0);

  // When the run's outcome is final: the arrival of its first terminal plus the grace period, or
  // nullopt before any terminal. Until then a newer terminal replaces the accepted one (without
  // moving this deadline: a stream of ever newer terminals cannot keep a run open).
  std::optional<std::int64_t> settle_at_ms() const;
  std::int64_t terminal_grace_ms() const { return terminal_grace_ms_; }

  // The driver is listening from now_ms on: the idle deadline starts (every event of the run
  // that is applied moves it).
  void start(std::int64_t now_ms);
  // Whether an ai.cancel may still go out: the run is open and has no terminal yet (once a
  // terminal is shown, a cancel would only race it).
  bool may_cancel() const { return !closed_ && !terminal_; }
  // An ai.cancel was sent at now_ms: without a terminal by now_ms + timeout_ms the run ends
  // CANCELLED (cancel_unconfirmed).
  void cancel_sent(std::int64_t now_ms, std::int64_t timeout_ms);
  // The earliest pending deadline (ms), or nullopt (closed, or nothing armed).
  std::optional<std::int64_t> next_deadline() const;
  // Fires what is due at now_ms; any outcome but none closes the run.
  timeout_outcome handle_timeout(std::int64_t now_ms);
  // The driver ended the run itself (a local failure): no event or deadline is taken afterwards.
  void close() { closed_ = true; }
  bool closed() const { return closed_; }

  // Whether e names this run (its e root tag is the prompt): the driver decrypts only what names
  // the run (a gift-wrapped rumor, an event of a shared subscription); on_event judges the rest.
  bool names_run(const event& e) const;

  const std::string& prompt_id() const { return prompt_id_; }
  // Best-effort rendering of the deltas so far, in order (gaps skipped).
  std::string text() const;
  bool degraded() const;  // a seq is missing below the highest seen
  std::optional<std::int64_t> next_missing_seq() const;
  const std::optional<terminal_state>& terminal() const { return terminal_; }
  std::size_t delta_count() const { return seq_deltas_.size() + plain_deltas_.size(); }

 private:
  struct plain_delta {
    std::int64_t created_at;
    std::string id;
    std::string text;
    bool operator<(const plain_delta& o) const {
      return created_at != o.created_at ? created_at < o.created_at : id < o.id;
    }
  };
  struct seq_delta {
    std::int64_t created_at;
    std::string id;
    std::string text;
  };

  run_update apply(const event& e, std::string_view plaintext, std::int64_t now_ms);
  run_update on_delta(const event& e, const delta_payload& d);
  run_update on_terminal(const event& e, std::string_view plaintext);

  std::string prompt_id_, agent_, client_;
  std::set<std::string> seen_ids_;
  enum class seq_mode { unknown, with_seq, without_seq } mode_ = seq_mode::unknown;
  std::map<std::int64_t, seq_delta> seq_deltas_;
  std::set<plain_delta> plain_deltas_;
  std::optional<terminal_state> terminal_;
  std::int64_t terminal_grace_ms_;
  std::optional<std::int64_t> first_terminal_at_ms_;
  std::int64_t idle_timeout_ms_;
  std::optional<std::int64_t> idle_at_ms_;
  std::optional<std::int64_t> cancel_at_ms_;
  bool closed_ = false;
  std::int64_t contiguous_ = 0;  // seq 0..contiguous_-1 are all present
};

// The visible text of a delta or response `text` field: plain text as it is, or the `text`
// (else `block`) value of a compatibility envelope. Envelope errors are INVALID_SCHEMA.
struct text_view {
  std::string text;
  bool thinking = false;  // envelope mode=thinking
};
result<text_view> visible_text(kind k, const std::string& text);

}  // namespace nostr::nip_xx
