#include "crypto/secp256k1.hpp"

#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "crypto/hash.hpp"

extern "C" {
void nostr_secp256k1_compute_tables(void);  // src/crypto/secp256k1_tables.c
// src/crypto/secp256k1_core.c: BIP-340 verification with a cached table of the key's multiples
std::size_t nostr_verify_table_size(void);
int nostr_verify_table_build(void* table, const secp256k1_xonly_pubkey* pubkey);
int nostr_schnorrsig_verify_with_table(const unsigned char* sig64, const unsigned char* msg, std::size_t msglen,
                                       const secp256k1_xonly_pubkey* pubkey, const void* table);
// the same for x-only ECDH with a cached table of the peer's multiples (constant time in the key)
std::size_t nostr_ecdh_table_size(void);
int nostr_ecdh_table_build(void* table, const secp256k1_pubkey* point);
int nostr_ecdh_xonly_with_table(unsigned char* x32, const unsigned char* scalar, const void* table);
// BIP-340 batch verification (public data, variable time)
int nostr_schnorrsig_verify_batch(unsigned char* ok, const unsigned char* const* sigs, const unsigned char* const* msgs,
                                  const std::size_t* key_index, std::size_t n, const secp256k1_xonly_pubkey* keys,
                                  const unsigned char* const* keys32, std::size_t n_keys);
}

