/* libsecp256k1's precomputed point tables, computed instead of shipped.
 *
 * The 0.2.0 sources carry them as 72 KB of constant data (ECMULT_GEN_PREC_BITS=4 signing table,
 * window-8 verification tables). Random-looking points do not compress, so in the browser build
 * they were half of everything the package made a page download. Computing them takes 1-3 ms in
 * optimized code, but on wasm it runs early, in V8's baseline tier: 10-25 ms. So on wasm each
 * table is built when first needed (verification tables: first verify or key tweak; our signing
 * table, src/crypto/secp256k1_core.c: first signature or key pair), and init() does not wait
 * for them; natively src/crypto/secp256k1.cpp builds them all with its context. The library's
 * own signing table is only computed by the native tests (the product uses ours).
 * This file is compiled into the secp256k1 target (cmake/third_party.cmake) in place of
 * precomputed_ecmult.c and precomputed_ecmult_gen.c, with the same configuration macros. */
#include "../include/secp256k1.h"
#include "assumptions.h"
#include "util.h"
#include "field_impl.h"
#include "group_impl.h"
#include "int128_impl.h"
#include "ecmult.h"
#include "ecmult_gen.h"
#include "ecmult_compute_table_impl.h"
#include "ecmult_gen_compute_table_impl.h"
#include "nostr_gen.h"

/* The library's own translation units declare these `extern const`; here they are writable
 * storage that is filled once and never written again. */
secp256k1_ge_storage secp256k1_pre_g[ECMULT_TABLE_SIZE(ECMULT_WINDOW_SIZE)];
secp256k1_ge_storage secp256k1_pre_g_128[ECMULT_TABLE_SIZE(ECMULT_WINDOW_SIZE)];
secp256k1_ge_storage secp256k1_ecmult_gen_prec_table[ECMULT_GEN_PREC_N(ECMULT_GEN_PREC_BITS)]
                                                    [ECMULT_GEN_PREC_G(ECMULT_GEN_PREC_BITS)];

/* The verification tables; secp256k1_core.c calls this before every verification
 * multiplication, so on wasm they are built by the first verify (or key tweak). Idempotent;
 * not thread-safe (see nostr_gen_compute_table). */
void nostr_secp256k1_compute_verify_tables(void) {
  static int ready = 0;
  if (ready) return;
  secp256k1_ecmult_compute_two_tables(secp256k1_pre_g, secp256k1_pre_g_128, ECMULT_WINDOW_SIZE,
                                      &secp256k1_ge_const_g);
  ready = 1;
}

/* All tables now (the native build does this once with its context). */
void nostr_secp256k1_compute_tables(void) {
  nostr_secp256k1_compute_verify_tables();
  nostr_gen_compute_table(); /* our signing table (secp256k1_core.c) */
}

/* The library's own signing table is not used by the product (secp256k1_core.c multiplies by G
 * with its own table); the native tests compute it to compare the two multiplications. */
void nostr_secp256k1_compute_lib_gen_table(void) {
  secp256k1_ecmult_gen_compute_table(&secp256k1_ecmult_gen_prec_table[0][0], &secp256k1_ge_const_g,
                                     ECMULT_GEN_PREC_BITS);
}
