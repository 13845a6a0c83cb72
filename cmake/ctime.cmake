# Constant-time checks under valgrind, native, with clang-14 (the compiler of our Emscripten): a
# build tree of its own (scripts/test.sh: CC=clang-14 cmake -DNOSTR_CTIME=ON -B build/ctime),
# which builds only these. Secret inputs are marked undefined memory; valgrind's memcheck then
# reports any branch or memory address that depends on them (--error-exitcode fails the test).
# - valgrind_ctime_test: libsecp256k1 0.2.0's own test (third_party, unchanged), linked against
#   our build of the library (secp256k1_core.c: its key generation and signing run our generator
#   multiplication);
# - ctime_test: our own constant-time paths (tests/ctime/ctime_test.c).
# Each twice: 64-bit limbs (the native build) and USE_FORCE_WIDEMUL_INT64 (32-bit limbs: the field
# and scalar code of the WASM build). The library is built with VALGRIND so that it declassifies
# what it makes public (SECP256K1_CONTEXT_DECLASSIFY).
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "NOSTR_CTIME needs clang (CC=clang-14 CXX=clang++-14)")
endif()
find_program(NOSTR_VALGRIND valgrind REQUIRED)
find_path(NOSTR_VALGRIND_INCLUDE valgrind/memcheck.h REQUIRED)
enable_testing()
add_custom_target(ctime_checks)
foreach(limbs 64 32)
  nostr_add_secp256k1(secp256k1_ctime${limbs})
  set_target_properties(secp256k1_ctime${limbs} PROPERTIES EXCLUDE_FROM_ALL ON)
  target_compile_definitions(secp256k1_ctime${limbs} PRIVATE VALGRIND=1)
  target_include_directories(secp256k1_ctime${limbs} PRIVATE ${NOSTR_VALGRIND_INCLUDE})
  if(limbs EQUAL 32)
    target_compile_definitions(secp256k1_ctime${limbs} PRIVATE USE_FORCE_WIDEMUL_INT64=1)
  endif()
  foreach(test valgrind_ctime_test ctime_test)
    set(exe ${test}_${limbs})
    if(test STREQUAL valgrind_ctime_test)
      add_executable(${exe} EXCLUDE_FROM_ALL ${SECP_DIR}/src/valgrind_ctime_test.c)
      nostr_secp256k1_settings(${exe}) # its #ifdef ENABLE_MODULE_* and internal includes
    else()
      add_executable(${exe} EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/ctime/ctime_test.c)
    endif()
    target_include_directories(${exe} PRIVATE ${NOSTR_VALGRIND_INCLUDE})
    target_link_libraries(${exe} PRIVATE secp256k1_ctime${limbs})
    add_dependencies(ctime_checks ${exe})
    add_test(NAME ctime.${exe} COMMAND ${NOSTR_VALGRIND} -q --error-exitcode=42 $<TARGET_FILE:${exe}>)
  endforeach()
endforeach()
