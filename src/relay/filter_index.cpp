#include "relay/filter_index.hpp"

#include <algorithm>

namespace nostr::relay {
namespace {

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

template <class T>
bool has(const std::vector<T>& v, const T& x) {
  return std::binary_search(v.begin(), v.end(), x);
}

void drop(std::vector<std::uint32_t>& v, std::uint32_t fid) {
  auto it = std::find(v.begin(), v.end(), fid);
  if (it == v.end()) return;
  *it = v.back();
  v.pop_back();
}

template <class Map, class K>
void drop_from(Map& m, const K& k, std::uint32_t fid) {
  auto it = m.find(k);
  if (it == m.end()) return;
  drop(it->second, fid);
  if (it->second.empty()) m.erase(it);
}

std::string tag_key(std::string_view letter, std::string_view value) {
  std::string k;
  k.reserve(letter.size() + 1 + value.size());
  k.append(letter);
  k.push_back('\0');
  k.append(value);
  return k;
}

}  // namespace

filter_index::compiled filter_index::compile(std::uint32_t key, const filter& f) {
  compiled c;
  c.key = key;
  if (f.ids) {
    c.has_ids = true;
    c.ids = sorted(*f.ids);
    c.never |= c.ids.empty();
  }
  if (f.authors) {
    c.has_authors = true;
    c.authors = sorted(*f.authors);
    c.never |= c.authors.empty();
  }
  if (f.kinds) {
    c.has_kinds = true;
    c.kinds = sorted(*f.kinds);
    c.never |= c.kinds.empty();
  }
  for (const auto& [letter, values] : f.tags) {
    c.tags.emplace_back(letter, sorted(values));
    c.never |= values.empty();
  }
  if (f.since) c.has_since = true, c.since = *f.since;
  if (f.until) c.has_until = true, c.until = *f.until;
  if (c.has_since && c.has_until && c.since > c.until) c.never = true;
  return c;
}

bool filter_index::full_match(const compiled& c, const event& e) {
  if (c.never) return false;
  if (c.has_ids && !has(c.ids, e.id)) return false;
  if (c.has_authors && !has(c.authors, e.pubkey)) return false;
  if (c.has_kinds && !has(c.kinds, e.kind)) return false;
  if (c.has_since && e.created_at < c.since) return false;
  if (c.has_until && e.created_at > c.until) return false;
  for (const auto& cond : c.tags) {
    bool hit = std::any_of(e.tags.begin(), e.tags.end(),
                           [&](const tag& t) { return t.size() >= 2 && t[0] == cond.first && has(cond.second, t[1]); });
    if (!hit) return false;
  }
  return true;
}

void filter_index::link(std::uint32_t fid) {
  compiled& c = slots_[fid];
  if (c.never) {
    c.where = 0;
  } else if (c.has_ids) {
    c.where = 1;
    for (const auto& v : c.ids) by_id_[v].push_back(fid);
  } else if (c.has_authors) {
    c.where = 2;
    for (const auto& v : c.authors) by_author_[v].push_back(fid);
  } else if (!c.tags.empty()) {
    c.where = 3;
    c.tag_letter = c.tags.front().first;
    for (const auto& v : c.tags.front().second) by_tag_[tag_key(c.tag_letter, v)].push_back(fid);
  } else if (c.has_kinds) {
    c.where = 4;
    for (auto k : c.kinds) by_kind_[k].push_back(fid);
  } else {
    c.where = 5;
    scan_.push_back(fid);
  }
}

void filter_index::unlink(std::uint32_t fid) {
  compiled& c = slots_[fid];
  switch (c.where) {
    case 1: for (const auto& v : c.ids) drop_from(by_id_, v, fid); break;
    case 2: for (const auto& v : c.authors) drop_from(by_author_, v, fid); break;
    case 3: for (const auto& v : c.tags.front().second) drop_from(by_tag_, tag_key(c.tag_letter, v), fid); break;
    case 4: for (auto k : c.kinds) drop_from(by_kind_, k, fid); break;
    case 5: drop(scan_, fid); break;
    default: break;
  }
  c = compiled{};
}

void filter_index::add(std::uint32_t key, const std::vector<filter>& filters) {
  remove(key);
  auto& mine = subs_[key];
  mine.reserve(filters.size());
  for (const auto& f : filters) {
    std::uint32_t fid;
    if (!free_.empty()) {
      fid = free_.back();
      free_.pop_back();
    } else {
      fid = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
      stamp_.push_back(0);
    }
    slots_[fid] = compile(key, f);
    link(fid);
    mine.push_back(fid);
    ++live_;
  }
}

void filter_index::remove(std::uint32_t key) {
  auto it = subs_.find(key);
  if (it == subs_.end()) return;
  for (auto fid : it->second) {
    unlink(fid);
    free_.push_back(fid);
    --live_;
  }
  subs_.erase(it);
}

void filter_index::consider(std::uint32_t fid, const event& e, std::vector<std::uint32_t>& out) {
  if (stamp_[fid] == round_) return;
  stamp_[fid] = round_;
  if (full_match(slots_[fid], e)) out.push_back(slots_[fid].key);
}

std::vector<std::uint32_t> filter_index::match(const event& e) {
  ++round_;
  std::vector<std::uint32_t> out;
  auto scan = [&](const std::vector<std::uint32_t>* list) {
    if (list)
      for (auto fid : *list) consider(fid, e, out);
  };
  auto find = [](auto& m, const auto& k) -> const std::vector<std::uint32_t>* {
    auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
  };
  scan(find(by_id_, e.id));
  scan(find(by_author_, e.pubkey));
  scan(find(by_kind_, e.kind));
  if (!by_tag_.empty())
    for (const auto& t : e.tags)
      if (t.size() >= 2) scan(find(by_tag_, tag_key(t[0], t[1])));
  scan(&scan_);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool filter_index::matches(std::uint32_t key, std::size_t i, const event& e) const {
  auto it = subs_.find(key);
  if (it == subs_.end() || i >= it->second.size()) return false;
  return full_match(slots_[it->second[i]], e);
}

}  // namespace nostr::relay
