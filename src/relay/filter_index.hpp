// A relay's live subscriptions, sans-IO (the dev relay's; issue 16 item 3): each REQ's filters are
// parsed once, into sorted lists, and indexed by one of their conditions, so a published event is
// checked only against the filters that can match it. A client holding megabytes of filters that
// never match costs the relay memory (which the relay caps), not time per event.
//
// Index: a filter goes under its ids, else its authors, else the values of one tag letter, else
// its kinds; a filter with none of these (since/until only, or nothing) is checked for every
// event. A present-but-empty list matches nothing (as nostr-tools and filter.hpp): never indexed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "event/event.hpp"
#include "event/filter.hpp"
#include "util/result.hpp"

namespace nostr::relay {

class filter_index {
 public:
  // Registers subscription `key` (the caller's handle for one connection's subscription id) with
  // its filters, replacing what the key held.
  void add(std::uint32_t key, const std::vector<filter>& filters);
  void remove(std::uint32_t key);

  // The keys with a filter matching `e`, each once, ascending.
  std::vector<std::uint32_t> match(const event& e);
  // Whether filter `i` of `key` matches `e` (false for an unknown key or index).
  bool matches(std::uint32_t key, std::size_t i, const event& e) const;

  std::size_t subscriptions() const { return subs_.size(); }
  std::size_t filters() const { return live_; }

 private:
  struct compiled {
    std::uint32_t key = 0;
    bool never = false;  // a present-but-empty list
    bool has_ids = false, has_authors = false, has_kinds = false;
    std::vector<std::string> ids, authors;  // sorted
    std::vector<std::int64_t> kinds;        // sorted
    std::vector<std::pair<std::string, std::vector<std::string>>> tags;  // letter -> sorted values
    bool has_since = false, has_until = false;
    std::int64_t since = 0, until = 0;
    // Where it is indexed (to unlink it): 0 none (never), 1 ids, 2 authors, 3 tag, 4 kinds, 5 scan.
    int where = 0;
    std::string tag_letter;
  };
  static compiled compile(std::uint32_t key, const filter& f);
  static bool full_match(const compiled& c, const event& e);
  void link(std::uint32_t fid);
  void unlink(std::uint32_t fid);
  void consider(std::uint32_t fid, const event& e, std::vector<std::uint32_t>& out);

  std::vector<compiled> slots_;        // by filter id; free ones listed in free_
  std::vector<std::uint32_t> free_;
  std::vector<std::uint64_t> stamp_;   // per filter id: the match() round that last saw it
  std::uint64_t round_ = 0;
  std::size_t live_ = 0;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> subs_;  // key -> its filter ids
  std::unordered_map<std::string, std::vector<std::uint32_t>> by_id_, by_author_, by_tag_;  // tag: letter + '\0' + value
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> by_kind_;
  std::vector<std::uint32_t> scan_;
};

}  // namespace nostr::relay
