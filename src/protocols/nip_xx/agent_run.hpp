// One run on the agent side: turns what the handler produces into the events to publish, and
// guarantees the run's invariants: deltas carry seq from 0 upward, nothing follows the terminal,
// there is exactly one terminal, a cancel while running yields exactly one CANCELLED error and a
// cancel after the terminal yields nothing (Definitions: Run; Protocol Flow 6-8).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "event/event.hpp"
#include "protocols/nip_xx/kinds.hpp"
#include "protocols/nip_xx/outgoing.hpp"
#include "protocols/nip_xx/payload.hpp"

namespace nostr::nip_xx {

class agent_run {
 public:
  // privacy_first: tool telemetry carries no arguments or output (minimal disclosure).
  agent_run(std::string prompt_id, std::string client_pubkey, std::optional<std::string> session,
            info_payload info, bool privacy_first = false);

  result<outgoing> status(const std::string& state, std::optional<std::int64_t> progress = std::nullopt,
                          std::optional<std::string> info = std::nullopt);
  // Text is sent so that the client reads it back exactly (text_for_wire: a text that would read
  // as a compatibility envelope travels inside one, with ts = timestamp, else now, in seconds).
  result<outgoing> delta(const std::string& text, std::optional<std::int64_t> timestamp = std::nullopt,
                         std::int64_t now = 0);
  // A tool the agent does not advertise in tool_names is UNSUPPORTED_FEATURE (the caller ends
  // the run with it).
  result<outgoing> tool_call(tool_call_payload call);
  // Terminal success. With no text and no delta ever sent, the run ends in EMPTY_RESPONSE instead.
  result<outgoing> respond(const std::string& text, std::optional<usage_info> usage = std::nullopt,
                           std::optional<std::int64_t> timestamp = std::nullopt, std::int64_t now = 0);
  // Terminal failure with a protocol error code (errc xx_*).
  result<outgoing> fail(errc code, const std::string& message, std::optional<std::int64_t> retry_after = std::nullopt,
                        std::optional<json> details = std::nullopt);
  // A cancel for this run: the CANCELLED error to publish, once, while the run is open.
  std::optional<outgoing> cancel();

  bool finished() const { return finished_; }
  bool cancel_requested() const { return cancel_requested_; }
  std::int64_t next_seq() const { return seq_; }
  const std::string& prompt_id() const { return prompt_id_; }

 private:
  result<void> open() const;
  tag_list tags(const std::optional<std::string>& tool = std::nullopt,
                const std::optional<std::string>& phase = std::nullopt) const;

  std::string prompt_id_, client_;
  std::optional<std::string> session_;
  info_payload info_;
  bool privacy_first_;
  std::int64_t seq_ = 0;
  bool finished_ = false;
  bool cancel_requested_ = false;
};

}  // namespace nostr::nip_xx
