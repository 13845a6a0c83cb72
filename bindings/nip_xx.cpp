// NIP-XX glue: payload validation for now (the client and runtime machines come with the JS API).
#include <emscripten/bind.h>

#include "protocols/nip_xx/payload.hpp"
#include "support.hpp"

namespace nostr::bindings {
namespace {

// 0 when the payload is valid for the kind, else the errc value (PARSE_ERROR, INVALID_SCHEMA...).
int nipxx_validate_payload(int kind, const std::string& text) {
  auto r = nip_xx::validate_payload(kind, text);
  return r ? 0 : fail_code(r.err());
}

}  // namespace

EMSCRIPTEN_BINDINGS(nip_xx) { emscripten::function("nipxxValidatePayload", &nipxx_validate_payload); }

}  // namespace nostr::bindings
