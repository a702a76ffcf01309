#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through ctest, then again under AddressSanitizer and
# UndefinedBehaviorSanitizer (a clang-19 build in build-sanitize/ that also builds the libFuzzer
# targets of fuzz/ and runs each for PORTCHECK_FUZZ_SECONDS, default 30).
#   BUILD_DIR           the normal build (default build)
#   SANITIZE_BUILD_DIR  the sanitizer + fuzz build (default build-sanitize)
#   PORTCHECK_SANITIZE  0 skips the sanitizer build (default 1)
#   PORTCHECK_FUZZ_SECONDS  length of each short fuzz run (0 = replay the corpus only)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh -DPORTCHECK_TESTS=ON
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure --parallel "$(nproc)" --timeout 600)

[ "${PORTCHECK_SANITIZE:-1}" = 0 ] && exit 0
# -O1 and line tables only: a third of the compile time of -O2 -g, still exact file:line in reports.
CC=clang-19 CXX=clang++-19 BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize} scripts/build.sh \
  -DPORTCHECK_TESTS=ON -DPORTCHECK_SANITIZE=ON -DPORTCHECK_FUZZ=ON \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
cd "${SANITIZE_BUILD_DIR:-build-sanitize}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
