/* libsecp256k1 0.2.0 (secp256k1.c, with our patch: patches/) with our own generator multiplication.
 *
 * Every a*G the library does (BIP-340 signing's nonce point, keypair and public key creation,
 * ECDSA) goes through secp256k1_ecmult_gen. The library's version (ECMULT_GEN_PREC_BITS=4) adds
 * 64 table points, each picked by a constant-time scan of 16 entries. Ours uses signed odd digits
 * of NOSTR_GEN_W bits (a multi-comb with one tooth per block and no doublings):
 *
 *   d = (a + 2^L - 1) / 2 mod n,  L = NOSTR_GEN_W * NOSTR_GEN_N >= 256
 *   a = 2d - (2^L - 1) = sum_i 2^(W*i) * D_i,  D_i = 2*v_i - (2^W - 1),  v_i = bits W*i.. of d
 *
 * so every digit D_i is odd, |D_i| < 2^W, and a*G = sum_i sign_i * T[i][(|D_i| - 1) / 2] with
 * T[i][j] = (2j + 1) * 2^(W*i) * G: NOSTR_GEN_N additions, each picked by a constant-time scan
 * of 2^(W-1) entries and a constant-time conditional negation. Nothing secret indexes memory or
 * decides a branch. The library's blinding is kept: the context holds initial = B and
 * blind = -b with B = b*G for a random b (secp256k1_context_randomize), and a*G is computed as
 * B + (a - b)*G, so the digits never are those of the secret scalar itself.
 * The table (NOSTR_GEN_N x 2^(W-1) points) is computed on the first multiplication (on wasm: the
 * first signature or key pair; natively secp256k1.cpp builds all tables with its context).
 *
 * How: this translation unit includes the library's ecmult_gen_impl.h with its two functions that
 * multiply renamed (they stay available to the native tests as the reference), defines ours under
 * the library's names, then includes secp256k1.c, which calls ours. */
#define SECP256K1_BUILD

#include "../include/secp256k1.h"
#include "assumptions.h"
#include "util.h"
#include "field_impl.h"
#include "scalar_impl.h"
#include "group_impl.h"

/* the library's verification multiplication, wrapped below so that its tables are built on
 * first use (wasm) */
#define secp256k1_ecmult secp256k1_ecmult_lib
#include "ecmult_impl.h"
#undef secp256k1_ecmult
#include "ecmult_const_impl.h"

#define secp256k1_ecmult_gen secp256k1_ecmult_gen_lib
#define secp256k1_ecmult_gen_blind secp256k1_ecmult_gen_blind_lib
#include "ecmult_gen_impl.h"
#undef secp256k1_ecmult_gen
#undef secp256k1_ecmult_gen_blind

#include "nostr_gen.h"
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

void nostr_secp256k1_compute_verify_tables(void); /* secp256k1_tables.c, idempotent */

/* r = na*a + ng*G (verification, tweaks): the library's, once its tables exist. */
static void secp256k1_ecmult(secp256k1_gej *r, const secp256k1_gej *a, const secp256k1_scalar *na, const secp256k1_scalar *ng) {
  nostr_secp256k1_compute_verify_tables();
  secp256k1_ecmult_lib(r, a, na, ng);
}

/* T[i][j] = (2j + 1) * 2^(W*i) * G. Written once by nostr_gen_compute_table. */
static secp256k1_ge_storage nostr_gen_table[NOSTR_GEN_N][NOSTR_GEN_HALF];
/* (2^L - 1) / 2 mod n and 1/2 mod n, set with the table. */
static secp256k1_scalar nostr_gen_offset;
static secp256k1_scalar nostr_gen_half;
static int nostr_gen_ready = 0;

/* Idempotent. Not thread-safe: the wasm module is single-threaded, and natively the tables are
 * all built once under the C++ context's static initialisation (secp256k1.cpp). */
