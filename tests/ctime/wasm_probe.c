/* The constant-time selects and table scans of libsecp256k1 (with our patch) and of our
 * secp256k1_core.c, each compiled as an exported function of its own, for
 * tests/js/ctime-wasm.test.js, which disassembles this module (wabt's wasm2wat) and fails if a
 * branch or a select depends on the arguments marked secret there.
 *
 * The product inlines these helpers into larger functions; each probe gives the helper the
 * context that matters: a flag that the compiler can see is 0 or 1 (a comparison), which is what
 * lets clang >= 14 turn the mask arithmetic into a select or a branch (libsecp256k1 0.3.1's
 * advisory). Built with the secp256k1 target's own settings (cmake/third_party.cmake:
 * nostr_secp256k1_settings) and linked at the product's -O3 (cmake/wasm.cmake). */
#include "secp256k1_core.c"

#include <emscripten.h>

#define PROBE EMSCRIPTEN_KEEPALIVE __attribute__((noinline))

/* The select helpers; secret: x, y. */
PROBE void probe_fe_cmov(secp256k1_fe *r, const secp256k1_fe *a, int x, int y) { secp256k1_fe_cmov(r, a, x == y); }
PROBE void probe_fe_storage_cmov(secp256k1_fe_storage *r, const secp256k1_fe_storage *a, int x, int y) {
  secp256k1_fe_storage_cmov(r, a, x == y);
}
PROBE void probe_ge_storage_cmov(secp256k1_ge_storage *r, const secp256k1_ge_storage *a, int x, int y) {
  secp256k1_ge_storage_cmov(r, a, x == y);
}
PROBE void probe_gej_cmov(secp256k1_gej *r, const secp256k1_gej *a, int x, int y) { secp256k1_gej_cmov(r, a, x == y); }
PROBE void probe_scalar_cmov(secp256k1_scalar *r, const secp256k1_scalar *a, int x, int y) {
  secp256k1_scalar_cmov(r, a, x == y);
}
PROBE void probe_int_cmov(int *r, const int *a, int x, int y) { secp256k1_int_cmov(r, a, x == y); }
PROBE int probe_scalar_cond_negate(secp256k1_scalar *r, int x, int y) { return secp256k1_scalar_cond_negate(r, x == y); }
PROBE void probe_scalar_cadd_bit(secp256k1_scalar *r, int x, int y) { secp256k1_scalar_cadd_bit(r, 0, x == y); }
PROBE void probe_memczero(unsigned char *p, int x, int y) { secp256k1_memczero(p, 32, x == y); }

/* The table scans; secret: n (a signed odd digit) and v (our generator digit's bits). */
/* libsecp256k1's ECDH (secp256k1_ecmult_const, WINDOW_A) */
PROBE void probe_ecmult_const_lookup(secp256k1_ge *r, const secp256k1_ge *pre, int n) {
  ECMULT_CONST_TABLE_GET_GE(r, pre, n, WINDOW_A);
}
/* our ECDH with a cached table (nostr_ecmult_const_table) */
PROBE void probe_ecdh_table_lookup(secp256k1_ge *r, const secp256k1_ge *pre, int n) {
  ECMULT_CONST_TABLE_GET_GE(r, pre, n, NOSTR_CT_W);
}
/* our generator multiplication (secp256k1_ecmult_gen above), row i of its table */
PROBE void probe_gen_lookup(secp256k1_ge *add, int i, uint32_t v) { nostr_gen_lookup(add, nostr_gen_table[i], v); }

/* The control: libsecp256k1 0.2.0's conditional move as it was before the patch (no volatile).
 * The test expects its check to flag this one: it shows that the check sees what the patch
 * removes, with this compiler and these flags. Secret: x, y. */
static SECP256K1_INLINE void control_cmov(uint32_t *r, const uint32_t *a, int flag) {
  uint32_t mask0 = flag + ~((uint32_t)0), mask1 = ~mask0;
  int i;
  for (i = 0; i < 10; i++) r[i] = (r[i] & mask0) | (a[i] & mask1);
}
PROBE void probe_control_unpatched_cmov(uint32_t *r, const uint32_t *a, int x, int y) { control_cmov(r, a, x == y); }
