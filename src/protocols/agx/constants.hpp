// NIP-AGX 0.2.0 constants: event kinds, content types and the numbers SPEC.md fixes (or names as
// the reference's values). One place, so every module and test reads the same figure.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nostr::agx {

// SPEC.md "Event kinds (Nostr binding)".
constexpr std::int64_t kMessageKind = 3838;  // rumor only, never published bare
constexpr std::int64_t kReceiptKind = 3839;  // rumor only, never published bare
constexpr std::int64_t kSealKind = 13;
constexpr std::int64_t kGiftWrapKind = 1059;
constexpr std::int64_t kCardKind = 11337;
constexpr std::int64_t kRelayListKind = 10002;
constexpr std::int64_t kDeletionKind = 5;

// SPEC.md "Transport envelope": seal and wrap created_at drawn up to two days into the past.
constexpr std::int64_t kMaxWrapBackdate = 2 * 24 * 60 * 60;  // 172800 s
// SPEC.md "Retention": expiration = wrap created_at + one TTL for every wrap, never more than
// 31 days past the real time.
constexpr std::int64_t kWrapTtl = 30 * 24 * 60 * 60;          // 2592000 s
constexpr std::int64_t kMaxExpiration = 31 * 24 * 60 * 60;    // 2678400 s
// SPEC.md "Anti-spam": every wrap mined to at least 12 leading zero bits.
constexpr int kPowBits = 12;
// Bound on one complete mining run (the reference's MAX_POW_ITERATIONS): at 12 bits the expected
// count is 4096, so reaching it means the target was misconfigured.
constexpr std::uint64_t kMaxPowIterations = std::uint64_t{1} << 24;
// SPEC.md "Cursor advance": events dated further ahead than this are skipped, not marked seen.
constexpr std::int64_t kMaxFutureSkew = 300;
// Reference AgxClient poll overlap (late-arriving events), added to the backdate lookback.
constexpr std::int64_t kDefaultPollOverlap = 120;
// Replay store retention: longer than the whole poll window (overlap + backdate), with a day of
// margin for a briefly held cursor (reference DEFAULT_SEEN_RETENTION_SEC).
constexpr std::int64_t kSeenRetention = 3 * 24 * 60 * 60;
static_assert(kSeenRetention > kDefaultPollOverlap + kMaxWrapBackdate, "SPEC.md: retain ids beyond the window");
// The largest poll overlap that keeps every id retained beyond the window it can be fetched in
// (a larger one is refused: check_poll_overlap).
constexpr std::int64_t kMaxPollOverlap = kSeenRetention - kMaxWrapBackdate - 1;
// Replay memory bounds: processed ids (never forgotten before their expiry; a full store refuses
// new work) and the cache of discarded wraps (evicting). About 150 bytes an entry.
constexpr std::size_t kSeenCap = 200000;
constexpr std::size_t kDiscardedCap = 50000;

// SPEC.md "Message size": the largest serialized rumor whose worst-case wrap fits a default
// (65536-byte) relay; derived in size.hpp and pinned there by a test.
constexpr std::size_t kInteropMaxEventBytes = 65536;
constexpr std::size_t kInteropMaxRumorBytes = 28672;
// NIP-44 cap this build draws on any one plaintext (what a peer may send us).
constexpr std::size_t kNip44MaxPlaintextBytes = 65535;

// SPEC.md "Content types" and "Task lifecycle".
constexpr std::string_view kA2aContentType = "application/a2a+json";
constexpr std::string_view kTaskContentType = "application/agx-task+json";

// Field bounds of the reference wire schema, in UTF-16 code units (JS string length), so a value we
// accept or emit is one the reference accepts too.
constexpr std::size_t kMaxContentType = 128;
constexpr std::size_t kMaxId = 200;            // messageId, contextId, taskId, capability, refEventId
constexpr std::size_t kMaxSubject = 200;       // what we send; what we keep of what we receive
constexpr std::size_t kMaxInboundSubject = 65535;
constexpr std::size_t kMaxInboundBody = 65535;
constexpr std::size_t kMaxParts = 64;
constexpr std::size_t kMaxResultError = 2000;
// SPEC.md "Automated-reply depth": usable values; reference ceiling.
constexpr int kMaxAutoDepth = 255;
constexpr int kDefaultAutoDepthCeiling = 8;
// Nesting bound for peer JSON we parse (payloads, task envelopes, cards): deep enough for any real
// payload, shallow enough that re-serializing it cannot exhaust a stack.
constexpr std::size_t kMaxJsonDepth = 128;

// The generic failure a thrown handler error becomes (SPEC.md "Error boundary"), and the
// replacement for an oversize result (SPEC.md "Message size").
constexpr std::string_view kHandlerFailed = "handler failed";
constexpr std::string_view kResultTooLarge = "result too large";

}  // namespace nostr::agx
