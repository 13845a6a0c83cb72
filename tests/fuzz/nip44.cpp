// NIP-44 v2 payloads from the network, decrypted with a fixed conversation key. Mode 0: the input
// is a payload (base64 checks, decoding, version, MAC, padding). Mode 1: the input is a plaintext,
// encrypted with the fixed key and a nonce from the input, then decrypted back to itself; and the
// allocation-free forms (decode_payload + open) agree with decrypt.
#include <cstring>
#include <vector>
#include "nips/nip44.hpp"
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
  const std::uint8_t mode = data[0] & 1;
  std::string_view rest = fuzz::text(data + 1, size - 1);
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
