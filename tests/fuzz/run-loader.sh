#!/usr/bin/env bash
# Builds the libFuzzer target for the model loader (fuzz-loader.c) with clang,
# AddressSanitizer and UBSan, and fuzzes it for a bounded time, seeded with
# the examples and tests/broken. Exit 0 when nothing was found, 1 on a crash,
# a leak, a sanitizer report or a hang (-timeout), 77 (skip) without clang's
# libFuzzer.
#   run-loader.sh SOURCE_ROOT BUILD_DIR [SECONDS]   (FLEXION_FUZZ_SECONDS overrides)
set -uo pipefail
root=${1:?usage: run-loader.sh SOURCE_ROOT BUILD_DIR [SECONDS]}
build=${2:?usage: run-loader.sh SOURCE_ROOT BUILD_DIR [SECONDS]}
seconds=${FLEXION_FUZZ_SECONDS:-${3:-60}}
work=$build/fuzz
mkdir -p "$work/corpus-loader" "$work/seeds-loader" "$work/artifacts"

if ! command -v clang >/dev/null; then
  echo "fuzz-loader: SKIP: no clang (Debian package clang)"; exit 77
fi
pkgs=(glib-2.0 gio-2.0 gsl json-glib-1.0)
if ! flags=$(pkg-config --cflags --libs "${pkgs[@]}"); then
  echo "fuzz-loader: SKIP: pkg-config does not know ${pkgs[*]}"; exit 77
fi

exe=$work/fuzz-loader
# the engine's layers (src/core/README.md): every folder's sources and headers
layers=(format algebra mechanics solve studies)
sources=("$root/tests/fuzz/fuzz-loader.c")
includes=()
for d in "${layers[@]}"; do
  sources+=("$root"/src/core/"$d"/*.c)
  includes+=(-I"$root/src/core/$d")
done
rebuild=0
[[ -x $exe ]] || rebuild=1
for f in "${sources[@]}" "$root"/src/core/*/*.h; do
  [[ $f -nt $exe ]] && rebuild=1
done
if (( rebuild )); then
  echo "fuzz-loader: building with clang -fsanitize=fuzzer,address,undefined"
  # shellcheck disable=SC2086  # flags is a list of words
  if ! clang -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
       -D_FILE_OFFSET_BITS=64 -DG_LOG_DOMAIN='"Flexion"' -DGETTEXT_PACKAGE='"flexion"' \
       -DFLEXION_VERSION='"fuzz"' -Werror=implicit-function-declaration \
       "${includes[@]}" -I/usr/include/suitesparse "${sources[@]}" $flags -lklu -lsuitesparseconfig -lm \
       -o "$exe.new" 2>"$work/build-loader.log"; then
    if grep -q 'fsanitize=fuzzer\|libclang_rt.fuzzer' "$work/build-loader.log"; then
      echo "fuzz-loader: SKIP: clang has no libFuzzer here"; cat "$work/build-loader.log"; exit 77
    fi
    cat "$work/build-loader.log"; exit 1
  fi
  mv "$exe.new" "$exe"
fi

# seeds: the examples, the broken files, and inputs that once found a problem
cp "$root"/data/examples/*.flexion "$root"/tests/broken/*.flexion \
   "$root"/tests/fuzz/regressions/*.flexion "$work/seeds-loader/"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$work/fuzz-loader.log
rc=0
"$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict="$root/tests/fuzz/flexion.dict" -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus-loader" "$work/seeds-loader" >"$log" 2>&1 || rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
echo "fuzz-loader: ${runs:-?} inputs in ${seconds} s, corpus $(ls "$work/corpus-loader" | wc -l) files, exit $rc"
echo "$(date -u +%FT%TZ) loader ${runs:-0} inputs ${seconds} s exit $rc" >>"$work/stats.txt"
if (( rc != 0 )); then
  echo "fuzz-loader: FOUND a problem (artifacts in $work/artifacts):"
  grep -v '^#\|^INFO\|^stat::' "$log" | tail -n 60
  exit 1
fi
exit 0