void nostr_gen_compute_table(void) {
  secp256k1_gej *all;
  secp256k1_ge *aff;
  secp256k1_gej base, twice;
  secp256k1_scalar two, c;
  int i, j;
  if (nostr_gen_ready) return;
  all = (secp256k1_gej *)checked_malloc(&default_error_callback, sizeof(*all) * NOSTR_GEN_N * NOSTR_GEN_HALF);
  aff = (secp256k1_ge *)checked_malloc(&default_error_callback, sizeof(*aff) * NOSTR_GEN_N * NOSTR_GEN_HALF);
  secp256k1_gej_set_ge(&base, &secp256k1_ge_const_g);
  for (i = 0; i < NOSTR_GEN_N; i++) {
    secp256k1_gej *row = all + (size_t)i * NOSTR_GEN_HALF;
    row[0] = base;
    secp256k1_gej_double_var(&twice, &base, NULL);
    for (j = 1; j < NOSTR_GEN_HALF; j++) secp256k1_gej_add_var(&row[j], &row[j - 1], &twice, NULL);
    /* next base: (2^W - 1) * base + base */
    secp256k1_gej_add_var(&base, &row[NOSTR_GEN_HALF - 1], &base, NULL);
  }
  secp256k1_ge_set_all_gej_var(aff, all, (size_t)NOSTR_GEN_N * NOSTR_GEN_HALF);
  for (i = 0; i < NOSTR_GEN_N; i++)
    for (j = 0; j < NOSTR_GEN_HALF; j++) secp256k1_ge_to_storage(&nostr_gen_table[i][j], &aff[i * NOSTR_GEN_HALF + j]);
  free(aff);
  free(all);

  /* half = 1/2 mod n; offset = (2^L - 1) * half */
  secp256k1_scalar_set_int(&two, 2);
  secp256k1_scalar_inverse(&nostr_gen_half, &two);
  secp256k1_scalar_set_int(&c, 1);
  for (i = 0; i < NOSTR_GEN_W * NOSTR_GEN_N; i++) secp256k1_scalar_add(&c, &c, &c);
  secp256k1_scalar_negate(&two, &secp256k1_scalar_one);
  secp256k1_scalar_add(&c, &c, &two); /* 2^L - 1 */
  secp256k1_scalar_mul(&nostr_gen_offset, &c, &nostr_gen_half);
  nostr_gen_ready = 1;
}

/* add = sign * T[i][(|D| - 1) / 2] for the digit D of the low W bits v of bits (D = 2v - (2^W - 1)):
 * a scan of the whole row and a conditional negation, constant time in bits. The index is read through a
 * volatile, as libsecp256k1's patched selects read their flag (patches/: its 0.3.1 remedy for
 * clang >= 14): knowing idx < 2^(W-1), clang could otherwise reduce the mask arithmetic below to
 * a comparison and choose a select or a branch for it. tests/js/ctime-wasm.test.js checks the
 * compiled scan; the valgrind test (cmake/ctime.cmake) runs it natively. */
static SECP256K1_INLINE void nostr_gen_lookup(secp256k1_ge *add, const secp256k1_ge_storage *row, uint32_t bits) {
  volatile uint32_t vidx;
  const uint32_t v = bits & ((1u << NOSTR_GEN_W) - 1);
  uint32_t pos_sign, idx, acc[16];
  const uint32_t *entry = (const uint32_t *)row;
  secp256k1_fe negy;
  int k;
  pos_sign = v >> (NOSTR_GEN_W - 1);                      /* 1: D > 0 */
  vidx = (v ^ (pos_sign - 1)) & (NOSTR_GEN_HALF - 1);      /* (|D| - 1) / 2 */
  idx = vidx;
#ifdef __wasm_simd128__
  {
    /* Four 128-bit lanes hold one 64-byte entry. Left to itself, clang vectorizes the scalar
     * loop below across entries instead, gathering each word from four entries with lane loads
     * (16 lane loads per entry): this scan was ~19% of a signature on wasm. */
    v128_t a0 = wasm_i32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
    for (k = 0; k < NOSTR_GEN_HALF; k++, entry += 16) {
      const uint32_t x = (uint32_t)k ^ idx;
      const v128_t mask = wasm_i32x4_splat((int32_t)(0u - ((x - 1u) >> 31))); /* all ones iff k == idx */
      a0 = wasm_v128_or(a0, wasm_v128_and(wasm_v128_load(entry), mask));
      a1 = wasm_v128_or(a1, wasm_v128_and(wasm_v128_load(entry + 4), mask));
      a2 = wasm_v128_or(a2, wasm_v128_and(wasm_v128_load(entry + 8), mask));
      a3 = wasm_v128_or(a3, wasm_v128_and(wasm_v128_load(entry + 12), mask));
    }
    wasm_v128_store(acc, a0);
    wasm_v128_store(acc + 4, a1);
    wasm_v128_store(acc + 8, a2);
    wasm_v128_store(acc + 12, a3);
  }
#else
  for (k = 0; k < 16; k++) acc[k] = 0;
  for (k = 0; k < NOSTR_GEN_HALF; k++, entry += 16) {
    const uint32_t x = (uint32_t)k ^ idx;
    const uint32_t mask = 0u - ((x - 1u) >> 31); /* all ones iff k == idx (x < 2^31) */
    int m;
    for (m = 0; m < 16; m++) acc[m] |= entry[m] & mask;
  }
#endif
  secp256k1_ge_from_storage(add, (const secp256k1_ge_storage *)acc);
  secp256k1_fe_negate(&negy, &add->y, 1);
  secp256k1_fe_cmov(&add->y, &negy, (int)(pos_sign ^ 1u));
}

