// Secret keys held inside wasm memory behind integer handles (LocalSigner), so JS never needs to
// keep the bytes. A handle's key, and every conversation key derived from it, is wiped when the
// handle is disposed.
#pragma once
#include "crypto/secp256k1.hpp"
#include "util/result.hpp"

namespace nostr::bindings {

// The keypair behind a live handle, or nullptr.
const crypto::keypair* key_for_handle(int handle);

// The NIP-44 conversation key between a handle's secret and `peer` (x-only public key),
// derived on first use and cached with the handle. The pointer stays valid until the next call
// for the same handle or its disposal.
result<const bytes32*> conversation_key_for_handle(int handle, const bytes32& peer);

// The same key, derived without touching the cache (for one-time peers such as gift-wrap keys).
result<bytes32> conversation_key_uncached(int handle, const bytes32& peer);

}  // namespace nostr::bindings
