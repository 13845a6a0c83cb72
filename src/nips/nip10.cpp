#include "nips/nip10.hpp"

#include <algorithm>
#include <string_view>

#include "util/hex.hpp"

namespace nostr::nip10 {
namespace {

bool hex32(const std::string& s) { return hex::is_lower_hex(s, 32); }

std::vector<std::string> hint(const tag& t, std::size_t at) {
  if (t.size() > at && !t[at].empty()) return {t[at]};
  return {};
}

// "<kind>:<pubkey>:<d>" with a decimal kind from 0 to 65535 (NIP-01's `a` tag value).
std::optional<address_pointer> parse_address(const std::string& s) {
  auto c1 = s.find(':');
  if (c1 == std::string::npos || c1 == 0 || c1 > 5) return std::nullopt;
  std::uint32_t kind = 0;
  for (std::size_t i = 0; i < c1; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    kind = kind * 10 + static_cast<std::uint32_t>(s[i] - '0');
  }
  if (kind > 65535 || s.size() < c1 + 1 + 64 + 1 || s[c1 + 1 + 64] != ':') return std::nullopt;
  address_pointer a;
  a.kind = kind;
  a.pubkey = s.substr(c1 + 1, 64);
  if (!hex32(a.pubkey)) return std::nullopt;
  a.identifier = s.substr(c1 + 1 + 64 + 1);
  return a;
}

}  // namespace

thread parse(const tag_list& tags) {
  // nostr-tools' order, so relay hints fold the same way: tags are read last to first, every
  // reference is pushed as it is read, and the lists are turned back into tag order at the end.
  std::vector<event_pointer> refs;  // every `e` reference, by index
  std::vector<std::size_t> mentions;
  std::optional<std::size_t> root, reply, maybe_parent, maybe_root;
  thread out;
  for (std::size_t k = tags.size(); k-- > 0;) {
    const tag& t = tags[k];
    if (t.size() < 2) continue;
    if (t[0] == "e" && hex32(t[1])) {
      event_pointer p{t[1], hint(t, 2), std::nullopt};
      if (t.size() > 4 && hex32(t[4])) p.author = t[4];
      refs.push_back(std::move(p));
      std::size_t i = refs.size() - 1;
      std::string_view marker = t.size() > 3 ? std::string_view(t[3]) : std::string_view();
      if (marker == "root") {
        root = i;
      } else if (marker == "reply") {
        reply = i;
      } else if (marker == "mention") {
        mentions.push_back(i);
      } else {  // positional: the last read is the parent, the first one read last the root
        (maybe_parent ? maybe_root : maybe_parent) = i;
        mentions.push_back(i);
      }
    } else if (t[0] == "q") {
      quote q;
      if (hex32(t[1])) {
        q.event = event_pointer{t[1], hint(t, 2), std::nullopt};
        if (t.size() > 3 && hex32(t[3])) q.event->author = t[3];
      } else if (auto a = parse_address(t[1])) {
        q.address = std::move(*a);
        q.address->relays = hint(t, 2);
      } else {
        continue;
      }
      out.quotes.push_back(std::move(q));
    } else if (t[0] == "p" && hex32(t[1])) {
      out.profiles.push_back({t[1], hint(t, 2)});
    }
  }
  if (!root) root = maybe_root ? maybe_root : maybe_parent ? maybe_parent : reply;
  if (!reply) reply = maybe_parent ? maybe_parent : root;

  // An author's p-tag relays join the reference's, and the profile takes the merged list.
  auto fold = [&](event_pointer& ref) {
    if (!ref.author) return;
    auto p = std::find_if(out.profiles.begin(), out.profiles.end(),
                          [&](const profile_pointer& x) { return x.pubkey == *ref.author; });
    if (p == out.profiles.end()) return;
    for (const auto& url : p->relays)
      if (std::find(ref.relays.begin(), ref.relays.end(), url) == ref.relays.end()) ref.relays.push_back(url);
    p->relays = ref.relays;
  };
  for (auto ref : {reply, root}) {
    if (!ref) continue;
    auto m = std::find(mentions.begin(), mentions.end(), *ref);
    if (m != mentions.end()) mentions.erase(m);
    fold(refs[*ref]);
  }
  for (std::size_t i : mentions) fold(refs[i]);

  if (root) out.root = refs[*root];
  if (reply) out.reply = refs[*reply];
  for (auto it = mentions.rbegin(); it != mentions.rend(); ++it) out.mentions.push_back(refs[*it]);
  std::reverse(out.quotes.begin(), out.quotes.end());
  std::reverse(out.profiles.begin(), out.profiles.end());
  return out;
}

}  // namespace nostr::nip10
