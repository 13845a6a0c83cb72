#include "util/errc.hpp"

#include "util/result.hpp"

namespace nostr {

const char* errc_name(errc code) {
  switch (code) {
#define NOSTR_ERRC_CASE(name, str) \
  case errc::name:                 \
    return str;
    NOSTR_ERRC_LIST(NOSTR_ERRC_CASE)
#undef NOSTR_ERRC_CASE
  }
  return "INTERNAL";
}

error make_error(errc code, const char* detail) { return error{code, detail}; }

}  // namespace nostr