/* r = B + (gn + blind) * G, constant time in gn and in the blinding. */
static void secp256k1_ecmult_gen(const secp256k1_ecmult_gen_context *ctx, secp256k1_gej *r, const secp256k1_scalar *gn) {
  secp256k1_scalar d;
  unsigned char b32[32];
  uint32_t words[9];
  secp256k1_ge add;
  int i, k;
  if (!nostr_gen_ready) nostr_gen_compute_table(); /* once, on the first multiplication */

  secp256k1_scalar_add(&d, gn, &ctx->blind);
  secp256k1_scalar_mul(&d, &d, &nostr_gen_half);
  secp256k1_scalar_add(&d, &d, &nostr_gen_offset);
  secp256k1_scalar_get_b32(b32, &d);
  for (k = 0; k < 8; k++) {
    const unsigned char *p = b32 + 28 - 4 * k; /* big-endian bytes, little-endian words */
    words[k] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
  }
  words[8] = 0;

  *r = ctx->initial;
  add.infinity = 0;
  for (i = 0; i < NOSTR_GEN_N; i++) {
    /* bits [W*i, W*i + W) of d; positions are public, so these branches are too */
    const int pos = NOSTR_GEN_W * i, wi = pos >> 5, sh = pos & 31;
    uint32_t v = words[wi] >> sh;
    if (sh + NOSTR_GEN_W > 32) v |= words[wi + 1] << (32 - sh);
    nostr_gen_lookup(&add, nostr_gen_table[i], v);
    secp256k1_gej_add_ge(r, r, &add);
  }
  secp256k1_ge_clear(&add);
  secp256k1_scalar_clear(&d);
  memset(b32, 0, sizeof b32);
  memset(words, 0, sizeof words);
}

/* The library's blinding update: seed NULL resets to B = -G, blind = 1; otherwise a fresh b and
 * a random Jacobian scale z are drawn from an HMAC-DRBG keyed by the previous blind and the seed,
 * and the pair becomes B' = b*G (projected with z), blind' = -b. b*G is computed with the
 * library's constant-time ecmult_const, which needs no table: seeding the context (init() does)
 * does not build the signing table. */
static void secp256k1_ecmult_gen_blind(secp256k1_ecmult_gen_context *ctx, const unsigned char *seed32) {
  secp256k1_rfc6979_hmac_sha256 drbg;
  unsigned char key[64], out[32];
  secp256k1_scalar b;
  secp256k1_fe z;
  secp256k1_gej bg;
  int bad;
  if (seed32 == NULL) {
    secp256k1_ecmult_gen_blind_lib(ctx, NULL); /* no multiplication on this path */
    return;
  }
  secp256k1_scalar_get_b32(key, &ctx->blind);
  memcpy(key + 32, seed32, 32);
  secp256k1_rfc6979_hmac_sha256_initialize(&drbg, key, sizeof key);
  memset(key, 0, sizeof key);

  secp256k1_rfc6979_hmac_sha256_generate(&drbg, out, 32);
  bad = !secp256k1_fe_set_b32(&z, out);
  bad |= secp256k1_fe_is_zero(&z);
  secp256k1_fe_cmov(&z, &secp256k1_fe_one, bad);

  secp256k1_rfc6979_hmac_sha256_generate(&drbg, out, 32);
  secp256k1_scalar_set_b32(&b, out, NULL);
  secp256k1_scalar_cmov(&b, &secp256k1_scalar_one, secp256k1_scalar_is_zero(&b));
  secp256k1_rfc6979_hmac_sha256_finalize(&drbg);
  memset(out, 0, sizeof out);

  secp256k1_ecmult_const(&bg, &secp256k1_ge_const_g, &b, 256);
  secp256k1_gej_rescale(&bg, &z);
  secp256k1_fe_clear(&z);
  secp256k1_scalar_negate(&ctx->blind, &b);
  ctx->initial = bg;
  secp256k1_scalar_clear(&b);
  secp256k1_gej_clear(&bg);
}

#include "secp256k1.c"

/* Built without the cached key tables (NOSTR_KEY_TABLES=0, the demo page's module: ~3.6 KB gz
 * less, and a page verifies and encrypts for few keys): the functions below report "no table". */
#ifndef NOSTR_KEY_TABLES
#define NOSTR_KEY_TABLES 1
#endif
#if NOSTR_KEY_TABLES
/* ---- BIP-340 verification with a cached table of the public key's multiples ----
 *
 * The library's verification (secp256k1_ecmult, Strauss with the GLV split) builds, for every
 * signature, a table of 8 odd multiples of the public key P (window 5) and takes about 43
 * additions of its points plus ~23 of G's. Authors recur in a feed, so for a key seen before,
 * secp256k1.cpp keeps a table of 32 odd multiples of P and of lambda*P, in affine coordinates
 * (window 7): about 32 additions of P's points instead of 43, no table to build per signature,
 * and G's additions as plain mixed additions (the library's run in the P table's z-scaled
 * frame). Everything here is public data (keys, signatures, messages): variable time, like the
 * library's verification. The checks after the multiplication are the library's
 * (secp256k1_schnorrsig_verify in 0.2.0). */
#define NOSTR_VT_W 7
#define NOSTR_VT_N ECMULT_TABLE_SIZE(NOSTR_VT_W) /* odd multiples 1..2^(W-1)-1: 32 */

