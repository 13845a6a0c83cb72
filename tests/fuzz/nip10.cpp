// NIP-10 tags from the network (any note): the thread it reads names only lowercase hex ids and
// keys, every mention and quote comes from a tag, and root and reply are set together or not at all.
#include "event/event_reader.hpp"
#include "nips/nip10.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto tags = read_tag_list(fuzz::text(data, size));
  if (!tags) return 0;
  auto t = nip10::parse(*tags);
  FUZZ_CHECK(t.root.has_value() == t.reply.has_value());
  if (t.root) FUZZ_CHECK(hex::is_lower_hex(t.root->id, 32) && hex::is_lower_hex(t.reply->id, 32));
  FUZZ_CHECK(t.mentions.size() + t.quotes.size() + t.profiles.size() <= tags->size());
  for (const auto& m : t.mentions) FUZZ_CHECK(hex::is_lower_hex(m.id, 32));
  for (const auto& p : t.profiles) FUZZ_CHECK(hex::is_lower_hex(p.pubkey, 32));
  for (const auto& q : t.quotes) FUZZ_CHECK(q.event.has_value() != q.address.has_value());
  return 0;
}
