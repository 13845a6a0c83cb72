# libsecp256k1 and a minimal libsodium, compiled from the Debian source packages that
# scripts/setup.sh fetched (pinned versions, sha256-checked) into third_party/.
set(NOSTR_THIRD_PARTY "${CMAKE_SOURCE_DIR}/third_party" CACHE PATH "unpacked third-party sources")
set(SECP_DIR "${NOSTR_THIRD_PARTY}/secp256k1")
set(SODIUM_DIR "${NOSTR_THIRD_PARTY}/libsodium")
if(NOT EXISTS "${SECP_DIR}/src/secp256k1.c" OR NOT EXISTS "${SODIUM_DIR}/src/libsodium")
  message(FATAL_ERROR "third-party sources missing: run scripts/setup.sh first")
endif()
# libsecp256k1 builds only with our patch applied (patches/, by setup.sh, which records its SHA-256
# in .patched). Setup rewrites .ok and .patched when it unpacks or patches: reconfigure then, as
# the source lists change with the version.
file(SHA256 "${CMAKE_SOURCE_DIR}/patches/libsecp256k1-0.2.0-ct-volatile.patch" NOSTR_SECP_PATCH_SHA256)
set(NOSTR_SECP_PATCHED "")
if(EXISTS "${SECP_DIR}/.patched")
  file(STRINGS "${SECP_DIR}/.patched" NOSTR_SECP_PATCHED LIMIT_COUNT 1)
endif()
if(NOT NOSTR_SECP_PATCHED STREQUAL NOSTR_SECP_PATCH_SHA256)
  message(FATAL_ERROR "third_party/secp256k1 lacks patches/libsecp256k1-0.2.0-ct-volatile.patch: run scripts/setup.sh")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${SECP_DIR}/.ok" "${SECP_DIR}/.patched" "${SODIUM_DIR}/.ok"
  "${CMAKE_SOURCE_DIR}/patches/libsecp256k1-0.2.0-ct-volatile.patch")

# --- libsecp256k1 0.2.0 with our patch: secp256k1.c, no config header. Its precomputed tables are computed at
# start-up by our src/crypto/secp256k1_tables.c instead of being compiled in (72 KB less wasm).
# secp256k1_core.c is secp256k1.c with our own generator multiplication (see its header).
# nostr_secp256k1_settings: the compile settings of every target that compiles the library's
# sources (this library, and the constant-time checks: cmake/ctime.cmake, cmake/wasm.cmake).
function(nostr_secp256k1_settings name)
target_include_directories(${name} SYSTEM PUBLIC ${SECP_DIR}/include PRIVATE ${SECP_DIR}/src ${SECP_DIR})
# Signed digit width of our generator multiplication. Measured on wasm (sign, one key): 4 is
# ~8% slower than 5, 5 ~6% slower than 6. Since the table scan uses 128-bit lanes, 7 is ~5%
# faster than 6 (37 additions instead of 43), and 8 only ~2% faster than 7 for twice the table.
# The table is NOSTR_GEN_N x 2^(W-1) points, built by the first signature or key pair on wasm:
# at 7, 148 KB of memory and ~9-15 ms once (6: 86 KB, ~5-11 ms), in V8's baseline tier.
# (Named NOSTR_GEN_WINDOW, not the earlier NOSTR_GEN_W, so existing build trees pick up 7.)
set(NOSTR_GEN_WINDOW 7 CACHE STRING "signed digit width of our generator multiplication (3..8)")
target_compile_definitions(${name} PRIVATE NOSTR_GEN_W=${NOSTR_GEN_WINDOW})
# Table sizes cost start-up time and memory, not download size (the tables are computed).
set(NOSTR_ECMULT_WINDOW_SIZE 8 CACHE STRING "libsecp256k1 verification window (2..15), native")
# On wasm a wider window. Measured (verify, and the table computation in init(), which runs in
# V8's baseline tier): window 10 verifies ~8% faster than 8 at the same init time; 12 is no
# faster than 10 (a 128 KB table) and adds ~8 ms to init; 14 adds ~20 ms.
set(NOSTR_WASM_ECMULT_WINDOW_SIZE 10 CACHE STRING "libsecp256k1 verification window (2..15), wasm")
if(EMSCRIPTEN)
  set(NOSTR_ECMULT_WINDOW_SIZE ${NOSTR_WASM_ECMULT_WINDOW_SIZE})
endif()
set(NOSTR_ECMULT_GEN_PREC_BITS 4 CACHE STRING "libsecp256k1 signing table bits (2, 4 or 8)")
target_compile_definitions(${name} PRIVATE
  ENABLE_MODULE_SCHNORRSIG=1 ENABLE_MODULE_EXTRAKEYS=1 ENABLE_MODULE_ECDH=1
  ECMULT_WINDOW_SIZE=${NOSTR_ECMULT_WINDOW_SIZE} ECMULT_GEN_PREC_BITS=${NOSTR_ECMULT_GEN_PREC_BITS})