struct nostr_verify_table {
  secp256k1_ge pre[NOSTR_VT_N];     /* (2i + 1) * P, affine */
  secp256k1_ge pre_lam[NOSTR_VT_N]; /* (2i + 1) * lambda * P = (beta * x, y) */
};

size_t nostr_verify_table_size(void) { return sizeof(struct nostr_verify_table); }

/* Fills t for a parsed x-only key. Returns 0 if the key does not load. */
/* pre[i] = (2i + 1) * P and pre_lam[i] = lambda * pre[i], affine and normalized, for i < n
 * (n <= NOSTR_VT_N): the tables of both cached multiplications (verification here, ECDH below).
 * P is public, so variable time. */
static void nostr_odd_multiples(secp256k1_ge *pre, secp256k1_ge *pre_lam, const secp256k1_ge *p, int n) {
  secp256k1_gej all[NOSTR_VT_N], twice;
  int i;
  secp256k1_gej_set_ge(&all[0], p);
  secp256k1_gej_double_var(&twice, &all[0], NULL);
  for (i = 1; i < n; i++) secp256k1_gej_add_var(&all[i], &all[i - 1], &twice, NULL);
  secp256k1_ge_set_all_gej_var(pre, all, (size_t)n);
  for (i = 0; i < n; i++) {
    secp256k1_fe_normalize_var(&pre[i].x);
    secp256k1_fe_normalize_var(&pre[i].y);
    secp256k1_ge_mul_lambda(&pre_lam[i], &pre[i]);
    secp256k1_fe_normalize_var(&pre_lam[i].x);
  }
}

int nostr_verify_table_build(void *table, const secp256k1_xonly_pubkey *pubkey) {
  struct nostr_verify_table *t = (struct nostr_verify_table *)table;
  secp256k1_ge pk;
  if (!secp256k1_xonly_pubkey_load(secp256k1_context_static, &pk, pubkey)) return 0;
  nostr_odd_multiples(t->pre, t->pre_lam, &pk, NOSTR_VT_N);
  return 1;
}

static SECP256K1_INLINE void nostr_vt_get(secp256k1_ge *r, const secp256k1_ge *pre, int n) {
  if (n > 0) {
    *r = pre[(n - 1) / 2];
  } else {
    *r = pre[(-n - 1) / 2];
    secp256k1_fe_negate(&r->y, &r->y, 1);
  }
}

/* r = na * P + ng * G with P's table t. */
static void nostr_ecmult_with_table(secp256k1_gej *r, const struct nostr_verify_table *t, const secp256k1_scalar *na,
                                    const secp256k1_scalar *ng) {
  secp256k1_scalar na_1, na_lam, ng_1, ng_128;
  int wnaf_na_1[129], wnaf_na_lam[129], wnaf_ng_1[129], wnaf_ng_128[129];
  int bits_na_1, bits_na_lam, bits_ng_1, bits_ng_128, bits, i;
  secp256k1_ge tmpa;

  nostr_secp256k1_compute_verify_tables();
  secp256k1_scalar_split_lambda(&na_1, &na_lam, na);
  bits_na_1 = secp256k1_ecmult_wnaf(wnaf_na_1, 129, &na_1, NOSTR_VT_W);
  bits_na_lam = secp256k1_ecmult_wnaf(wnaf_na_lam, 129, &na_lam, NOSTR_VT_W);
  secp256k1_scalar_split_128(&ng_1, &ng_128, ng);
  bits_ng_1 = secp256k1_ecmult_wnaf(wnaf_ng_1, 129, &ng_1, WINDOW_G);
  bits_ng_128 = secp256k1_ecmult_wnaf(wnaf_ng_128, 129, &ng_128, WINDOW_G);
  bits = bits_na_1;
  if (bits_na_lam > bits) bits = bits_na_lam;
  if (bits_ng_1 > bits) bits = bits_ng_1;
  if (bits_ng_128 > bits) bits = bits_ng_128;

  secp256k1_gej_set_infinity(r);
  for (i = bits - 1; i >= 0; i--) {
    int n;
    secp256k1_gej_double_var(r, r, NULL);
    if (i < bits_na_1 && (n = wnaf_na_1[i])) {
      nostr_vt_get(&tmpa, t->pre, n);
      secp256k1_gej_add_ge_var(r, r, &tmpa, NULL);
    }
    if (i < bits_na_lam && (n = wnaf_na_lam[i])) {
      nostr_vt_get(&tmpa, t->pre_lam, n);
      secp256k1_gej_add_ge_var(r, r, &tmpa, NULL);
    }
    if (i < bits_ng_1 && (n = wnaf_ng_1[i])) {
      secp256k1_ecmult_table_get_ge_storage(&tmpa, secp256k1_pre_g, n, WINDOW_G);
      secp256k1_gej_add_ge_var(r, r, &tmpa, NULL);
    }
    if (i < bits_ng_128 && (n = wnaf_ng_128[i])) {
      secp256k1_ecmult_table_get_ge_storage(&tmpa, secp256k1_pre_g_128, n, WINDOW_G);
      secp256k1_gej_add_ge_var(r, r, &tmpa, NULL);
    }
  }
}

