// NIP-44 v2 payloads from the network, decrypted with a fixed conversation key. Mode 0: the input
// is a payload (base64 checks, decoding, version, MAC, padding). Mode 1: the input is a plaintext,
// encrypted with the fixed key and a nonce from the input, then decrypted back to itself. Mode 2:
// the input is the padded block itself (length prefix, plaintext, padding), encrypted and MACed
// with the fixed key so that the checks after the MAC see fuzzer-chosen bytes; an accepted block
// yields exactly the plaintext its prefix names. In every mode the allocation-free forms
// (decode_payload + open) agree with decrypt.
#include <cstring>
#include <vector>
#include "crypto/chacha20.hpp"
#include "crypto/hash.hpp"
#include "nips/nip44.hpp"
#include "util/base64.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

static const bytes32& conversation_key() {
  static const bytes32 k = nip44::get_conversation_key(fuzz::sender_sk(), fuzz::recipient_keypair().public_key()).value();
  return k;
}

static void check_buffer_forms_agree(std::string_view payload, const result<std::string>& dec) {
  std::vector<std::uint8_t> raw(payload.size() / 4 * 3 + 3);
  auto n = nip44::decode_payload(payload, raw.data());
  if (!n.ok()) {
    FUZZ_CHECK(!dec.ok());
    FUZZ_CHECK(n.code() == dec.code());
    return;
  }
  FUZZ_CHECK(*n <= raw.size());
  auto range = nip44::open(raw.data(), *n, conversation_key());
  FUZZ_CHECK(range.ok() == dec.ok());
  FUZZ_CHECK(range.code() == dec.code());
  if (range.ok()) {
    FUZZ_CHECK(range->offset + range->size <= *n);
    FUZZ_CHECK(dec->size() == range->size);
    FUZZ_CHECK(std::memcmp(dec->data(), raw.data() + range->offset, range->size) == 0);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0] % 3;
  std::string_view rest = fuzz::text(data + 1, size - 1);
  if (mode == 2) {
    const bytes32 nonce = fuzz::fixed_bytes(0x09);
    const nip44::message_keys keys = nip44::get_message_keys(conversation_key(), nonce);
    std::vector<std::uint8_t> raw(1 + 32 + rest.size() + 32);
    raw[0] = nip44::kVersion;
    std::memcpy(raw.data() + 1, nonce.data(), 32);
    crypto::chacha20_xor(raw.data() + 33, reinterpret_cast<const std::uint8_t*>(rest.data()), rest.size(),
                         keys.chacha_nonce.data(), 0, keys.chacha_key.data());
    const bytes32 mac = crypto::hmac_sha256_2(keys.hmac_key, nonce.data(), 32, raw.data() + 33, rest.size());
    std::memcpy(raw.data() + 33 + rest.size(), mac.data(), 32);
    const std::string payload = base64::encode(raw.data(), raw.size());
    auto dec = nip44::decrypt(payload, conversation_key());
    check_buffer_forms_agree(payload, dec);
    if (!dec.ok()) return 0;
    auto expected_raw = nip44::raw_len(dec->size());
    FUZZ_CHECK(expected_raw.ok() && *expected_raw == raw.size());
    const std::size_t at = nip44::prefix_len(dec->size());
    FUZZ_CHECK(std::memcmp(dec->data(), rest.data() + at, dec->size()) == 0);
    return 0;
  }
  if (mode == 0) {
    auto dec = nip44::decrypt(rest, conversation_key());
    check_buffer_forms_agree(rest, dec);
    return 0;
  }
  bytes32 nonce{};
  const std::size_t take = std::min<std::size_t>(rest.size(), 32);
  std::memcpy(nonce.data(), rest.data(), take);
  rest.remove_prefix(take);
  auto enc = nip44::encrypt(rest, conversation_key(), nonce);
  if (rest.empty()) {
    FUZZ_CHECK(!enc.ok());
    return 0;
  }
  FUZZ_CHECK(enc.ok());
  auto dec = nip44::decrypt(*enc, conversation_key());
  FUZZ_CHECK(dec.ok() && *dec == rest);
  check_buffer_forms_agree(*enc, dec);
  return 0;
}
