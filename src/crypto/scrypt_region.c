/* The working memory of libsodium's scrypt (crypto_pwhash/scryptsalsa208sha256): B (the password's
 * PBKDF2 output), V and XY. libsodium's scrypt_platform.c frees it unwiped; this file stands in
 * for it (cmake/third_party.cmake compiles this instead of that one): the same functions, with the
 * region zeroed before it is freed, so no password-derived state is left in the heap (on WASM, in
 * linear memory that any later code can read). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "crypto_scrypt.h"
#include "utils.h"

static void *region_alloc(escrypt_region_t *region, size_t size) {
  uint8_t *base = NULL;
  uint8_t *aligned = NULL;
  if (size + 63 < size) {
    errno = ENOMEM;
  } else if ((base = (uint8_t *)malloc(size + 63)) != NULL) {
    aligned = base + 63;
    aligned -= (uintptr_t)aligned & 63;
  }
  region->base = base;
  region->aligned = aligned;
  region->size = base ? size : 0;
  return aligned;
}

static int region_free(escrypt_region_t *region) {
  if (region->base) {
    sodium_memzero(region->base, region->size + 63);
    free(region->base);
  }
  region->base = region->aligned = NULL;
  region->size = 0;
  return 0;
}

void *escrypt_alloc_region(escrypt_region_t *region, size_t size) { return region_alloc(region, size); }
int escrypt_free_region(escrypt_region_t *region) { return region_free(region); }

int escrypt_init_local(escrypt_local_t *local) {
  local->base = local->aligned = NULL;
  local->size = 0;
  return 0;
}

int escrypt_free_local(escrypt_local_t *local) { return region_free(local); }