/* secp256k1_schnorrsig_verify (0.2.0) with the multiplication above; table built for pubkey. */
int nostr_schnorrsig_verify_with_table(const unsigned char *sig64, const unsigned char *msg, size_t msglen,
                                       const secp256k1_xonly_pubkey *pubkey, const void *table) {
  secp256k1_scalar s, e;
  secp256k1_gej rj;
  secp256k1_ge pk, r;
  secp256k1_fe rx;
  unsigned char buf[32];
  int overflow;

  if (!secp256k1_fe_set_b32(&rx, &sig64[0])) return 0;
  secp256k1_scalar_set_b32(&s, &sig64[32], &overflow);
  if (overflow) return 0;
  if (!secp256k1_xonly_pubkey_load(secp256k1_context_static, &pk, pubkey)) return 0;

  secp256k1_fe_get_b32(buf, &pk.x);
  secp256k1_schnorrsig_challenge(&e, &sig64[0], msg, msglen, buf);

  /* rj = s*G + (-e)*P */
  secp256k1_scalar_negate(&e, &e);
  nostr_ecmult_with_table(&rj, (const struct nostr_verify_table *)table, &e, &s);

  secp256k1_ge_set_gej_var(&r, &rj);
  if (secp256k1_ge_is_infinity(&r)) return 0;
  secp256k1_fe_normalize_var(&r.y);
  return !secp256k1_fe_is_odd(&r.y) && secp256k1_fe_equal_var(&rx, &r.x);
}

#else /* NOSTR_KEY_TABLES == 0: no cached tables; secp256k1.cpp then uses the library's path */
size_t nostr_verify_table_size(void) { return 1; }
int nostr_verify_table_build(void *table, const secp256k1_xonly_pubkey *pubkey) { (void)table; (void)pubkey; return 0; }
int nostr_schnorrsig_verify_with_table(const unsigned char *sig64, const unsigned char *msg, size_t msglen,
                                       const secp256k1_xonly_pubkey *pubkey, const void *table) {
  (void)sig64; (void)msg; (void)msglen; (void)pubkey; (void)table;
  return 0;
}
#endif

/* ---- test hooks (native tests; unreferenced in the wasm module, so the linker drops them) ---- */

static void nostr_gej_to_b64(unsigned char out[64], secp256k1_gej *p) {
  secp256k1_ge a;
  secp256k1_ge_set_gej(&a, p);
  secp256k1_fe_normalize(&a.x);
  secp256k1_fe_normalize(&a.y);
  secp256k1_fe_get_b32(out, &a.x);
  secp256k1_fe_get_b32(out + 32, &a.y);
}

/* k*G three ways: ours (with the given context's blinding), the library's ecmult_gen
 * (needs its 4-bit table: nostr_secp256k1_compute_lib_gen_table), and the verification
 * multiplication secp256k1_ecmult. Returns 0 if k is zero or overflows (no output). */
int nostr_secp256k1_gen_check(const secp256k1_context *c, const unsigned char k32[32], unsigned char ours[64],
                              unsigned char lib[64], unsigned char ref[64]) {
  secp256k1_scalar k, zero;
  secp256k1_gej r, inf;
  int overflow = 0;
  secp256k1_scalar_set_b32(&k, k32, &overflow);
  if (overflow || secp256k1_scalar_is_zero(&k)) return 0;
  secp256k1_ecmult_gen(&c->ecmult_gen_ctx, &r, &k);
  nostr_gej_to_b64(ours, &r);
  secp256k1_ecmult_gen_lib(&c->ecmult_gen_ctx, &r, &k);
  nostr_gej_to_b64(lib, &r);
  secp256k1_scalar_set_int(&zero, 0);
  secp256k1_gej_set_infinity(&inf);
  secp256k1_ecmult(&r, &inf, &zero, &k);
  nostr_gej_to_b64(ref, &r);
  return 1;
}

/* L = W * N: the digit string's length in bits (tests aim scalars at extreme digit strings). */
int nostr_secp256k1_gen_bits(void) { return NOSTR_GEN_W * NOSTR_GEN_N; }

#if NOSTR_KEY_TABLES
/* ---- x-only ECDH with a cached table of the peer's multiples ----
 *
 * The library's constant-time multiplication (secp256k1_ecmult_const: GLV split, signed 4-bit
 * digits, 8 odd multiples of the point and of its lambda multiple, every lookup a scan of all
 * entries) builds the point's table on every call. For a peer used again (secp256k1.cpp: from
 * its second ECDH while in the parsed-key cache) the table is kept, in affine coordinates, with
 * 16 entries (signed 5-bit digits): 26 rounds of 5 doublings and 2 additions instead of 32 of 4
 * and 2, and no table to build. The multiplication follows the library's loop (the same digit
 * recoding secp256k1_wnaf_const, the same constant-time lookup ECMULT_CONST_TABLE_GET_GE, the
 * same complete addition, the skew corrected with conditional moves): nothing secret decides a
 * branch or an index. The table itself holds only public data. */