if(EMSCRIPTEN)
  # wasm32 has __int128 only through __multi3 calls: 64-bit limbs are ~3x faster there.
  target_compile_definitions(${name} PRIVATE USE_FORCE_WIDEMUL_INT64=1)
  # SIMD lets clang pair the 32x32->64 limb products of the field multiplication (i64x2
  # extmul): verify ~5% faster. Every engine the package targets has wasm SIMD (Node 16.4+,
  # Chrome 91+, Firefox 89+, Safari 16.4+).
  target_compile_options(${name} PRIVATE -msimd128)
endif()
target_compile_options(${name} PRIVATE -w)
endfunction()
function(nostr_add_secp256k1 name)
add_library(${name} STATIC
  ${CMAKE_SOURCE_DIR}/src/crypto/secp256k1_core.c
  ${CMAKE_SOURCE_DIR}/src/crypto/secp256k1_tables.c
  # our SHA-256 compression: here so that secp256k1_core.c (the library's own hashes) and the
  # core's hash.cpp share it
  ${CMAKE_SOURCE_DIR}/src/crypto/sha256_compress.c)
nostr_secp256k1_settings(${name})
endfunction()
nostr_add_secp256k1(secp256k1)
# The demo page's module (cmake/wasm.cmake: core-web) links a copy without the cached tables of
# recurring keys' multiples (src/crypto/secp256k1_core.c, NOSTR_KEY_TABLES): 22 KB raw / ~7 KB gz
# less WASM; a page verifies and encrypts for a handful of keys, where the tables do not pay.
if(EMSCRIPTEN)
  nostr_add_secp256k1(secp256k1_web)
  target_compile_definitions(secp256k1_web PRIVATE NOSTR_KEY_TABLES=0 NOSTR_BATCH_VERIFY=0)
  # and the library's default callbacks without fprintf (src/crypto/secp256k1_callbacks.c): no
  # printf formatter in the page's module.
  target_sources(secp256k1_web PRIVATE ${CMAKE_SOURCE_DIR}/src/crypto/secp256k1_callbacks.c)
  target_compile_definitions(secp256k1_web PRIVATE USE_EXTERNAL_DEFAULT_CALLBACKS=1)
  # nostr-agents/lite (core-lite) keeps the key tables but not batch verification: its apps
  # (signers, extensions) verify a few events at a time, and the multi-multiplication is ~7 KB gz
  # of its 120 KB budget. verifyEvents there gives the same answers through single checks.
  nostr_add_secp256k1(secp256k1_lite)
  target_compile_definitions(secp256k1_lite PRIVATE NOSTR_BATCH_VERIFY=0)
endif()

