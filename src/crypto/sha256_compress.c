/* See sha256_compress.h. Written from FIPS 180-4: 4.1.2 (functions), 4.2.2 (constants),
 * 6.2.2 (the compression). Rounds 0-15 are listed one per line (constant, message word); rounds
 * 16-63 are one 16-round body run three times (the schedule ring and the variable renaming both
 * repeat every 16 rounds), which keeps the wasm ~half the size of 64 unrolled rounds. */
#include "sha256_compress.h"


static inline uint32_t nostr_rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t nostr_load_be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

#define NOSTR_SHA256_BSIG0(x) (nostr_rotr((x), 2) ^ nostr_rotr((x), 13) ^ nostr_rotr((x), 22))
#define NOSTR_SHA256_BSIG1(x) (nostr_rotr((x), 6) ^ nostr_rotr((x), 11) ^ nostr_rotr((x), 25))
#define NOSTR_SHA256_SSIG0(x) (nostr_rotr((x), 7) ^ nostr_rotr((x), 18) ^ ((x) >> 3))
#define NOSTR_SHA256_SSIG1(x) (nostr_rotr((x), 17) ^ nostr_rotr((x), 19) ^ ((x) >> 10))

/* W[t] = ssig1(W[t-2]) + W[t-7] + ssig0(W[t-15]) + W[t-16], in place of W[t-16] (a ring of 16). */
#define NOSTR_SHA256_SCHED(w, w2, w7, w15) ((w) += NOSTR_SHA256_SSIG1(w2) + (w7) + NOSTR_SHA256_SSIG0(w15))

/* One round. The roles rotate by renaming: the caller passes the variables shifted by one each
 * round, so d and h are the only ones written. */
#define NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, k, w)                                 \
  do {                                                                                 \
    uint32_t t1_ = (h) + NOSTR_SHA256_BSIG1(e) + ((g) ^ ((e) & ((f) ^ (g)))) + (k) + (w); \
    uint32_t t2_ = NOSTR_SHA256_BSIG0(a) + (((a) & (b)) | ((c) & ((a) | (b))));           \
    (d) += t1_;                                                                        \
    (h) = t1_ + t2_;                                                                   \
  } while (0)

static const uint32_t nostr_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