#define NOSTR_CT_W 6
#define NOSTR_CT_N ECMULT_TABLE_SIZE(NOSTR_CT_W) /* 16 */
typedef char nostr_ct_fits[NOSTR_CT_N <= NOSTR_VT_N ? 1 : -1]; /* nostr_odd_multiples' bound */

struct nostr_ecdh_table {
  secp256k1_ge pre[NOSTR_CT_N];     /* (2i + 1) * P, affine */
  secp256k1_ge pre_lam[NOSTR_CT_N]; /* (2i + 1) * lambda * P */
};

size_t nostr_ecdh_table_size(void) { return sizeof(struct nostr_ecdh_table); }

/* Fills t for a parsed key (x-only keys share secp256k1_pubkey's layout). Returns 0 if it does
 * not load. */
int nostr_ecdh_table_build(void *table, const secp256k1_pubkey *point) {
  struct nostr_ecdh_table *t = (struct nostr_ecdh_table *)table;
  secp256k1_ge p;
  if (!secp256k1_pubkey_load(secp256k1_context_static, &p, point)) return 0;
  nostr_odd_multiples(t->pre, t->pre_lam, &p, NOSTR_CT_N); /* the peer point is public */
  return 1;
}

/* r = q * P, constant time in q, with P's table. */
static void nostr_ecmult_const_table(secp256k1_gej *r, const struct nostr_ecdh_table *t, const secp256k1_scalar *q) {
  secp256k1_scalar q_1, q_lam;
  int wnaf_1[1 + WNAF_SIZE_BITS(128, NOSTR_CT_W - 1)];
  int wnaf_lam[1 + WNAF_SIZE_BITS(128, NOSTR_CT_W - 1)];
  int skew_1, skew_lam, i, j;
  secp256k1_ge tmpa;
  secp256k1_gej tmpj;

  secp256k1_scalar_split_lambda(&q_1, &q_lam, q);
  skew_1 = secp256k1_wnaf_const(wnaf_1, &q_1, NOSTR_CT_W - 1, 128);
  skew_lam = secp256k1_wnaf_const(wnaf_lam, &q_lam, NOSTR_CT_W - 1, 128);

  i = wnaf_1[WNAF_SIZE_BITS(128, NOSTR_CT_W - 1)];
  ECMULT_CONST_TABLE_GET_GE(&tmpa, t->pre, i, NOSTR_CT_W);
  secp256k1_gej_set_ge(r, &tmpa);
  i = wnaf_lam[WNAF_SIZE_BITS(128, NOSTR_CT_W - 1)];
  ECMULT_CONST_TABLE_GET_GE(&tmpa, t->pre_lam, i, NOSTR_CT_W);
  secp256k1_gej_add_ge(r, r, &tmpa);
  for (i = WNAF_SIZE_BITS(128, NOSTR_CT_W - 1) - 1; i >= 0; i--) {
    int n;
    for (j = 0; j < NOSTR_CT_W - 1; ++j) secp256k1_gej_double(r, r);
    n = wnaf_1[i];
    ECMULT_CONST_TABLE_GET_GE(&tmpa, t->pre, n, NOSTR_CT_W);
    secp256k1_gej_add_ge(r, r, &tmpa);
    n = wnaf_lam[i];
    ECMULT_CONST_TABLE_GET_GE(&tmpa, t->pre_lam, n, NOSTR_CT_W);
    secp256k1_gej_add_ge(r, r, &tmpa);
  }
  /* the wNAF skews */
  secp256k1_ge_neg(&tmpa, &t->pre[0]);
  secp256k1_gej_add_ge(&tmpj, r, &tmpa);
  secp256k1_gej_cmov(r, &tmpj, skew_1);
  secp256k1_ge_neg(&tmpa, &t->pre_lam[0]);
  secp256k1_gej_add_ge(&tmpj, r, &tmpa);
  secp256k1_gej_cmov(r, &tmpj, skew_lam);

  secp256k1_scalar_clear(&q_1);
  secp256k1_scalar_clear(&q_lam);
  memset(wnaf_1, 0, sizeof wnaf_1);
  memset(wnaf_lam, 0, sizeof wnaf_lam);
  secp256k1_ge_clear(&tmpa);
  secp256k1_gej_clear(&tmpj);
}

