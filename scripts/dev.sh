#!/usr/bin/env bash
# One entry point for people and CI:
#   scripts/dev.sh demo    install what is missing, build, open the explorer on the bundled demo
#   scripts/dev.sh test    install what is missing, build with warnings as errors, run every test
#   scripts/dev.sh check   the quick tier, after each change: incremental build, every Qt Test suite
#                          (the format and rooms checks among them), the conformance cases
#   scripts/dev.sh deps    only install the Debian packages
#   scripts/dev.sh package build the .deb packages (hiera-explorer, libhiera-engine-dev) and check them
# Set HIERA_NO_APT=1 to skip apt-get (for machines where you manage packages yourself); the packages
# are then checked in a scratch root instead of being installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HIERA_BUILD_DIR:-$here/build}
jobs=$(nproc 2>/dev/null || echo 2)

packages=(cmake ninja-build g++ pkg-config python3 libyaml-cpp-dev libonig-dev libssl-dev libgit2-dev git qt6-base-dev qt6-base-dev-tools libgl-dev
          libgoogle-perftools-dev clang libclang-rt-14-dev clang-format ccache
          dpkg-dev file desktop-file-utils appstream)

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

# Stage times: each stage of `test` is timed, and the table (with the compiler cache's hit rate over
# the run) is printed at the end, also when a stage fails (docs/ci.md).
stage_rows=()
stage_name=""
stage_start=0
stage() {
  stage_end
  stage_name=$1
  stage_start=$SECONDS
  echo "== $1"
}
stage_end() {
  if [ -n "$stage_name" ]; then
    stage_rows+=("$(printf '%-64s %5d s' "$stage_name" $((SECONDS - stage_start)))")
  fi
  stage_name=""
}
ccache_counts() {
  # "hits misses" of the compiler cache so far (ccache 4: direct and preprocessed hits, misses).
  command -v ccache >/dev/null || return 0
  ccache --print-stats 2>/dev/null | awk -F'\t' '
    $1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2} $1=="cache_miss"{m+=$2} END{print h+0, m+0}'
}
ccache_before=""
print_stage_table() {
  local status=$?
  local failed=$stage_name
  stage_end
  [ ${#stage_rows[@]} -eq 0 ] && return "$status"
  echo
  echo "== Stage times"
  printf '%s\n' "${stage_rows[@]}"
  [ -n "$failed" ] && [ "$status" -ne 0 ] && echo "(failed in: $failed)"
  printf '%-64s %5d s\n' "total" "$SECONDS"
  if [ -n "$ccache_before" ]; then
    local after h0 m0 h1 m1
    after=$(ccache_counts)
    read -r h0 m0 <<<"$ccache_before"
    read -r h1 m1 <<<"$after"
    local h=$((h1 - h0)) m=$((m1 - m0))
    if [ $((h + m)) -gt 0 ]; then
      echo "Compiler cache (ccache): $h hits, $m misses: $((100 * h / (h + m))) % hits"
    else
      echo "Compiler cache (ccache): no compiles"
    fi
  else
    echo "Compiler cache: ccache not installed"
  fi
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Builds the .deb packages from the build in $build with CPack, installs them (apt-get, so that the
# Depends computed by dpkg-shlibdeps must resolve) or, with HIERA_NO_APT=1, unpacks them into a scratch
# root; then runs what was installed, builds the example of examples/ against the installed engine, and
# removes the packages again.
check_package() {
  local work root pkgs version demo out
  work=$(mktemp -d)
  pkgs="$work/packages"
  out=$(cpack --config "$build/CPackConfig.cmake" -B "$pkgs" 2>&1) || { echo "$out"; return 1; }
  local runtime_deb dev_deb
  runtime_deb=$(echo "$pkgs"/hiera-explorer_*.deb)
  dev_deb=$(echo "$pkgs"/libhiera-engine-dev_*.deb)
  [ -f "$runtime_deb" ] && [ -f "$dev_deb" ] || { echo "cpack made no packages"; ls "$pkgs"; return 1; }
  version=$(dpkg-deb -f "$runtime_deb" Version)
  echo "$(basename "$runtime_deb"): Depends: $(dpkg-deb -f "$runtime_deb" Depends)"
  echo "$(basename "$dev_deb"): Depends: $(dpkg-deb -f "$dev_deb" Depends)"

  if [ "${HIERA_NO_APT:-0}" = 1 ]; then
    root="$work/root"
    dpkg-deb -x "$runtime_deb" "$root"
    dpkg-deb -x "$dev_deb" "$root"
    echo "Unpacked into the scratch root $root"
  else
    root=""
    if dpkg-query -W -f='${Status}' hiera-explorer libhiera-engine-dev 2>/dev/null | grep -q "install ok installed"; then
      echo "hiera-explorer or libhiera-engine-dev is installed already: not replacing it"; return 1
    fi
    # The packages go again however this ends; the stage table (when one is kept) still prints after.
    trap 'as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq hiera-explorer libhiera-engine-dev >/dev/null; print_stage_table' EXIT
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$runtime_deb" "$dev_deb" >/dev/null
    echo "Installed:" $(dpkg-query -W -f='${Package}=${Version}\n' hiera-explorer libhiera-engine-dev)
  fi
  demo="$root/usr/share/hiera-explorer/demo"

  desktop-file-validate "$root/usr/share/applications/io.github.hieraexplorer.HieraExplorer.desktop"
  appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.hieraexplorer.HieraExplorer.metainfo.xml" >/dev/null
  local page warnings
  for page in hiera-lookup hiera-explorer; do
    [ -s "$root/usr/share/man/man1/$page.1.gz" ] || { echo "no man page $page(1)"; return 1; }
    if command -v man >/dev/null; then
      warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
      [ -z "$warnings" ] || { echo "$page(1): $warnings"; return 1; }
    fi
  done
  echo "The desktop entry, the AppStream metadata and both man pages are valid"

  # A clean home: nothing remembered from an earlier run, nothing written next to the demo.
  local home="$work/home"
  mkdir -p "$home" "$work/runtime"
  chmod 700 "$work/runtime"
  run_clean() {
    env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_CACHE_HOME HOME="$home" XDG_RUNTIME_DIR="$work/runtime" \
      QT_QPA_PLATFORM=offscreen "$@"
  }

  out=$(run_clean "$root/usr/bin/hiera-lookup" --version)
  [ "$out" = "hiera-lookup $version" ] || { echo "hiera-lookup --version: '$out', the package is $version"; return 1; }
  out=$(run_clean "$root/usr/bin/hiera-explorer" --version)
  [ "$out" = "hiera-explorer $version" ] || { echo "hiera-explorer --version: '$out', the package is $version"; return 1; }
  echo "Both programs are version $version, as the package"

  out=$(run_clean "$root/usr/bin/hiera-lookup" --config "$demo/hiera.yaml" \
        --facts "$demo/facts/web01.example.com.yaml" --format json profile::ntp.servers.0)
  [ "$out" = '"ntp1.dc1.example.com"' ] || { echo "installed hiera-lookup answered '$out'"; return 1; }
  echo "Installed hiera-lookup on the installed demo: profile::ntp.servers.0 = $out"

  # The installed explorer, started without arguments from a clean home, must open the installed demo.
  # It has no test hooks (they live in the test-only hiera-explorer-testhooks, tests/ui/), so what it
  # writes on its own is the proof: opening a hierarchy and reading facts each put the file in the
  # recent lists of its settings (MainWindow::addRecent), and a QSettings written in a function is
  # flushed to ~/.config/HieraExplorer/hiera-explorer.conf when it goes out of scope, not at a clean
  # quit: the demo's hiera.yaml appears there once its engine is loaded, web01's facts once they are
  # read. The process is then killed, as a user closing a session might.
  # The program finds its demo beside its own path, which the kernel gives it resolved: hence realpath.
  local demo_yaml demo_facts conf="$home/.config/HieraExplorer/hiera-explorer.conf"
  demo_yaml=$(realpath "$demo/hiera.yaml")
  demo_facts=$(realpath "$demo/facts/web01.example.com.yaml")
  run_clean timeout 120 "$root/usr/bin/hiera-explorer" >"$work/explorer.out" 2>"$work/explorer.err" &
  local pid=$! i
  for i in $(seq 120); do
    grep -qsF -- "$demo_yaml" "$conf" && grep -qsF -- "$demo_facts" "$conf" && break
    sleep 0.5
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  grep -qsF -- "$demo_yaml" "$conf" \
    || { echo "the installed explorer did not open $demo_yaml"; cat "$work/explorer.err"; find "$home"; return 1; }
  grep -qsF -- "$demo_facts" "$conf" \
    || { echo "the installed explorer did not read the demo's facts"; cat "$conf" "$work/explorer.err"; return 1; }
  # The shipped program refuses the test hooks (an unknown option ends it before a window opens; the
  # timeout only keeps a program that accepted one from hanging the check).
  out=$(run_clean timeout 20 "$root/usr/bin/hiera-explorer" --test-print-scope 2>&1 >/dev/null) || true
  case "$out" in
    *"Unknown option"*) ;;
    *) echo "the installed explorer did not refuse a test hook: '$out'"; return 1 ;;
  esac
  diff -r "$here/resources/demo" "$demo" >/dev/null || { echo "the installed demo was modified"; return 1; }
  echo "Installed hiera-explorer opened the installed demo and its facts from a clean home, refuses test hooks; the demo is unchanged"

  # A program outside the tree, against the installed engine: CMake package and pkg-config file.
  cmake -S "$here/examples/lookup-with-own-scope" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    ${root:+-DCMAKE_PREFIX_PATH="$root/usr"} >/dev/null
  cmake --build "$work/example" >/dev/null
  out=$("$work/example/lookup-with-own-scope" "$demo/hiera.yaml" profile::ntp.servers.0 2>/dev/null)
  [ "$out" = '"ntp1.dc1.example.com"' ] || { echo "the example (find_package) answered '$out'"; return 1; }
  local pcpath
  pcpath=$root/$(dirname "$(dpkg-deb -c "$dev_deb" | grep -o 'usr/.*/hiera-engine.pc$')")
  # shellcheck disable=SC2046
  g++ -std=c++20 -O1 "$here/examples/lookup-with-own-scope/main.cpp" -o "$work/example-pc" \
    $(PKG_CONFIG_PATH="$pcpath" pkg-config --static --cflags --libs hiera-engine)
  out=$("$work/example-pc" "$demo/hiera.yaml" profile::ntp.servers.0 2>/dev/null)
  [ "$out" = '"ntp1.dc1.example.com"' ] || { echo "the example (pkg-config) answered '$out'"; return 1; }
  echo "The example with its own Scope, built with find_package(HieraEngine) and with pkg-config: $out"

  if [ -z "$root" ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq hiera-explorer libhiera-engine-dev >/dev/null
    trap print_stage_table EXIT
    echo "Removed the packages"
  fi
  rm -rf "$work"
}

run_conformance() {
  if [ ! -d "$here/../shared/conformance" ]; then
    echo "(../shared/conformance not found: skipped)"
    return 0
  fi
  local out suite
  for suite in public project; do
    local cases=()
    if [ $suite = public ]; then
      echo "-- public cases, expected results from Puppet 7.23"
    else
      echo "-- the project's own cases (tests/conformance/cases), answered by Puppet 7.23"
      cases=(--cases "$here/tests/conformance/cases")
    fi
    out=$(HIERA_CACHE_DIR= python3 "$here/../shared/conformance/run.py" --cli "$build/app/hiera-lookup/hiera-lookup" \
          "${cases[@]}" 2>&1) || true
    echo "$out"
    echo "$out" | tail -1 | grep -Eq '^[0-9]+ passed, 0 failed$' || { echo "conformance failures"; return 1; }
  done
}

# The quick tier: what to run after each change (a few minutes after one engine file changed).
run_check() {
  stage "Build (incremental, warnings are errors)"
  configure_and_build "$build" -DHIERA_WARNINGS_AS_ERRORS=ON
  stage "Tests (ctest: every Qt Test suite, format and rooms checks)"
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
  stage "Conformance"
  run_conformance
  stage_end
}

run_tests() {
  stage "Build (warnings are errors)"
  configure_and_build "$build" -DHIERA_WARNINGS_AS_ERRORS=ON
  stage "Tests (ctest)"
  ctest --test-dir "$build" --output-on-failure -j "$jobs"

  stage "Conformance"
  run_conformance

  stage "Debian packages (CPack: build, install, run, example, remove)"
  check_package

  stage "ASan + UBSan build of the whole suite"
  configure_and_build "$build-asan" -DHIERA_SANITIZE=ON -DHIERA_WARNINGS_AS_ERRORS=ON
  # Leaks are checked in the engine's tests; Qt and fontconfig keep process-lifetime allocations
  # that LeakSanitizer would report in the UI tests.
  stage "ASan + UBSan tests (engine with leak checks, ui)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions="$here/scripts/lsan-suppressions.txt" \
    ctest --test-dir "$build-asan" --output-on-failure -j "$jobs" -L engine
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build-asan" --output-on-failure -j "$jobs" -L ui

  if [ -f "$here/fuzz/smoke.sh" ]; then
    stage "Fuzz build (clang, libFuzzer)"
    FUZZ_STEP=build bash "$here/fuzz/smoke.sh"
    stage "Fuzz runs (each target at both input sizes, $jobs at a time)"
    FUZZ_STEP=run bash "$here/fuzz/smoke.sh"
  fi
  stage_end
}

case "${1:-}" in
  deps) deps ;;
  demo)
    deps
    configure_and_build "$build"
    exec "$build/app/hiera-explorer/hiera-explorer" "$here/resources/demo/hiera.yaml" \
      --facts "$here/resources/demo/facts/web01.example.com.yaml" --key profile::ntp ;;
  test)
    ccache_before=$(ccache_counts)
    trap print_stage_table EXIT
    stage "Dependencies (apt-get what is missing)"
    deps
    run_tests ;;
  check)
    ccache_before=$(ccache_counts)
    trap print_stage_table EXIT
    run_check ;;
  package)
    deps
    configure_and_build "$build"
    check_package ;;
  *) echo "usage: $0 demo|test|check|deps|package" >&2; exit 2 ;;
esac
