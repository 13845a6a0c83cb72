// Secret keys held inside wasm memory behind integer handles (LocalSigner), so JS never needs to
// keep the bytes. A handle's key is wiped when it is disposed.
#pragma once
#include "crypto/secp256k1.hpp"

namespace nostr::bindings {

// The keypair behind a live handle, or nullptr.
const crypto::keypair* key_for_handle(int handle);

}  // namespace nostr::bindings