namespace nostr::crypto {
namespace {

static_assert(sizeof(secp256k1_keypair) == 96, "keypair layout");

secp256k1_context* create_context() {
#ifndef __EMSCRIPTEN__
  // Natively all tables are built here, once, under the static initialisation of ctx() (thread-
  // safe). On wasm (single-threaded) each is built by its first use instead, which keeps ~20 ms
  // of baseline-tier table computation out of init() (src/crypto/secp256k1_tables.c).
  nostr_secp256k1_compute_tables();
#endif
  return secp256k1_context_create(SECP256K1_CONTEXT_NONE);
}

secp256k1_context* ctx() {
  static secp256k1_context* c = create_context();
  return c;
}

// NIP-44 wants the raw x coordinate, not libsecp256k1's default SHA-256 of the point.
int copy_x(unsigned char* out, const unsigned char* x32, const unsigned char*, void*) {
  std::memcpy(out, x32, 32);
  return 1;
}

}  // namespace

void seed_context(const bytes32& seed) {
  if (secp256k1_context_randomize(ctx(), seed.data()) != 1) return;  // cannot fail for a valid context
}

bool secret_key_valid(const bytes32& sk) { return secp256k1_ec_seckey_verify(ctx(), sk.data()) == 1; }

result<bytes32> xonly_public_key(const bytes32& sk) {
  auto kp = keypair::from_secret(sk);
  if (!kp) return kp.err();
  return kp->public_key();
}

bool xonly_public_key_valid(const bytes32& pub) {
  secp256k1_xonly_pubkey pk;
  return secp256k1_xonly_pubkey_parse(ctx(), &pk, pub.data()) == 1;
}

result<keypair> keypair::from_secret(const bytes32& sk) {
  keypair out;
  auto* kp = reinterpret_cast<secp256k1_keypair*>(out.kp_);
  if (secp256k1_keypair_create(ctx(), kp, sk.data()) != 1)
    return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
  secp256k1_xonly_pubkey xpk;
  // Neither call can fail for a keypair that keypair_create accepted.
  if (secp256k1_keypair_xonly_pub(ctx(), &xpk, nullptr, kp) != 1 ||
      secp256k1_xonly_pubkey_serialize(ctx(), out.pub_.data(), &xpk) != 1)
    return make_error(errc::internal, "x-only key extraction failed");
  return out;
}

namespace {

// Public halves of recently used key pairs. Entries hold no secret: a digest of the secret (salted,
// so it is useless elsewhere) and the 64-byte public part of libsecp256k1's keypair layout
// (secret[0,32) public[32,96), fixed in 0.2.0 and checked by the tests: signatures made from a
// remembered pair verify, and a digest mismatch falls back to a full derivation).
struct remembered_pair {
  bytes32 digest{};
  std::uint8_t public_part[64]{};
  bool used = false;
};
remembered_pair g_remembered[8];
unsigned g_remembered_next = 0;

bytes32 secret_digest(const bytes32& sk) {
  static constexpr char kSalt[] = "nostr-agents/keypair-memo/v1";
  sha256_stream h;
  h.update(reinterpret_cast<const std::uint8_t*>(kSalt), sizeof kSalt - 1);
  h.update(sk.data(), sk.size());
  return h.finish();
}

}  // namespace

result<keypair> keypair::from_secret_remembered(const bytes32& sk) {
  if (!secret_key_valid(sk)) return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
  bytes32 digest = secret_digest(sk);
  for (const auto& r : g_remembered) {
    if (r.used && r.digest == digest) {
      keypair out;
      std::memcpy(out.kp_, sk.data(), 32);
      std::memcpy(out.kp_ + 32, r.public_part, 64);
      secp256k1_xonly_pubkey xpk;
      if (secp256k1_keypair_xonly_pub(ctx(), &xpk, nullptr, reinterpret_cast<const secp256k1_keypair*>(out.kp_)) != 1 ||
          secp256k1_xonly_pubkey_serialize(ctx(), out.pub_.data(), &xpk) != 1)
        break;
      return out;
    }
  }
  auto fresh = from_secret(sk);
  if (!fresh) return fresh.err();
  remembered_pair& slot = g_remembered[g_remembered_next++ % 8];
  slot.digest = digest;
  std::memcpy(slot.public_part, fresh->kp_ + 32, 64);
  slot.used = true;
  return fresh;
}

keypair::~keypair() { secure_zero(kp_, sizeof kp_); }

bytes64 keypair::sign32(const bytes32& msg, const bytes32& aux) const {
  bytes64 sig{};
  (void)secp256k1_schnorrsig_sign32(ctx(), sig.data(), msg.data(), reinterpret_cast<const secp256k1_keypair*>(kp_),
                                    aux.data());
  return sig;
}

bytes64 keypair::sign(const std::uint8_t* msg, std::size_t len, const bytes32& aux) const {
  bytes64 sig{};
  secp256k1_schnorrsig_extraparams extra = SECP256K1_SCHNORRSIG_EXTRAPARAMS_INIT;
  extra.ndata = const_cast<std::uint8_t*>(aux.data());
  (void)secp256k1_schnorrsig_sign_custom(ctx(), sig.data(), msg, len,
                                         reinterpret_cast<const secp256k1_keypair*>(kp_), &extra);
  return sig;
}

namespace {

// Parsed x-only keys of recent authors. Parsing lifts x to a point (a field square root, about a
// sixth of a verification); a feed has few authors, so most verifications skip it. Public data
// only. 128 sets of two ways (the least recently used one is replaced), indexed by key bytes (keys
// are uniformly random x coordinates, so that is a hash): two authors that share a set no longer
// evict each other on every event, as they did in a direct-mapped table.
struct parsed_key {
  bytes32 key{};
  secp256k1_xonly_pubkey point{};
  bool used = false;
  std::uint8_t verifies = 0;  // uses since it was parsed (saturating): a second one builds a table
  std::uint8_t ecdhs = 0;
};
struct parsed_key_set {
  parsed_key way[2];
  unsigned recent = 0;  // the way used last
};
parsed_key_set g_parsed_keys[128];

parsed_key* parse_xonly_cached(const bytes32& pub) {
  parsed_key_set& set = g_parsed_keys[(pub[0] ^ pub[31]) & 127];
  for (unsigned w = 0; w < 2; ++w) {
    if (set.way[w].used && set.way[w].key == pub) {
      set.recent = w;
      return &set.way[w];
    }
  }
  unsigned victim = set.recent ^ 1u;
  parsed_key& slot = set.way[victim];
  slot.verifies = slot.ecdhs = 0;
  if (secp256k1_xonly_pubkey_parse(ctx(), &slot.point, pub.data()) != 1) {
    slot.used = false;
    return nullptr;
  }
  slot.key = pub;
  slot.used = true;
  set.recent = victim;
  return &slot;
}

// True the second time (and after) a cached key is used this way.
bool used_before(std::uint8_t& count) {
  const bool before = count > 0;
  if (count < 255) ++count;
  return before;
}

// Tables of recurring keys (secp256k1_core.c): for verification, 32 odd multiples of the key
// and of its lambda multiple (~5 KB each on wasm); for ECDH, 16 of each (~3 KB). Built the second
// time a key is used that way while it is in the parsed-key cache, so a key used once (a gift
// wrap's one-time key) never pays for one. A few of each, replaced round-robin. Public data only.
struct key_table {
  bytes32 owner{};
  void* table = nullptr;  // allocated once, reused
  bool valid = false;
};
template <unsigned N>
struct key_tables {
  key_table slot[N];
  unsigned next = 0;

