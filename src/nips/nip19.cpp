#include "nips/nip19.hpp"

#include <cstring>
#include <type_traits>

#include "nips/bech32.hpp"
#include "util/utf8.hpp"

namespace nostr::nip19 {
namespace {

// NIP-19 "Shareable identifiers with extra metadata": TLV type numbers.
constexpr std::uint8_t kTlvSpecial = 0;  // pubkey (nprofile), id (nevent), identifier (naddr)
constexpr std::uint8_t kTlvRelay = 1;
constexpr std::uint8_t kTlvAuthor = 2;
constexpr std::uint8_t kTlvKind = 3;

bool valid_utf8(std::string_view s) { return utf8::valid(s); }

// Wipes a decoded payload on every exit path: it may hold a secret key.
struct wipe_on_exit {
  bytes& b;
  ~wipe_on_exit() { secure_zero(b); }
};

// ---- encoding

result<void> put_tlv(bytes& out, std::uint8_t type, const std::uint8_t* v, std::size_t n, const char* what) {
  if (n > kMaxTlvValue) return make_error(errc::tlv_invalid, std::string(what) + " is longer than 255 bytes");
  out.push_back(type);
  out.push_back(static_cast<std::uint8_t>(n));
  out.insert(out.end(), v, v + n);
  return {};
}

result<void> put_text(bytes& out, std::uint8_t type, std::string_view text, const char* what) {
  if (!valid_utf8(text)) return make_error(errc::invalid_utf8, std::string(what) + " is not valid UTF-8");
  return put_tlv(out, type, as_bytes(text), text.size(), what);
}

result<void> put_relays(bytes& out, const std::vector<std::string>& relays) {
  for (const auto& r : relays) {
    NOSTR_TRY(put_text(out, kTlvRelay, r, "relay"));
    // Stop early on absurd relay lists: bech32::encode would refuse the result anyway.
    if (out.size() > bech32::kMaxLength)
      return make_error(errc::bech32_length, "encoding would exceed " + std::to_string(bech32::kMaxLength) + " characters");
  }
  return {};
}

void put_kind(bytes& out, std::uint32_t kind) {
  const std::uint8_t be[4] = {static_cast<std::uint8_t>(kind >> 24), static_cast<std::uint8_t>(kind >> 16),
                              static_cast<std::uint8_t>(kind >> 8), static_cast<std::uint8_t>(kind)};
  (void)put_tlv(out, kTlvKind, be, 4, "kind");  // 4 <= 255: cannot fail
}

std::string encode32(const char* hrp, const bytes32& b) {
  auto r = bech32::encode(hrp, b.data(), b.size());
  return r ? std::move(*r) : std::string();  // a known prefix and 32 bytes always encode
}

// ---- decoding

struct tlv_records {
  std::optional<std::string_view> first[4];  // first record of types 0, 2, 3 (1 is a list)
  std::vector<std::string_view> relays;
};

result<tlv_records> parse_tlv(const bytes& data) {
  tlv_records r;
  std::size_t i = 0;
  while (i < data.size()) {
    if (data.size() - i < 2) return make_error(errc::tlv_invalid, "truncated TLV header");
    const std::uint8_t type = data[i], len = data[i + 1];
    i += 2;
    if (data.size() - i < len)
      return make_error(errc::tlv_invalid, "TLV " + std::to_string(type) + " value is truncated");
    std::string_view v = as_chars(data.data() + i, len);
    i += len;
    if (type == kTlvRelay) {
      if (!valid_utf8(v)) return make_error(errc::tlv_invalid, "relay is not valid UTF-8");
      r.relays.push_back(v);
    } else if (type < 4 && !r.first[type]) {
      r.first[type] = v;
    }  // later duplicates of single-valued types and unknown types are ignored
  }
  return r;
}

std::vector<std::string> to_strings(const std::vector<std::string_view>& v) {
  return std::vector<std::string>(v.begin(), v.end());
}

result<bytes32> take32(const std::optional<std::string_view>& v, std::uint8_t type, bool required) {
  bytes32 out{};
  if (!v) {
    if (required) return make_error(errc::tlv_invalid, "missing TLV " + std::to_string(type));
    return out;
  }
  if (v->size() != 32) return make_error(errc::tlv_invalid, "TLV " + std::to_string(type) + " must be 32 bytes");
  std::memcpy(out.data(), v->data(), 32);
  return out;
}

result<std::uint32_t> take_kind(std::string_view v) {
  if (v.size() != 4) return make_error(errc::tlv_invalid, "TLV 3 (kind) must be 4 bytes");
  const std::uint8_t* p = as_bytes(v);
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

result<entity> decode_tlv(const std::string& hrp, const bytes& data) {
  auto parsed = parse_tlv(data);
  if (!parsed) return parsed.err();
  const tlv_records& t = *parsed;
  if (hrp == "nprofile") {
    auto pub = take32(t.first[kTlvSpecial], kTlvSpecial, true);
    if (!pub) return pub.err();
    return entity{nprofile{*pub, to_strings(t.relays)}};
  }
  if (hrp == "nevent") {
    nevent e;
    auto id = take32(t.first[kTlvSpecial], kTlvSpecial, true);
    if (!id) return id.err();
    e.id = *id;
    if (t.first[kTlvAuthor]) {
      auto author = take32(t.first[kTlvAuthor], kTlvAuthor, true);
      if (!author) return author.err();
      e.author = *author;
    }
    if (t.first[kTlvKind]) {
      auto kind = take_kind(*t.first[kTlvKind]);
      if (!kind) return kind.err();
      e.kind = *kind;
    }
    e.relays = to_strings(t.relays);
    return entity{std::move(e)};
  }
  // naddr: identifier, author and kind are all required.
  naddr a;
  if (!t.first[kTlvSpecial]) return make_error(errc::tlv_invalid, "missing TLV 0 (identifier)");
  if (!valid_utf8(*t.first[kTlvSpecial])) return make_error(errc::tlv_invalid, "identifier is not valid UTF-8");
  a.identifier = std::string(*t.first[kTlvSpecial]);
  auto pub = take32(t.first[kTlvAuthor], kTlvAuthor, true);
  if (!pub) return pub.err();
  a.pubkey = *pub;
  if (!t.first[kTlvKind]) return make_error(errc::tlv_invalid, "missing TLV 3 (kind)");
  auto kind = take_kind(*t.first[kTlvKind]);
  if (!kind) return kind.err();
  a.kind = *kind;
  a.relays = to_strings(t.relays);
  return entity{std::move(a)};
}

template <class T>
const char* prefix_for();
template <> const char* prefix_for<npub>() { return "npub"; }
template <> const char* prefix_for<nsec>() { return "nsec"; }
template <> const char* prefix_for<note>() { return "note"; }
template <> const char* prefix_for<nprofile>() { return "nprofile"; }
template <> const char* prefix_for<nevent>() { return "nevent"; }
template <> const char* prefix_for<naddr>() { return "naddr"; }

// decode() narrowed to one alternative: another valid entity is a prefix error.
template <class T>
result<T> decode_as(std::string_view s) {
  auto e = decode(s);
  if (!e) return e.err();
  if (T* v = std::get_if<T>(&*e)) return std::move(*v);
  return make_error(errc::bech32_prefix, std::string("expected ") + prefix_for<T>() + ", got " + prefix_of(*e));
}

}  // namespace

const char* prefix_of(const entity& e) {
  return std::visit([](const auto& v) { return prefix_for<std::decay_t<decltype(v)>>(); }, e);
}

std::string encode_npub(const bytes32& pubkey) { return encode32("npub", pubkey); }
std::string encode_nsec(const bytes32& secret_key) { return encode32("nsec", secret_key); }
std::string encode_note(const bytes32& id) { return encode32("note", id); }

result<std::string> encode_nprofile(const nprofile& p) {
  bytes out;
  (void)put_tlv(out, kTlvSpecial, p.pubkey.data(), 32, "pubkey");
  NOSTR_TRY(put_relays(out, p.relays));
  return bech32::encode("nprofile", out);
}

result<std::string> encode_nevent(const nevent& e) {
  bytes out;
  (void)put_tlv(out, kTlvSpecial, e.id.data(), 32, "id");
  NOSTR_TRY(put_relays(out, e.relays));
  if (e.author) (void)put_tlv(out, kTlvAuthor, e.author->data(), 32, "author");
  if (e.kind) put_kind(out, *e.kind);
  return bech32::encode("nevent", out);
}

result<std::string> encode_naddr(const naddr& a) {
  bytes out;
  NOSTR_TRY(put_text(out, kTlvSpecial, a.identifier, "identifier"));
  NOSTR_TRY(put_relays(out, a.relays));
  (void)put_tlv(out, kTlvAuthor, a.pubkey.data(), 32, "pubkey");
  put_kind(out, a.kind);
  return bech32::encode("naddr", out);
}

result<std::string> encode(const entity& e) {
  struct visitor {
    result<std::string> operator()(const npub& v) const { return encode_npub(v.pubkey); }
    result<std::string> operator()(const nsec& v) const { return encode_nsec(v.secret_key.b); }
    result<std::string> operator()(const note& v) const { return encode_note(v.id); }
    result<std::string> operator()(const nprofile& v) const { return encode_nprofile(v); }
    result<std::string> operator()(const nevent& v) const { return encode_nevent(v); }
    result<std::string> operator()(const naddr& v) const { return encode_naddr(v); }
  };
  return std::visit(visitor{}, e);
}

result<entity> decode(std::string_view s) {
  auto d = bech32::decode(s);
  if (!d) return d.err();
  wipe_on_exit wipe{d->data};
  const std::string& hrp = d->hrp;
  const bytes& data = d->data;

  const bool bare = hrp == "npub" || hrp == "nsec" || hrp == "note";
  if (bare) {
    if (data.size() != 32)
      return make_error(errc::bech32_length, hrp + " payload must be 32 bytes, got " + std::to_string(data.size()));
    bytes32 b{};
    std::memcpy(b.data(), data.data(), 32);
    if (hrp == "npub") return entity{npub{b}};
    if (hrp == "note") return entity{note{b}};
    entity e{nsec{secret32(b)}};
    secure_zero(b);
    return e;
  }
  if (hrp == "nprofile" || hrp == "nevent" || hrp == "naddr") return decode_tlv(hrp, data);
  // Don't echo the prefix: it can be up to 5000 characters of anything.
  return make_error(errc::bech32_prefix, "unknown NIP-19 prefix");
}

result<bytes32> decode_npub(std::string_view s) {
  auto v = decode_as<npub>(s);
  if (!v) return v.err();
  return v->pubkey;
}

result<secret32> decode_nsec(std::string_view s) {
  auto v = decode_as<nsec>(s);
  if (!v) return v.err();
  return v->secret_key;
}

result<bytes32> decode_note(std::string_view s) {
  auto v = decode_as<note>(s);
  if (!v) return v.err();
  return v->id;
}

result<nprofile> decode_nprofile(std::string_view s) { return decode_as<nprofile>(s); }
result<nevent> decode_nevent(std::string_view s) { return decode_as<nevent>(s); }
result<naddr> decode_naddr(std::string_view s) { return decode_as<naddr>(s); }

}  // namespace nostr::nip19
