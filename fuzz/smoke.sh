#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in their own build directory and runs each for a few
# seconds on its seed corpus (fuzz/corpus/<target>), twice: with inputs up to 4 KiB, then with inputs
# up to 1 MiB (long keys, long lines and big files are their own class of bugs: a regex that recursed
# per character, a column count that rescanned the line). 14 targets x 2 x 8 s, run as many at a time
# as there are cores (each run is one process on one core), + build: about a minute on two cores when
# the build is warm. Fails on any crash, hang (> 10 s per input), leak or sanitizer report.
#
#   bash fuzz/smoke.sh                 # build dir: $HIERA_FUZZ_BUILD_DIR or <repo>/build-fuzz-smoke
#   FUZZ_SECONDS=600 bash fuzz/smoke.sh   # longer runs
#   FUZZ_STEP=build|run bash fuzz/smoke.sh   # only one of the two steps (scripts/dev.sh times them apart)
#   FUZZ_JOBS=1 bash fuzz/smoke.sh     # one run at a time
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HIERA_FUZZ_BUILD_DIR:-$here/build-fuzz-smoke}
seconds=${FUZZ_SECONDS:-8}
cxx=${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$cxx" ]; then
  echo "fuzz/smoke.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# The compiler is chosen on the first configure only (changing it later makes CMake drop the cache).
compiler=()
[ -f "$build/CMakeCache.txt" ] || compiler=("${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx")
step=${FUZZ_STEP:-all}
parallel=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=(fuzz_config fuzz_yaml fuzz_blockyaml fuzz_interpolation fuzz_lookupkey fuzz_facts fuzz_factsources fuzz_pattern fuzz_encblock fuzz_merge fuzz_cliargs fuzz_puppetdbexport fuzz_reports fuzz_environment)
if [ "$step" != run ]; then
  cmake -S "$here" -B "$build" "${compiler[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DHIERA_BUILD_FUZZERS=ON -DHIERA_BUILD_UI=OFF -DHIERA_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"
fi
[ "$step" = build ] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One libFuzzer run; its verdict goes to $work/<run>.verdict ("ok <stats>" or "failed") so that runs
# side by side print in order afterwards.
fuzz_one() {
  local t=$1 max_len=$2
  local run=$t-$max_len dict=$here/fuzz/yaml.dict
  [ "$t" = fuzz_lookupkey ] && dict=$here/fuzz/key.dict
  [ "$t" = fuzz_encblock ] && dict=$here/fuzz/enc.dict
  mkdir -p "$work/$run"
  # New inputs go to the scratch directory; the checked-in corpus is only read.
  if "$build/fuzz/$t" -dict="$dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
       -artifact_prefix="$work/$run-" -print_final_stats=1 "$work/$run" "$here/fuzz/corpus/$t" >"$work/$run.log" 2>&1; then
    echo "ok $(grep -E '^#[0-9]+.*DONE' "$work/$run.log" | tail -1)" >"$work/$run.verdict"
  else
    echo failed >"$work/$run.verdict"
  fi
}

runs=()
for t in "${targets[@]}"; do
  for max_len in 4096 1048576; do
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    fuzz_one "$t" "$max_len" &
    runs+=("$t $max_len")
  done
done
wait

status=0
for r in "${runs[@]}"; do
  read -r t max_len <<<"$r"
  run=$t-$max_len
  verdict=$(cat "$work/$run.verdict" 2>/dev/null || echo failed)
  if [ "${verdict%% *}" = ok ]; then
    echo "$t (max_len $max_len): ${verdict#ok }"
  else
    status=1
    echo "$t (max_len $max_len): FAILED" >&2
    grep -E 'ERROR|SUMMARY|invariant|runtime error' -A3 "$work/$run.log" | head -40 >&2
    for a in "$work/$run"-*; do
      [ -f "$a" ] && { mkdir -p "$build/artifacts"; cp "$a" "$build/artifacts/"; echo "  input kept: $build/artifacts/$(basename "$a")" >&2; }
    done
  fi
done
exit $status
