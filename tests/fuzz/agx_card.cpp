// AGX Agent Cards (kind 11337) from the network. Mode 0: the input is a card event's JSON
// (parse_event -> parse_card). Mode 1: the input is a card's content, signed with a fixed key so
// the content checks are reached; an accepted card, written again with card_content_json when our
// own (stricter) outbound caps allow, parses to the same fields.
#include "event/event.hpp"
#include "protocols/agx/card.hpp"
#include "fuzz_support.hpp"

using namespace nostr;
using namespace nostr::agx;

static result<peer_card> signed_card(std::string content) {
  event_template t;
  t.kind = 11337;
  t.created_at = 1700000000;
  t.content = std::move(content);
  return parse_card(finalize(t, fuzz::sender_keypair(), fuzz::fixed_bytes(0x07)));
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string_view in = fuzz::text(data + 1, size - 1);
  if ((data[0] & 1) == 0) {
    auto e = parse_event(in);
    if (!e.ok()) return 0;
    auto c = parse_card(*e);
    if (c.ok()) FUZZ_CHECK(c->pubkey == e->pubkey && e->kind == 11337);
    return 0;
  }
  auto c = signed_card(std::string(in));
  if (!c.ok()) return 0;
  FUZZ_CHECK(c->pubkey == fuzz::hex32(fuzz::sender_keypair().public_key()));
  FUZZ_CHECK(c->capabilities.size() <= kMaxCardCapabilities && c->relays.size() <= kMaxCardRelays);
  if (c->display_name) FUZZ_CHECK(c->org.has_value());

  card_fields f;
  f.org = c->org.value_or("");
  f.pubkey_hex = c->pubkey;
  f.nip05 = c->nip05;
  f.relays = c->relays;
  f.capabilities = c->capabilities;
  f.payload_types = c->payload_types;
  auto content = card_content_json(f);
  if (!content.ok()) return 0;
  auto again = signed_card(*content);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->nip05 == c->nip05 && again->relays == c->relays && again->capabilities == c->capabilities &&
             again->payload_types == c->payload_types);
  return 0;
}
