// BIP-340 batch verification (crypto::schnorr_verify32_batch) against single verification, on
// batches the input describes. The fuzzer cannot forge signatures, so a batch is built from a
// fixed set of valid ones (eight keys, each with several signatures) that the input picks,
// repeats and damages: each step takes an opcode byte and a few more bytes:
//   op % 4 == 0: valid signature b0 % 32
//   op % 4 == 1: valid signature b0 % 32 with byte b1 % 128 of (sig, msg, pub) XORed with b2
//   op % 4 == 2: 128 raw input bytes as sig, msg, pub (edge values: r or s out of range, keys
//                and r values that are not points)
//   op % 4 == 3: a copy of an earlier entry of the batch (b0 picks it), with its key swapped
//                for another fixed key (b1) -- a valid signature under the wrong key
// Then every entry's batch verdict must equal schnorr_verify32's (a false batch verdict for
// a valid entry or a true one for a bad entry both abort).
#include <memory>
#include <vector>
#include "crypto/secp256k1.hpp"
#include "fuzz_support.hpp"

using namespace nostr;

namespace {

const std::vector<crypto::schnorr_check>& valid_pool() {
  static const std::vector<crypto::schnorr_check> pool = [] {
    std::vector<crypto::schnorr_check> out;
    for (std::uint8_t k = 0; k < 8; ++k) {
      auto kp = crypto::keypair::from_secret(fuzz::fixed_bytes(static_cast<std::uint8_t>(0x40 + k))).value();
      for (std::uint8_t m = 0; m < 4; ++m) {
        crypto::schnorr_check c;
        c.msg = fuzz::fixed_bytes(static_cast<std::uint8_t>(16 * k + m));
        c.pub = kp.public_key();
        c.sig = kp.sign32(c.msg, fuzz::fixed_bytes(m));
        out.push_back(c);
      }
    }
    return out;
  }();
  return pool;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& pool = valid_pool();
  std::vector<crypto::schnorr_check> batch;
  std::size_t i = 0;
  auto byte = [&]() -> std::uint8_t { return i < size ? data[i++] : 0; };
  while (i < size && batch.size() < 600) {
    const std::uint8_t op = byte();
    switch (op % 4) {
      case 0: batch.push_back(pool[byte() % pool.size()]); break;
      case 1: {
        crypto::schnorr_check c = pool[byte() % pool.size()];
        const std::uint8_t at = byte() % 128, x = byte();
        std::uint8_t* p = at < 64 ? c.sig.data() + at : at < 96 ? c.msg.data() + (at - 64) : c.pub.data() + (at - 96);
        *p ^= x;
        batch.push_back(c);
        break;
      }
      case 2: {
        crypto::schnorr_check c;
        for (auto& b : c.sig) b = byte();
        for (auto& b : c.msg) b = byte();
        for (auto& b : c.pub) b = byte();
        batch.push_back(c);
        break;
      }
      default: {
        if (batch.empty()) break;
        crypto::schnorr_check c = batch[byte() % batch.size()];
        c.pub = pool[4 * (byte() % 8)].pub;
        batch.push_back(c);
        break;
      }
    }
  }
  std::unique_ptr<bool[]> ok(new bool[batch.size() + 1]);
  crypto::schnorr_verify32_batch(batch.data(), batch.size(), ok.get());
  for (std::size_t k = 0; k < batch.size(); ++k)
    FUZZ_CHECK(ok[k] == crypto::schnorr_verify32(batch[k].sig, batch[k].msg, batch[k].pub));
  return 0;
}
