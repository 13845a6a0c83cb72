/* Our own constant-time paths under valgrind, beside libsecp256k1's valgrind_ctime_test (which
 * runs through the same library build, so its key generation and signing already multiply with
 * our generator code). Secret inputs are marked undefined (VALGRIND_MAKE_MEM_UNDEFINED): valgrind
 * then reports every branch and every memory address computed from them. Outputs are declared
 * defined again before they are checked. cmake/ctime.cmake builds it with clang-14 twice: 64-bit
 * limbs (the native build) and 32-bit limbs (USE_FORCE_WIDEMUL_INT64, the WASM build's code).
 *
 * Covered: our generator multiplication (secp256k1_core.c: secp256k1_ecmult_gen, its table scan
 * and conditional negation) with a secret blinding, through key pair creation, public key
 * creation and BIP-340 signing; the blinding update (secp256k1_ecmult_gen_blind) with a secret
 * seed; x-only ECDH with a cached table of the peer's multiples (nostr_ecdh_xonly_with_table),
 * with valid and overflowing scalars. */
#include <valgrind/memcheck.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

size_t nostr_ecdh_table_size(void);
int nostr_ecdh_table_build(void *table, const secp256k1_pubkey *point);
int nostr_ecdh_xonly_with_table(unsigned char *x32, const unsigned char *scalar, const void *table);

static void expect(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "ctime_test: %s\n", what);
    exit(1);
  }
}

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int copy_x(unsigned char *out, const unsigned char *x32, const unsigned char *y32, void *data) {
  (void)y32;
  (void)data;
  memcpy(out, x32, 32);
  return 1;
}

int main(void) {
  /* the group order n: a scalar that overflows */
  static const unsigned char order[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48,
                                          0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
  secp256k1_context *ctx;
  secp256k1_pubkey peer;
  secp256k1_keypair keypair;
  secp256k1_pubkey pub;
  unsigned char seed[32], key[32], peer_key[32], aux[32], msg[32], sig[64], x_ours[32], x_lib[32];
  void *table;
  int ret, i, round;

  if (!RUNNING_ON_VALGRIND) {
    fprintf(stderr, "ctime_test: run it under valgrind (cmake/ctime.cmake does)\n");
    return 1;
  }
  ctx = secp256k1_context_create(SECP256K1_CONTEXT_DECLASSIFY);

  /* The peer of the ECDH rounds and its cached table: public. */
  for (i = 0; i < 32; i++) peer_key[i] = (unsigned char)(200 - i);
  expect(secp256k1_ec_pubkey_create(ctx, &peer, peer_key) == 1, "peer key");
  table = malloc(nostr_ecdh_table_size());
  expect(table != NULL && nostr_ecdh_table_build(table, &peer) == 1, "ECDH table");

  /* A secret blinding, as init() seeds the context from the platform's randomness. */
  for (i = 0; i < 32; i++) seed[i] = (unsigned char)(i * 7 + 3);
  SECRET(seed, 32);
  ret = secp256k1_context_randomize(ctx, seed);
  PUBLIC(&ret, sizeof ret);
  expect(ret == 1, "context_randomize");

  for (round = 0; round < 3; round++) {
    /* keys with different top bits (scalar high or not) and parities */
    for (i = 0; i < 32; i++) key[i] = (unsigned char)(round * 0x55 + i * 13 + 1);
    for (i = 0; i < 32; i++) msg[i] = (unsigned char)(i + round);
    for (i = 0; i < 32; i++) aux[i] = (unsigned char)(255 - i - round);

    SECRET(key, 32);
    ret = secp256k1_keypair_create(ctx, &keypair, key);
    PUBLIC(&ret, sizeof ret);
    expect(ret == 1, "keypair_create");

    SECRET(key, 32);
    ret = secp256k1_ec_pubkey_create(ctx, &pub, key);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(&pub, sizeof pub);
    expect(ret == 1, "ec_pubkey_create");

    SECRET(&keypair, sizeof keypair);
    SECRET(aux, 32);
    ret = secp256k1_schnorrsig_sign32(ctx, sig, msg, &keypair, aux);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(sig, 64);
    expect(ret == 1, "schnorrsig_sign32");

    /* ECDH with the cached table, against the library's constant-time ECDH */
    SECRET(key, 32);
    ret = nostr_ecdh_xonly_with_table(x_ours, key, table);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(x_ours, 32);
    expect(ret == 1, "nostr_ecdh_xonly_with_table");
    SECRET(key, 32);
    ret = secp256k1_ecdh(ctx, x_lib, &peer, key, copy_x, NULL);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(x_lib, 32);
    expect(ret == 1 && memcmp(x_ours, x_lib, 32) == 0, "cached-table ECDH differs from secp256k1_ecdh");
  }

  /* An overflowing scalar takes the same path (it is replaced by 1 with a conditional move). */
  memcpy(key, order, 32);
  SECRET(key, 32);
  ret = nostr_ecdh_xonly_with_table(x_ours, key, table);
  PUBLIC(&ret, sizeof ret);
  expect(ret == 0, "nostr_ecdh_xonly_with_table accepted the group order");

  /* The blinding update again, now from a secret blinding. */
  SECRET(seed, 32);
  ret = secp256k1_context_randomize(ctx, seed);
  PUBLIC(&ret, sizeof ret);
  expect(ret == 1, "context_randomize (second)");

  free(table);
  secp256k1_context_destroy(ctx);
  printf("ctime_test: our generator multiplication, blinding and cached-table ECDH ran under valgrind\n");
  return 0;
}
