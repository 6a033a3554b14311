#!/usr/bin/env bash
# One entry point for people and CI:
#   scripts/dev.sh demo    install what is missing, build, open the explorer on the bundled demo
#   scripts/dev.sh test    install what is missing, build with warnings as errors, run every test
#   scripts/dev.sh deps    only install the Debian packages
# Set HIERA_NO_APT=1 to skip apt-get (for machines where you manage packages yourself).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HIERA_BUILD_DIR:-$here/build}
jobs=$(nproc 2>/dev/null || echo 2)

packages=(cmake ninja-build g++ pkg-config python3 libyaml-cpp-dev libonig-dev qt6-base-dev qt6-base-dev-tools libgl-dev
          libgoogle-perftools-dev clang libclang-rt-14-dev)

deps() {
  [ "${HIERA_NO_APT:-0}" = 1 ] && return 0
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "Installing: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  local dir=$1; shift
  cmake -S "$here" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

run_tests() {
  echo "== Build (warnings are errors) and unit tests"
  configure_and_build "$build" -DHIERA_WARNINGS_AS_ERRORS=ON
  ctest --test-dir "$build" --output-on-failure -j "$jobs"

  echo "== Conformance (public cases, expected results from Puppet 7.23)"
  if [ -d "$here/../shared/conformance" ]; then
    local out
    out=$(HIERA_CACHE_DIR= python3 "$here/../shared/conformance/run.py" --cli "$build/app/hiera-lookup/hiera-lookup" 2>&1) || true
    echo "$out"
    echo "$out" | tail -1 | grep -Eq '^[0-9]+ passed, 0 failed$' || { echo "conformance failures"; return 1; }
  else
    echo "(../shared/conformance not found: skipped)"
  fi

  echo "== AddressSanitizer + UndefinedBehaviorSanitizer build of the whole suite"
  configure_and_build "$build-asan" -DHIERA_SANITIZE=ON -DHIERA_WARNINGS_AS_ERRORS=ON
  # Leaks are checked in the engine's tests; Qt and fontconfig keep process-lifetime allocations
  # that LeakSanitizer would report in the UI tests.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build-asan" --output-on-failure -j "$jobs" -L engine
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build-asan" --output-on-failure -j "$jobs" -L ui

  if [ -f "$here/fuzz/smoke.sh" ]; then
    echo "== Fuzzing smoke run (libFuzzer)"
    bash "$here/fuzz/smoke.sh"
  fi
}

case "${1:-}" in
  deps) deps ;;
  demo)
    deps
    configure_and_build "$build"
    exec "$build/app/hiera-explorer/hiera-explorer" "$here/resources/demo/hiera.yaml" \
      --facts "$here/resources/demo/facts/web01.example.com.yaml" --key profile::ntp ;;
  test) deps; run_tests ;;
  *) echo "usage: $0 demo|test|deps" >&2; exit 2 ;;
esac
