/* libsecp256k1's default illegal-argument and error callbacks without stdio, for the demo page's
 * module (cmake/third_party.cmake: secp256k1_web, USE_EXTERNAL_DEFAULT_CALLBACKS). The library's
 * own print the message with fprintf(stderr) before abort(), which links printf's formatter
 * (~5 KB of WASM, ~2 KB gz) into a module that otherwise formats nothing. They only run on a
 * misuse of the library's API (a bug of ours, never input), so abort() alone says enough. */
#include <stdlib.h>

void secp256k1_default_illegal_callback_fn(const char *str, void *data);
void secp256k1_default_error_callback_fn(const char *str, void *data);

void secp256k1_default_illegal_callback_fn(const char *str, void *data) {
  (void)str;
  (void)data;
  abort();
}

void secp256k1_default_error_callback_fn(const char *str, void *data) {
  (void)str;
  (void)data;
  abort();
}
