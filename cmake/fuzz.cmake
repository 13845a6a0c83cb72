# libFuzzer targets for every parser fed by the network (tests/fuzz/<target>.cpp), native only,
# clang-14 with ASan + UBSan (configure with -DNOSTR_SANITIZE=ON -DNOSTR_FUZZ=ON; scripts/fuzz.sh
# does). The core is compiled with coverage instrumentation (fuzzer-no-link); secp256k1 and
# libsodium are not, so the fuzzer's feedback stays on our own code.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "NOSTR_FUZZ needs clang (CC=clang-14 CXX=clang++-14)")
endif()
target_compile_options(nostr_core PRIVATE -fsanitize=fuzzer-no-link)

file(GLOB NOSTR_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/*.cpp)
add_custom_target(fuzz_targets)
foreach(src ${NOSTR_FUZZ_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(fuzz_${name} ${src})
  target_include_directories(fuzz_${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
  target_link_libraries(fuzz_${name} PRIVATE nostr_core secp256k1 sodium nlohmann_json_headers)
  target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer -fno-exceptions)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  add_dependencies(fuzz_targets fuzz_${name})
endforeach()