/* secp256k1_ecdh (0.2.0) with the raw x as output and the multiplication above. */
int nostr_ecdh_xonly_with_table(unsigned char *x32, const unsigned char *scalar, const void *table) {
  int overflow = 0;
  secp256k1_gej res;
  secp256k1_ge pt;
  secp256k1_scalar s;
  secp256k1_scalar_set_b32(&s, scalar, &overflow);
  overflow |= secp256k1_scalar_is_zero(&s);
  secp256k1_scalar_cmov(&s, &secp256k1_scalar_one, overflow);
  nostr_ecmult_const_table(&res, (const struct nostr_ecdh_table *)table, &s);
  secp256k1_ge_set_gej(&pt, &res);
  secp256k1_fe_normalize(&pt.x);
  secp256k1_fe_get_b32(x32, &pt.x);
  secp256k1_scalar_clear(&s);
  secp256k1_gej_clear(&res);
  secp256k1_ge_clear(&pt);
  return !overflow;
}
#else /* NOSTR_KEY_TABLES == 0 */
size_t nostr_ecdh_table_size(void) { return 1; }
int nostr_ecdh_table_build(void *table, const secp256k1_pubkey *point) { (void)table; (void)point; return 0; }
int nostr_ecdh_xonly_with_table(unsigned char *x32, const unsigned char *scalar, const void *table) {
  (void)x32; (void)scalar; (void)table;
  return 0;
}
#endif

/* Built without batch verification (NOSTR_BATCH_VERIFY=0, the demo page's module: the page's
 * frames arrive one per task and are never batched, and the multi-multiplication costs ~10 KB gz):
 * nostr_schnorrsig_verify_batch then sends every signature to the single check. */
#ifndef NOSTR_BATCH_VERIFY
#define NOSTR_BATCH_VERIFY 1
#endif
#if NOSTR_BATCH_VERIFY
/* ---- BIP-340 batch verification ----
 *
 * n signatures (sig_i on the 32-byte msg_i under key P_{k_i}) hold together when
 *
 *   (sum_i a_i s_i) * G - sum_i a_i * R_i - sum_j (sum_{i: k_i = j} a_i e_i) * P_j = infinity
 *
 * with R_i the even-y point of x = r_i, e_i the BIP-340 challenge and a_i weights an attacker
 * cannot steer: BIP-340's "Batch Verification" lets them come from a CSPRNG seeded with a hash
 * of all the batch's inputs, which is what nostr_schnorrsig_weights does (a_0 = 1). A batch with
 * one bad signature then passes with probability about 1/n (the curve order). Signatures under one
 * key share that key's point: a feed of 1,000 events from 200 authors is one multiplication of
 * 1,200 points and G, done by the library's ecmult_multi_var (Strauss up to 88 points, Pippenger
 * above, with the GLV split). Everything here is public data (keys, messages, signatures):
 * variable time is fine, as in the library's own verification.
 *
 * A signature whose r is not a field element or the x of a point, or whose s is not below the
 * order, fails single verification too: it is marked bad in ok[] and left out of the sum. A
 * false return says only that some other signature is bad: the caller checks them one by one
 * (secp256k1.cpp), so exactly the bad ones are named. */
struct nostr_batch_state {
  const secp256k1_ge *points;      /* R_i of the signatures in the sum, then the keys P_j */
  const secp256k1_scalar *scalars; /* -a_i, then -(sum a_i e_i) per key */
};

static int nostr_batch_point(secp256k1_scalar *sc, secp256k1_ge *pt, size_t idx, void *data) {
  const struct nostr_batch_state *st = (const struct nostr_batch_state *)data;
  *sc = st->scalars[idx];
  *pt = st->points[idx];
  return 1;
}

/* a_i for i >= 1: SHA-256(seed || i) reduced mod n (a zero, probability ~2^-256, becomes 1);
 * seed = SHA-256(tag || every (key, msg, sig) in order), so the weights depend on all inputs. */
static void nostr_batch_seed(unsigned char seed[32], const unsigned char *const *sigs, const unsigned char *const *msgs,
                             const unsigned char *const *keys32, const size_t *key_index, size_t n) {
  static const unsigned char tag[] = "nostr-agents/bip340-batch/v1";
  secp256k1_sha256 h;
  size_t i;
  secp256k1_sha256_initialize(&h);
  secp256k1_sha256_write(&h, tag, sizeof tag - 1);
  for (i = 0; i < n; i++) {
    secp256k1_sha256_write(&h, keys32[key_index[i]], 32);
    secp256k1_sha256_write(&h, msgs[i], 32);
    secp256k1_sha256_write(&h, sigs[i], 64);
  }
  secp256k1_sha256_finalize(&h, seed);
}

static void nostr_batch_weight(secp256k1_scalar *a, const unsigned char seed[32], size_t i) {
  secp256k1_sha256 h;
  unsigned char buf[40], out[32];
  int k;
  memcpy(buf, seed, 32);
  for (k = 0; k < 8; k++) buf[32 + k] = (unsigned char)((uint64_t)i >> (8 * k));
  secp256k1_sha256_initialize(&h);
  secp256k1_sha256_write(&h, buf, sizeof buf);
  secp256k1_sha256_finalize(&h, out);
  secp256k1_scalar_set_b32(a, out, NULL);
  if (secp256k1_scalar_is_zero(a)) secp256k1_scalar_set_int(a, 1);
}