void nostr_sha256_compress(uint32_t s[8], const unsigned char *p, size_t nblocks) {
  uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  for (; nblocks > 0; nblocks--, p += 64) {
    uint32_t w0 = nostr_load_be32(p), w1 = nostr_load_be32(p + 4), w2 = nostr_load_be32(p + 8),
             w3 = nostr_load_be32(p + 12), w4 = nostr_load_be32(p + 16), w5 = nostr_load_be32(p + 20),
             w6 = nostr_load_be32(p + 24), w7 = nostr_load_be32(p + 28), w8 = nostr_load_be32(p + 32),
             w9 = nostr_load_be32(p + 36), w10 = nostr_load_be32(p + 40), w11 = nostr_load_be32(p + 44),
             w12 = nostr_load_be32(p + 48), w13 = nostr_load_be32(p + 52), w14 = nostr_load_be32(p + 56),
             w15 = nostr_load_be32(p + 60);
    const uint32_t a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
    NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, 0x428a2f98u, w0);
    NOSTR_SHA256_ROUND(h, a, b, c, d, e, f, g, 0x71374491u, w1);
    NOSTR_SHA256_ROUND(g, h, a, b, c, d, e, f, 0xb5c0fbcfu, w2);
    NOSTR_SHA256_ROUND(f, g, h, a, b, c, d, e, 0xe9b5dba5u, w3);
    NOSTR_SHA256_ROUND(e, f, g, h, a, b, c, d, 0x3956c25bu, w4);
    NOSTR_SHA256_ROUND(d, e, f, g, h, a, b, c, 0x59f111f1u, w5);
    NOSTR_SHA256_ROUND(c, d, e, f, g, h, a, b, 0x923f82a4u, w6);
    NOSTR_SHA256_ROUND(b, c, d, e, f, g, h, a, 0xab1c5ed5u, w7);
    NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, 0xd807aa98u, w8);
    NOSTR_SHA256_ROUND(h, a, b, c, d, e, f, g, 0x12835b01u, w9);
    NOSTR_SHA256_ROUND(g, h, a, b, c, d, e, f, 0x243185beu, w10);
    NOSTR_SHA256_ROUND(f, g, h, a, b, c, d, e, 0x550c7dc3u, w11);
    NOSTR_SHA256_ROUND(e, f, g, h, a, b, c, d, 0x72be5d74u, w12);
    NOSTR_SHA256_ROUND(d, e, f, g, h, a, b, c, 0x80deb1feu, w13);
    NOSTR_SHA256_ROUND(c, d, e, f, g, h, a, b, 0x9bdc06a7u, w14);
    NOSTR_SHA256_ROUND(b, c, d, e, f, g, h, a, 0xc19bf174u, w15);
    for (const uint32_t *k = nostr_sha256_k + 16; k < nostr_sha256_k + 64; k += 16) {
      NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, k[0], NOSTR_SHA256_SCHED(w0, w14, w9, w1));
      NOSTR_SHA256_ROUND(h, a, b, c, d, e, f, g, k[1], NOSTR_SHA256_SCHED(w1, w15, w10, w2));
      NOSTR_SHA256_ROUND(g, h, a, b, c, d, e, f, k[2], NOSTR_SHA256_SCHED(w2, w0, w11, w3));
      NOSTR_SHA256_ROUND(f, g, h, a, b, c, d, e, k[3], NOSTR_SHA256_SCHED(w3, w1, w12, w4));
      NOSTR_SHA256_ROUND(e, f, g, h, a, b, c, d, k[4], NOSTR_SHA256_SCHED(w4, w2, w13, w5));
      NOSTR_SHA256_ROUND(d, e, f, g, h, a, b, c, k[5], NOSTR_SHA256_SCHED(w5, w3, w14, w6));
      NOSTR_SHA256_ROUND(c, d, e, f, g, h, a, b, k[6], NOSTR_SHA256_SCHED(w6, w4, w15, w7));
      NOSTR_SHA256_ROUND(b, c, d, e, f, g, h, a, k[7], NOSTR_SHA256_SCHED(w7, w5, w0, w8));
      NOSTR_SHA256_ROUND(a, b, c, d, e, f, g, h, k[8], NOSTR_SHA256_SCHED(w8, w6, w1, w9));
      NOSTR_SHA256_ROUND(h, a, b, c, d, e, f, g, k[9], NOSTR_SHA256_SCHED(w9, w7, w2, w10));
      NOSTR_SHA256_ROUND(g, h, a, b, c, d, e, f, k[10], NOSTR_SHA256_SCHED(w10, w8, w3, w11));
      NOSTR_SHA256_ROUND(f, g, h, a, b, c, d, e, k[11], NOSTR_SHA256_SCHED(w11, w9, w4, w12));
      NOSTR_SHA256_ROUND(e, f, g, h, a, b, c, d, k[12], NOSTR_SHA256_SCHED(w12, w10, w5, w13));
      NOSTR_SHA256_ROUND(d, e, f, g, h, a, b, c, k[13], NOSTR_SHA256_SCHED(w13, w11, w6, w14));
      NOSTR_SHA256_ROUND(c, d, e, f, g, h, a, b, k[14], NOSTR_SHA256_SCHED(w14, w12, w7, w15));
      NOSTR_SHA256_ROUND(b, c, d, e, f, g, h, a, k[15], NOSTR_SHA256_SCHED(w15, w13, w8, w0));
    }
    a += a0;
    b += b0;
    c += c0;
    d += d0;
    e += e0;
    f += f0;
    g += g0;
    h += h0;
  }
  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
  s[4] = e;
  s[5] = f;
  s[6] = g;
  s[7] = h;
}
