#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh Debian 12 machine or a warm one.
# Idempotent: each step checks first, so a second run costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tp="$root/third_party"
mkdir -p "$tp"

SECP_VERSION=0.2.0-2
SODIUM_VERSION=1.0.18-1+deb12u1
SECP_ORIG_SHA256=07c1d76fc485936138c6572e94374df22ba41df06617926572b8a690fe8bc34b
SODIUM_ORIG_SHA256=d59323c6b712a1519a5daf710b68f5e7fde57040845ffec53850911f10a5d4f4

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
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_pkgs[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

# Third-party C sources: Debian source packages, pinned versions, checked against pinned sha256.
fetch_source() { # name version dir sha256 origfile
  local name=$1 version=$2 dir=$3 sha=$4 orig=$5
  if [ -f "$tp/$dir/.ok" ]; then return; fi
  if [ ! -f /etc/apt/sources.list.d/zz-nostr-agents-debsrc.sources ]; then
    cat <<SRC | as_root tee /etc/apt/sources.list.d/zz-nostr-agents-debsrc.sources >/dev/null
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
  touch "$tp/$dir/.ok"
  echo "setup: $name $version unpacked into third_party/$dir (sha256 ok)"
}
fetch_source libsecp256k1 "$SECP_VERSION" secp256k1 "$SECP_ORIG_SHA256" libsecp256k1_0.2.0.orig.tar.xz
fetch_source libsodium "$SODIUM_VERSION" libsodium "$SODIUM_ORIG_SHA256" libsodium_1.0.18.orig.tar.gz

# npm devDependencies, reinstalled only when the lock file changed.
if [ -f package-lock.json ]; then
  lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat node_modules/.lock-sum 2>/dev/null)" != "$lock_sum" ]; then
    # better-sqlite3 builds from source against the system Node headers: no prebuilt download.
    npm_config_nodedir=/usr npm_config_build_from_source=true npm ci --no-audit --no-fund --loglevel=error
    echo "$lock_sum" > node_modules/.lock-sum
  fi
fi