  template <typename Build>
  const void* find_or_build(const bytes32& pub, std::size_t size, Build build) {
    for (auto& t : slot)
      if (t.valid && t.owner == pub) return t.table;
    key_table& t = slot[next++ % N];
    if (t.table == nullptr) t.table = std::malloc(size);
    t.valid = false;
    if (t.table == nullptr || build(t.table) != 1) return nullptr;
    t.owner = pub;
    t.valid = true;
    return t.table;
  }
};
key_tables<32> g_verify_tables;
key_tables<16> g_ecdh_tables;

}  // namespace

bool schnorr_verify(const bytes64& sig, const std::uint8_t* msg, std::size_t len, const bytes32& pub) {
  parsed_key* entry = parse_xonly_cached(pub);
  if (entry == nullptr) return false;
  const secp256k1_xonly_pubkey* pk = &entry->point;
  if (used_before(entry->verifies)) {
    const void* table = g_verify_tables.find_or_build(pub, nostr_verify_table_size(),
                                                      [pk](void* t) { return nostr_verify_table_build(t, pk); });
    if (table != nullptr) return nostr_schnorrsig_verify_with_table(sig.data(), msg, len, pk, table) == 1;
  }
  return secp256k1_schnorrsig_verify(ctx(), sig.data(), msg, len, pk) == 1;
}

// The peer point comes from the parsed-key cache above: the even-y point of x, which is what
// parsing 0x02 || x as a compressed key gives, and libsecp256k1 0.2.0 stores x-only keys in the
// secp256k1_pubkey layout (extrakeys' xonly_pubkey_save is pubkey_save on the same 64 bytes).
// A repeated peer (a gift wrap's recipient twice per wrap, a conversation partner) then costs no
// square root. x is public; the multiplication by sk stays the library's constant-time one.
static_assert(sizeof(secp256k1_xonly_pubkey) == sizeof(secp256k1_pubkey), "x-only and full keys share a layout");

result<bytes32> ecdh_xonly(const bytes32& sk, const bytes32& pub) {
  parsed_key* entry = parse_xonly_cached(pub);
  if (entry == nullptr) return make_error(errc::invalid_public_key, "public key is not an x coordinate on the curve");
  const auto* point = reinterpret_cast<const secp256k1_pubkey*>(&entry->point);
  bytes32 x{};
  if (used_before(entry->ecdhs)) {
    const void* table = g_ecdh_tables.find_or_build(pub, nostr_ecdh_table_size(),
                                                    [point](void* t) { return nostr_ecdh_table_build(t, point); });
    if (table != nullptr) {
      if (nostr_ecdh_xonly_with_table(x.data(), sk.data(), table) != 1)
        return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
      return x;
    }
  }
  if (secp256k1_ecdh(ctx(), x.data(), point, sk.data(), copy_x, nullptr) != 1)
    return make_error(errc::invalid_secret_key, "secret key is zero or not below the curve order");
  return x;
}

namespace {

// Signatures per multi-multiplication. Larger chunks amortize more (Pippenger's cost per point
// falls with the number of points), but a failed chunk is checked again one by one, and its
// scratch memory grows with it (about 0.3 KB per point on wasm, where memory never shrinks).
constexpr std::size_t kBatchChunk = 512;
// Below this many signatures single checks are as fast (the cached key tables).
constexpr std::size_t kBatchMin = 3;

// One chunk: keys deduplicated (a key's signatures share its point in the sum) and parsed
// through the parsed-key cache, then the batch, then single checks if it failed.
void verify_chunk(const schnorr_check* checks, std::size_t n, bool* ok) {
  std::vector<const unsigned char*> sigs(n), msgs(n), keys32;
  std::vector<std::size_t> key_index(n);
  std::vector<secp256k1_xonly_pubkey> keys;
  std::vector<std::size_t> members;  // indexes into checks of the signatures that go in the batch
  // open addressing over the key bytes (uniformly random x coordinates): slot -> key number + 1
  std::size_t cap = 16;
  while (cap < 2 * n) cap <<= 1;
  std::vector<std::uint32_t> slots(cap, 0);
  members.reserve(n);
  keys.reserve(n);
  keys32.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bytes32& pub = checks[i].pub;
    std::uint32_t h;
    std::memcpy(&h, pub.data(), sizeof h);
    std::size_t s = h & (cap - 1);
    while (slots[s] != 0 && *reinterpret_cast<const bytes32*>(keys32[slots[s] - 1]) != pub) s = (s + 1) & (cap - 1);
    if (slots[s] == 0) {
      parsed_key* entry = parse_xonly_cached(pub);
      if (entry == nullptr) {  // not a point: fails alone as well; later uses look it up again
        ok[i] = false;
        continue;
      }
      keys.push_back(entry->point);  // a copy: the cache may reuse the entry within this chunk
      keys32.push_back(pub.data());
      slots[s] = static_cast<std::uint32_t>(keys.size());
    }
    const std::size_t m = members.size();
    sigs[m] = checks[i].sig.data();
    msgs[m] = checks[i].msg.data();
    key_index[m] = slots[s] - 1;
    members.push_back(i);
  }
  const std::size_t m = members.size();
  std::vector<unsigned char> pre(m, 0);
  const bool all = m == 0 || nostr_schnorrsig_verify_batch(pre.data(), sigs.data(), msgs.data(), key_index.data(), m,
                                                          keys.data(), keys32.data(), keys.size()) == 1;
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t i = members[j];
    if (pre[j] == 0) ok[i] = false;
    else ok[i] = all || schnorr_verify32(checks[i].sig, checks[i].msg, checks[i].pub);
  }
}

}  // namespace

void schnorr_verify32_batch(const schnorr_check* checks, std::size_t n, bool* ok) {
  for (std::size_t start = 0; start < n; start += kBatchChunk) {
    std::size_t len = n - start < kBatchChunk ? n - start : kBatchChunk;
    if (len < kBatchMin) {
      for (std::size_t i = start; i < start + len; ++i) ok[i] = schnorr_verify32(checks[i].sig, checks[i].msg, checks[i].pub);
    } else {
      verify_chunk(checks + start, len, ok + start);
    }
  }
}

}  // namespace nostr::crypto
