// NIP-49 ncryptsec strings from users and files. Mode 0: the rest is an ncryptsec, opened with one
// of three passwords (the second byte picks; the seeds are nostr-tools' vectors of log_n 1 to 3)
// and log_n capped at 3: what opens re-encrypts, with its own salt, nonce and key security byte,
// to its own lowercase string. Mode 1: 32 bytes of key and a password: encrypt, then decrypt back.
#include <algorithm>
#include <cctype>
#include <cstring>
#include "fuzz_support.hpp"
#include "nips/bech32.hpp"
#include "nips/nip49.hpp"

using namespace nostr;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const char* const kPasswords[] = {"777z7z7z7z7z7z7z", ".ksjabdk.aselqwe", ""};
  if (data[0] % 2 == 0) {
    const std::string_view in = fuzz::text(data + 2, size - 2);
    const std::string_view pw = kPasswords[data[1] % 3];
    auto d = nip49::decrypt(in, pw, 3);
    if (!d.ok()) return 0;
    FUZZ_CHECK(d->log_n >= 1 && d->log_n <= 3);
    auto raw = bech32::decode(in);
    FUZZ_CHECK(raw.ok() && raw->data.size() == nip49::kPayloadLen);
    nip49::salt16 salt;
    nip49::nonce24 nonce;
    std::memcpy(salt.data(), raw->data.data() + 2, salt.size());
    std::memcpy(nonce.data(), raw->data.data() + 18, nonce.size());
    if (d->key_security_byte > 2) return 0;  // opened, but encrypt makes only 0, 1 and 2
    auto again = nip49::encrypt(d->secret_key.b, pw, d->log_n, d->key_security_byte, salt, nonce);
    FUZZ_CHECK(again.ok());
    std::string lower(in);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    FUZZ_CHECK(*again == lower);
    return 0;
  }
  if (size < 34) return 0;
  bytes32 sk;
  std::memcpy(sk.data(), data + 2, 32);
  const std::string_view pw = fuzz::text(data + 34, size - 34);
  const unsigned log_n = 1 + data[1] % 2;
  const std::uint8_t ksb = data[1] % 3;
  nip49::salt16 salt{};
  nip49::nonce24 nonce{};
  salt[0] = data[1];
  auto nc = nip49::encrypt(sk, pw, log_n, ksb, salt, nonce);
  FUZZ_CHECK(nc.ok());
  auto back = nip49::decrypt(*nc, pw, 2);
  FUZZ_CHECK(back.ok() && back->secret_key.b == sk && back->key_security_byte == ksb && back->log_n == log_n);
  return 0;
}
