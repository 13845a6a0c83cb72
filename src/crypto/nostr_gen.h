/* Our generator multiplication's shape (src/crypto/secp256k1_core.c): signed odd digits of
 * NOSTR_GEN_W bits, NOSTR_GEN_N of them (W*N >= 256), 2^(W-1) table points per digit. */
#ifndef NOSTR_GEN_H
#define NOSTR_GEN_H
#ifndef NOSTR_GEN_W
#define NOSTR_GEN_W 7
#endif
#define NOSTR_GEN_N ((256 + NOSTR_GEN_W - 1) / NOSTR_GEN_W)
#define NOSTR_GEN_HALF (1 << (NOSTR_GEN_W - 1))
void nostr_gen_compute_table(void);
#endif