# --- libsodium 1.0.22 (Debian sid), only what the core uses: SHA-256, HMAC-SHA256, ChaCha20,
# constant-time compare; HKDF-SHA256 for the native tests' differential check of ours
# (src/crypto/hash.cpp: HKDF on our own SHA-256 compression, which stays: faster than libsodium's).
# A static library: the WASM modules link only what is called.
# 1.0.18 -> 1.0.22: crypto_verify/sodium/verify.c moved to crypto_verify/verify.c (and the AEADs'
# sodium/ subdirectories moved up the same way); HKDF (crypto_kdf/hkdf) is new; the SHA-256 code
# reads ACQUIRE_FENCE (HAVE_GCC_MEMORY_FENCES); utils.c reads HAVE_SYSCONF/HAVE_RAISE.
set(SODIUM_SRC "${SODIUM_DIR}/src/libsodium")
file(GLOB SODIUM_SOURCES
  ${SODIUM_SRC}/crypto_hash/sha256/*.c
  ${SODIUM_SRC}/crypto_hash/sha256/cp/*.c
  ${SODIUM_SRC}/crypto_auth/hmacsha256/*.c
  ${SODIUM_SRC}/crypto_kdf/hkdf/kdf_hkdf_sha256.c
  ${SODIUM_SRC}/crypto_stream/chacha20/*.c
  ${SODIUM_SRC}/crypto_stream/chacha20/ref/*.c
  ${SODIUM_SRC}/crypto_verify/*.c
  ${SODIUM_SRC}/sodium/utils.c
  ${SODIUM_SRC}/sodium/runtime.c
  ${SODIUM_SRC}/randombytes/randombytes.c
  ${SODIUM_SRC}/randombytes/sysrandom/*.c
  ${SODIUM_SRC}/randombytes/internal/*.c)
# And for NIP-49 (src/nips/nip49.cpp): scrypt's portable core and XChaCha20-Poly1305 (HChaCha20,
# Poly1305 donna). Our src/crypto/scrypt_region.c stands in for scrypt_platform.c: it wipes
# scrypt's working memory before freeing it.
file(GLOB SODIUM_NIP49_SOURCES
  ${SODIUM_SRC}/crypto_pwhash/scryptsalsa208sha256/crypto_scrypt-common.c
  ${SODIUM_SRC}/crypto_pwhash/scryptsalsa208sha256/pbkdf2-sha256.c
  ${SODIUM_SRC}/crypto_pwhash/scryptsalsa208sha256/nosse/*.c
  ${SODIUM_SRC}/crypto_aead/xchacha20poly1305/aead_xchacha20poly1305.c
  ${SODIUM_SRC}/crypto_core/hchacha20/*.c
  ${SODIUM_SRC}/crypto_onetimeauth/poly1305/onetimeauth_poly1305.c
  ${SODIUM_SRC}/crypto_onetimeauth/poly1305/donna/*.c)
list(APPEND SODIUM_SOURCES ${SODIUM_NIP49_SOURCES} ${CMAKE_SOURCE_DIR}/src/crypto/scrypt_region.c)
add_library(sodium STATIC ${SODIUM_SOURCES} ${CMAKE_SOURCE_DIR}/src/crypto/sodium_misuse.c)
target_include_directories(sodium PRIVATE ${SODIUM_SRC}/crypto_pwhash/scryptsalsa208sha256)
# version.h includes "export.h" by a relative path, so it is generated into a copy of include/.
# The version numbers come from the unpacked configure.ac (what autotools would substitute).
set(SODIUM_INC "${CMAKE_BINARY_DIR}/sodium-inc")
file(COPY ${SODIUM_SRC}/include/ DESTINATION ${SODIUM_INC})
file(STRINGS ${SODIUM_DIR}/configure.ac SODIUM_AC REGEX "^(AC_INIT|SODIUM_LIBRARY_VERSION_(MAJOR|MINOR)=)")
string(REGEX MATCH "AC_INIT\\(\\[libsodium\\],\\[([0-9.]+)\\]" _ "${SODIUM_AC}")
set(VERSION ${CMAKE_MATCH_1})
string(REGEX MATCH "SODIUM_LIBRARY_VERSION_MAJOR=([0-9]+)" _ "${SODIUM_AC}")
set(SODIUM_LIBRARY_VERSION_MAJOR ${CMAKE_MATCH_1})
string(REGEX MATCH "SODIUM_LIBRARY_VERSION_MINOR=([0-9]+)" _ "${SODIUM_AC}")
set(SODIUM_LIBRARY_VERSION_MINOR ${CMAKE_MATCH_1})
if(NOT VERSION OR NOT SODIUM_LIBRARY_VERSION_MAJOR OR NOT SODIUM_LIBRARY_VERSION_MINOR)
  message(FATAL_ERROR "libsodium version not found in ${SODIUM_DIR}/configure.ac")
endif()
set(SODIUM_LIBRARY_MINIMAL_DEF "#define SODIUM_LIBRARY_MINIMAL 1")
configure_file(${SODIUM_SRC}/include/sodium/version.h.in ${SODIUM_INC}/sodium/version.h @ONLY)
# Only the umbrella-free headers are public: include/sodium has core.h, utils.h... that would
# clash with project headers, so callers include "sodium/crypto_*.h" by path.
target_include_directories(sodium SYSTEM PUBLIC ${SODIUM_INC} PRIVATE ${SODIUM_INC}/sodium)
# What libsodium's configure defines on these targets (--enable-minimal). No HAVE_*INTRIN_H: the
# SSE/AVX files compile to nothing, the portable C code runs on both targets.
target_compile_definitions(sodium PUBLIC SODIUM_STATIC=1
  PRIVATE CONFIGURED=1 MINIMAL=1 NATIVE_LITTLE_ENDIAN=1 HAVE_STDINT_H=1 HAVE_INTTYPES_H=1
  HAVE_GCC_MEMORY_FENCES=1)
if(NOT EMSCRIPTEN)
  target_compile_definitions(sodium PRIVATE HAVE_TI_MODE=1 HAVE_PTHREAD=1 HAVE_SYS_RANDOM_H=1 HAVE_GETRANDOM=1
    HAVE_SYSCONF=1 HAVE_RAISE=1 HAVE_SYS_PARAM_H=1)
endif()
target_compile_options(sodium PRIVATE -w)

# --- nlohmann/json from Debian. Under emcmake find_package only searches the Emscripten sysroot,
# so the headers are copied into the build tree (never into the repository).
add_library(nlohmann_json_headers INTERFACE)
if(EMSCRIPTEN)
  file(COPY /usr/include/nlohmann DESTINATION ${CMAKE_BINARY_DIR}/nlohmann-inc)
  target_include_directories(nlohmann_json_headers SYSTEM INTERFACE ${CMAKE_BINARY_DIR}/nlohmann-inc)
else()
  find_package(nlohmann_json 3.11 CONFIG REQUIRED)
  target_link_libraries(nlohmann_json_headers INTERFACE nlohmann_json::nlohmann_json)
endif()
target_compile_definitions(nlohmann_json_headers INTERFACE JSON_NOEXCEPTION=1)
