// The dev relay's live subscriptions (js/relay-server): each REQ's filters parsed once into the
// core's filter_index (src/relay/filter_index), and each published event parsed once and matched
// against the filters that can match it. Keys are the relay's own integer handles of one
// connection's subscription. Only the server uses this: the lite and demo modules leave it out.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "event/event_json.hpp"
#include "event/event_reader.hpp"
#include "event/filter.hpp"
#include "relay/filter_index.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

class relay_filter_index {
 public:
  // 0, or an errc (INVALID_FILTER) with nothing registered. filters_json: a JSON array of filters.
  int add(double key, const std::string& filters_json) {
    dom::value j = parse_json(filters_json);
    if (j.is_discarded() || !j.is_array() || j.size() == 0)
      return fail_code(make_error(errc::invalid_filter, "filters must be a non-empty JSON array"));
    std::vector<filter> fs;
    fs.reserve(j.size());
    for (const auto& f : j) {
      auto parsed = filter_from_json(f);
      if (!parsed) return fail_code(parsed.err());
      fs.push_back(std::move(*parsed));
    }
    index_.add(static_cast<std::uint32_t>(key), fs);
    return 0;
  }
  void remove(double key) { index_.remove(static_cast<std::uint32_t>(key)); }
  // The keys whose filters match the event (JSON text), ascending; undefined when it does not parse.
  val match(const std::string& event_json) {
    auto e = read_event(event_json);
    if (!e) return fail(e.err());
    auto keys = index_.match(*e);
    val out = val::array();
    for (std::size_t i = 0; i < keys.size(); ++i) out.set(i, static_cast<double>(keys[i]));
    return out;
  }
  // 1 or 0: filter i of key matches the event; -errc when it does not parse.
  int matches(double key, double i, const std::string& event_json) {
    auto e = read_event(event_json);
    if (!e) return -fail_code(e.err());
    return index_.matches(static_cast<std::uint32_t>(key), static_cast<std::size_t>(i), *e) ? 1 : 0;
  }
  double filters() const { return static_cast<double>(index_.filters()); }

 private:
  relay::filter_index index_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(relay_server) {
  emscripten::class_<relay_filter_index>("RelayFilterIndex")
      .constructor<>()
      .function("add", &relay_filter_index::add)
      .function("remove", &relay_filter_index::remove)
      .function("match", &relay_filter_index::match)
      .function("matches", &relay_filter_index::matches)
      .function("filters", &relay_filter_index::filters);
}

}  // namespace nostr::bindings
