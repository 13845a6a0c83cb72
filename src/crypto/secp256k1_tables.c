/* libsecp256k1's precomputed point tables, computed at start-up instead of shipped.
 *
 * The 0.2.0 sources carry them as 72 KB of constant data (ECMULT_GEN_PREC_BITS=4 signing table,
 * window-8 verification tables). Random-looking points do not compress, so in the browser build
 * they were half of everything the package made a page download. Computing them takes 1-3 ms in
 * optimized code, but it runs right after instantiation, in V8's baseline tier: 10-20 ms of init(),
 * once, before the first context is created (src/crypto/secp256k1.cpp). The signing table is
 * ours (src/crypto/secp256k1_core.c); the library's is only computed by the native tests.
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

void nostr_secp256k1_compute_tables(void) {
  secp256k1_ecmult_compute_two_tables(secp256k1_pre_g, secp256k1_pre_g_128, ECMULT_WINDOW_SIZE,
                                      &secp256k1_ge_const_g);
  nostr_gen_compute_table(); /* our signing table (secp256k1_core.c) */
}

/* The library's own signing table is not used by the product (secp256k1_core.c multiplies by G
 * with its own table); the native tests compute it to compare the two multiplications. */
void nostr_secp256k1_compute_lib_gen_table(void) {
  secp256k1_ecmult_gen_compute_table(&secp256k1_ecmult_gen_prec_table[0][0], &secp256k1_ge_const_g,
                                     ECMULT_GEN_PREC_BITS);
}
