/* libsodium's core.c (sodium_init and friends) would link in every primitive, so only the four
 * primitives NIP-44 needs are compiled (cmake/third_party.cmake), with this file in their library.
 * They report API misuse, such as a length past their limit, through sodium_misuse(), which core.c
 * would define. It must not return. */
#include <stdlib.h>

void sodium_misuse(void) { abort(); }
