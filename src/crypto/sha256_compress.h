/* SHA-256 compression function (FIPS 180-4, section 6.2.2), our own: the rounds unrolled (0-15,
 * then one 16-round body three times) with the eight working variables renamed instead of
 * shifted, and the message schedule kept in sixteen locals and extended on the fly, so on wasm
 * the whole block lives in locals (libsodium
 * 1.0.18's portable code keeps its schedule and state in memory arrays). Used by hash.cpp for
 * every SHA-256, HMAC and HKDF of the core (libsecp256k1 keeps its own for the BIP-340 tagged
 * hashes: it is register-based too, and measured as fast). No branch or memory index depends on
 * the data. */
#ifndef NOSTR_SHA256_COMPRESS_H
#define NOSTR_SHA256_COMPRESS_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Runs nblocks 64-byte blocks of p through the state s. */
void nostr_sha256_compress(uint32_t s[8], const unsigned char *p, size_t nblocks);
#ifdef __cplusplus
}
#endif
#endif
