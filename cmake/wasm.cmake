# The WASM module: the core plus the Embind glue in bindings/, as an ES module factory
# (createCore) and a .wasm beside it, written to dist/. A SINGLE_FILE twin embeds the .wasm
# for bundlers that do not copy assets.
file(GLOB NOSTR_BINDING_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/bindings/*.cpp)
set(NOSTR_DIST_DIR "${CMAKE_SOURCE_DIR}/dist" CACHE PATH "where the built module goes")

set(NOSTR_WASM_LINK_FLAGS
  -O3 --bind -fno-exceptions
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createCore
  # web,worker only: the Node entry passes wasmBinary itself (with node here, the ES6 output
  # references __dirname, which ESM does not have).
  -sENVIRONMENT=web,worker
  -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1
  -sDYNAMIC_EXECUTION=0
  -sEXPORTED_RUNTIME_METHODS=[]
  # Size (measured in README "Speed and size"): link-time optimization across the core and the
  # glue, no RTTI (Embind then names types without typeinfo; the glue has no polymorphism), and
  # emmalloc instead of dlmalloc.
  -flto -fno-rtti -sMALLOC=emmalloc
)
# Compile options of everything that goes into the modules (the core and the glue); secp256k1 and
# libsodium keep their own (cmake/third_party.cmake).
set(NOSTR_WASM_COMPILE_OPTIONS -Wall -Wextra -fno-exceptions -flto -fno-rtti -DEMSCRIPTEN_HAS_UNBOUND_TYPE_NAMES=0)

# The split modules' loaders export wasmUrl(): `new URL('./<name>.wasm', import.meta.url)`, in
# the loader beside the .wasm (cmake/wasm_url.js.in), instead of emcc's own lookup.
function(nostr_wasm_url target wasm_file)
  set(NOSTR_WASM_FILE ${wasm_file})
  set(post_js ${CMAKE_BINARY_DIR}/${target}-wasm-url.js)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/wasm_url.js.in ${post_js} @ONLY)
  target_link_options(${target} PRIVATE --extern-post-js ${post_js} -sUSE_ES6_IMPORT_META=0)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${post_js})
endfunction()

foreach(variant core core-single)
  add_executable(${variant} ${NOSTR_BINDING_SOURCES})
  target_link_libraries(${variant} PRIVATE nostr_core secp256k1 sodium)
  target_compile_options(${variant} PRIVATE ${NOSTR_WASM_COMPILE_OPTIONS})
  target_link_options(${variant} PRIVATE ${NOSTR_WASM_LINK_FLAGS})
  set_target_properties(${variant} PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${NOSTR_DIST_DIR})
endforeach()
target_link_options(core-single PRIVATE -sSINGLE_FILE=1)
nostr_wasm_url(core core.wasm)

# The lite module (subpath export `nostr-agents/lite`): keys, events, NIP-19/44/59/13/40 and the
# signers, without the relay codec and the NIP-XX/AGX protocol layers, for apps that only sign,
# verify and encrypt. An explicit list, so new protocol binding files stay out of it.
set(NOSTR_LITE_BINDING_SOURCES)
foreach(name support keys event event_batch event_finalize event_text nip13 nip19 nip19_encode nip40 nip44
    nip44_secret nip59 nip59_seal wrap_inputs
    nip04)  # of issue 22's NIPs, what signers need (README "The nostr-tools modules": why, and sizes)
  list(APPEND NOSTR_LITE_BINDING_SOURCES ${CMAKE_SOURCE_DIR}/bindings/${name}.cpp)
endforeach()
add_executable(core-lite ${NOSTR_LITE_BINDING_SOURCES})
target_link_libraries(core-lite PRIVATE nostr_core secp256k1_lite sodium)
target_compile_options(core-lite PRIVATE ${NOSTR_WASM_COMPILE_OPTIONS})
target_link_options(core-lite PRIVATE ${NOSTR_WASM_LINK_FLAGS})
set_target_properties(core-lite PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${NOSTR_DIST_DIR})
nostr_wasm_url(core-lite core-lite.wasm)
# The built demo page's module (`npm run build:demo` ships it as the page's core.wasm; not in the
# npm package): the bindings the page's code path calls, without what only servers and other apps
# use (NIP-XX serveAgent's run machine and admission gate, the relay frame decoders, NIP-13,
# NIP-40, the NIP-19 TLV encoders, filter matching and verification on JSON text, AGX relay policy
# and capability matching, AGX's serving side: the page's AgxRequester serves no task; signing,
# sealing and NIP-44 with a raw key: the page's keys are LocalSigner handles or the extension's;
# verifyEvents, bindings/event_batch.cpp: the page verifies one event at a time). An
# explicit list; scripts/build-demo.mjs checks that the page's bundle names none of the functions
# it lacks.
set(NOSTR_WEB_BINDING_SOURCES)
foreach(name support keys event nip19 nip44 nip59 wrap_inputs relay nip_xx)
  list(APPEND NOSTR_WEB_BINDING_SOURCES ${CMAKE_SOURCE_DIR}/bindings/${name}.cpp)
endforeach()
add_executable(core-web ${NOSTR_WEB_BINDING_SOURCES})
target_link_libraries(core-web PRIVATE nostr_core secp256k1_web sodium)
target_compile_options(core-web PRIVATE ${NOSTR_WASM_COMPILE_OPTIONS})
# Its loader reads no Module option but wasmBinary (build-demo loads it in Node to check it) and
# instantiateWasm (the page's entry fetches the .wasm itself, js/load-wasm.js; the page also passes
# getRandomValue, which libsodium reads itself) and keeps no errno: 0.3 KB gz.
# The page runs in a window, never a worker, and every browser it runs in has TextDecoder (the
# package's JS needs it too): no worker branch, no JS UTF-8 decoder fallback, 0.2 KB gz. Measured
# and left out: -sWASM_BIGINT (loader -12 B, wasm +78 B gz), -sSUPPORT_LONGJMP=0, -sPOLYFILL=0,
# -sSTRICT, the MIN_*_VERSION settings (no change); -sDECLARE_ASM_MODULE_EXPORTS=0 does not link
# with MODULARIZE.
# Links at -Os (the later flag wins over the shared -O3): 1.5 KB gz less; the page's speed
# targets are ready-to-chat and first-token times, which did not move (README "The demo").
target_link_options(core-web PRIVATE ${NOSTR_WASM_LINK_FLAGS} -sINCOMING_MODULE_JS_API=[wasmBinary,instantiateWasm] -sSUPPORT_ERRNO=0
  -sENVIRONMENT=web -sTEXTDECODER=2 -Os)
set_target_properties(core-web PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${NOSTR_DIST_DIR})
nostr_wasm_url(core-web core-web.wasm)
# The demo page's NIP-49 module (`npm run build:demo` ships it as nip49.wasm, fetched only when
# the user remembers a key or unlocks a remembered one): scrypt and XChaCha20-Poly1305 stay out of
# the page's core.wasm, and scrypt's 64 MiB go with this instance when the page drops it.
add_executable(core-nip49 ${CMAKE_SOURCE_DIR}/bindings/support.cpp ${CMAKE_SOURCE_DIR}/bindings/nip49.cpp)
target_link_libraries(core-nip49 PRIVATE nostr_core sodium)
target_compile_options(core-nip49 PRIVATE ${NOSTR_WASM_COMPILE_OPTIONS})
target_link_options(core-nip49 PRIVATE ${NOSTR_WASM_LINK_FLAGS} -sINCOMING_MODULE_JS_API=[wasmBinary] -sSUPPORT_ERRNO=0
  -sENVIRONMENT=web -sTEXTDECODER=2 -Os)
set_target_properties(core-nip49 PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${NOSTR_DIST_DIR})
# The demo page's AGX module (`npm run build:demo` ships it as agx.wasm, fetched with agx-lazy.js
# when the AGX panel is first used): the AGX bindings and NIP-59's rumor check, with their own copy
# of the crypto. core-web links without them (-43 KB gz, docs/performance.md). Its code holds no
# key of the page: a LocalSigner's handle is only good in the module that made it, so AGX reaches
# the page's key through the Signer methods (js/signer.js, js/agx/util.js).
add_executable(core-agx)
foreach(name support keys nip59 wrap_inputs agx agx_routes)
  target_sources(core-agx PRIVATE ${CMAKE_SOURCE_DIR}/bindings/${name}.cpp)
endforeach()
target_link_libraries(core-agx PRIVATE nostr_core secp256k1_web sodium)
target_compile_options(core-agx PRIVATE ${NOSTR_WASM_COMPILE_OPTIONS})
target_link_options(core-agx PRIVATE ${NOSTR_WASM_LINK_FLAGS} -sINCOMING_MODULE_JS_API=[wasmBinary,instantiateWasm] -sSUPPORT_ERRNO=0
  -sENVIRONMENT=web -sTEXTDECODER=2 -Os)
set_target_properties(core-agx PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${NOSTR_DIST_DIR})
nostr_wasm_url(core-agx core-agx.wasm)
target_compile_options(nostr_core PRIVATE -O3 -flto -fno-rtti)

# Size where speed does not matter: protocol logic, relay frames, NIP-19 and the Embind glue are
# JSON and string handling around the crypto, so they build with -Oz; the crypto, hashing, NIP-44,
# NIP-13 mining and event serialization stay -O3 (TOOLCHAIN.md: -Oz costs the hash loops 8x).
file(GLOB_RECURSE NOSTR_SIZE_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/src/protocols/*.cpp
  ${CMAKE_SOURCE_DIR}/src/relay/*.cpp)
list(APPEND NOSTR_SIZE_SOURCES
  ${CMAKE_SOURCE_DIR}/src/nips/nip19.cpp ${CMAKE_SOURCE_DIR}/src/nips/bech32.cpp
  ${CMAKE_SOURCE_DIR}/src/nips/nip40.cpp ${CMAKE_SOURCE_DIR}/src/event/filter.cpp
  # The JSON DOM (src/json, what the relay codec and the protocols read): -Oz saves 1.5 KB gz, the
  # relay feed within the noise of interleaved runs (BIP-340 verify dominates it).
  ${CMAKE_SOURCE_DIR}/src/json/value.cpp
  # NIP-59's own code is JSON around NIP-44 and two signatures (which stay -O3): -Oz saves 4.6 KB gz,
  # gift wrap and unwrap within the noise of interleaved bench runs.
  ${CMAKE_SOURCE_DIR}/src/nips/nip59.cpp
  # Tags, URIs, content and JSON around NIP-19 and the event checks (issue 22's NIPs).
  ${CMAKE_SOURCE_DIR}/src/nips/nip04.cpp ${CMAKE_SOURCE_DIR}/src/nips/nip05.cpp
  ${CMAKE_SOURCE_DIR}/src/nips/nip10.cpp ${CMAKE_SOURCE_DIR}/src/nips/nip21.cpp
  ${CMAKE_SOURCE_DIR}/src/nips/nip27.cpp ${CMAKE_SOURCE_DIR}/src/nips/nip98.cpp
  ${NOSTR_BINDING_SOURCES})
set_source_files_properties(${NOSTR_SIZE_SOURCES} PROPERTIES COMPILE_OPTIONS "-Oz")

# The constant-time probes (tests/ctime/wasm_probe.c): libsecp256k1's selects and table scans and
# ours, each an exported function, compiled with the secp256k1 target's settings and linked at
# the modules' -O3 (the same clang and binaryen passes). tests/js/ctime-wasm.test.js disassembles
# the result (wabt) and fails on any branch, select or address that depends on a secret. Not
# shipped: written to build/wasm/ctime/.
add_executable(ctime_probe ${CMAKE_SOURCE_DIR}/tests/ctime/wasm_probe.c
  ${CMAKE_SOURCE_DIR}/src/crypto/secp256k1_tables.c ${CMAKE_SOURCE_DIR}/src/crypto/sha256_compress.c)
nostr_secp256k1_settings(ctime_probe)
target_include_directories(ctime_probe PRIVATE ${CMAKE_SOURCE_DIR}/src/crypto)
target_link_options(ctime_probe PRIVATE -O3 --no-entry -sFILESYSTEM=0)
set_target_properties(ctime_probe PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/ctime)