/* sigs[i], msgs[i] (32 bytes): signature i; key_index[i] < n_keys picks its key among keys
 * (parsed) and keys32 (their 32 x bytes, as signed over). Sets ok[i] = 0 for the signatures that
 * cannot verify (see above), 1 for the others. Returns 1 when the others all verify, 0 when at
 * least one of them does not (or memory ran out): then check them singly. */
int nostr_schnorrsig_verify_batch(unsigned char *ok, const unsigned char *const *sigs, const unsigned char *const *msgs,
                                  const size_t *key_index, size_t n, const secp256k1_xonly_pubkey *keys,
                                  const unsigned char *const *keys32, size_t n_keys) {
  struct nostr_batch_state st;
  secp256k1_ge *points = NULL;
  secp256k1_scalar *scalars = NULL, *key_sc = NULL;
  secp256k1_scratch *scratch = NULL;
  secp256k1_scalar g_sc, a, s, e;
  secp256k1_gej sum;
  unsigned char seed[32];
  size_t i, m = 0, n_points, scratch_size;
  int result = 0;

  for (i = 0; i < n; i++) ok[i] = 1; /* until a check below says otherwise */
  if (n == 0) return 1;
  nostr_secp256k1_compute_verify_tables();
  points = (secp256k1_ge *)malloc(sizeof(*points) * (n + n_keys));
  scalars = (secp256k1_scalar *)malloc(sizeof(*scalars) * (n + n_keys));
  key_sc = (secp256k1_scalar *)malloc(sizeof(*key_sc) * n_keys);
  if (points == NULL || scalars == NULL || key_sc == NULL) goto done;
  for (i = 0; i < n_keys; i++) secp256k1_scalar_clear(&key_sc[i]);
  secp256k1_scalar_clear(&g_sc);
  nostr_batch_seed(seed, sigs, msgs, keys32, key_index, n);

  /* R_i and -a_i for the signatures that can be in the sum, packed at the front */
  for (i = 0; i < n; i++) {
    secp256k1_fe rx;
    int overflow;
    ok[i] = 0;
    if (!secp256k1_fe_set_b32(&rx, sigs[i])) continue;
    secp256k1_scalar_set_b32(&s, sigs[i] + 32, &overflow);
    if (overflow) continue;
    if (!secp256k1_ge_set_xo_var(&points[m], &rx, 0)) continue;
    ok[i] = 1;
    if (m == 0) secp256k1_scalar_set_int(&a, 1);
    else nostr_batch_weight(&a, seed, i);
    secp256k1_schnorrsig_challenge(&e, sigs[i], msgs[i], 32, keys32[key_index[i]]);
    secp256k1_scalar_mul(&s, &s, &a);
    secp256k1_scalar_add(&g_sc, &g_sc, &s);
    secp256k1_scalar_mul(&e, &e, &a);
    secp256k1_scalar_add(&key_sc[key_index[i]], &key_sc[key_index[i]], &e);
    secp256k1_scalar_negate(&scalars[m], &a);
    m++;
  }
  if (m == 0) { result = 1; goto done; }
  /* then every key with its summed -(a_i e_i) (a key whose signatures all failed above has 0) */
  for (i = 0; i < n_keys; i++) {
    if (!secp256k1_xonly_pubkey_load(secp256k1_context_static, &points[m + i], &keys[i])) goto done;
    secp256k1_scalar_negate(&scalars[m + i], &key_sc[i]);
  }
  n_points = m + n_keys;
  /* room for the algorithm ecmult_multi_var picks for this many points, in one go */
  if (n_points < ECMULT_PIPPENGER_THRESHOLD)
    scratch_size = secp256k1_strauss_scratch_size(n_points) + STRAUSS_SCRATCH_OBJECTS * ALIGNMENT;
  else
    scratch_size = secp256k1_pippenger_scratch_size(n_points, secp256k1_pippenger_bucket_window(n_points)) +
                   PIPPENGER_SCRATCH_OBJECTS * ALIGNMENT;
  scratch = secp256k1_scratch_create(&default_error_callback, scratch_size);
  if (scratch == NULL) goto done;
  st.points = points;
  st.scalars = scalars;
  if (!secp256k1_ecmult_multi_var(&default_error_callback, scratch, &sum, &g_sc, nostr_batch_point, &st, n_points)) goto done;
  result = secp256k1_gej_is_infinity(&sum);
done:
  if (scratch != NULL) secp256k1_scratch_destroy(&default_error_callback, scratch);
  free(points);
  free(scalars);
  free(key_sc);
  return result;
}
#else /* NOSTR_BATCH_VERIFY == 0 */
int nostr_schnorrsig_verify_batch(unsigned char *ok, const unsigned char *const *sigs, const unsigned char *const *msgs,
                                  const size_t *key_index, size_t n, const secp256k1_xonly_pubkey *keys,
                                  const unsigned char *const *keys32, size_t n_keys) {
  size_t i;
  (void)sigs; (void)msgs; (void)key_index; (void)keys; (void)keys32; (void)n_keys;
  for (i = 0; i < n; i++) ok[i] = 1;
  return n == 0;
}
#endif
