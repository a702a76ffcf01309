#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through ctest (this is what CI runs), packages the
# build as a .deb, lints it (lintian) and checks that apt installs it and it runs, then runs the suite
# again under AddressSanitizer and UndefinedBehaviorSanitizer: a clang-19 build in build-sanitize/ that also
# builds the libFuzzer targets of fuzz/ and runs each for PORTCHECK_FUZZ_SECONDS. About 13 minutes
# on two cores from a fresh clone (docs/robustness.md).
#   BUILD_DIR           the normal build (default build)
#   SANITIZE_BUILD_DIR  the sanitizer + fuzz build (default build-sanitize)
#   PORTCHECK_SANITIZE  0 skips the sanitizer build (default 1)
#   PORTCHECK_FUZZ_SECONDS  length of each short fuzz run (default 30; 0 = replay the seeds only)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh -DPORTCHECK_TESTS=ON
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure --parallel "$(nproc)" --timeout 600)
# The Debian package of this build (stripped, as a Release package is; a separate Release build would
# take minutes): lintian finds no error or warning in it, and apt installs it, it runs and is removed.
deb=$(PACKAGE_BUILD_DIR=${BUILD_DIR:-build} scripts/package.sh)
scripts/lint_package.sh "$deb"
scripts/deb_install_check.sh "$deb"

[ "${PORTCHECK_SANITIZE:-1}" = 1 ] || exit 0
# -O1 (what the sanitizers are meant for) and line tables only: cheaper to build than -O2 -g, exact file:line in reports.
CC=clang-19 CXX=clang++-19 BUILD_DIR=${SANITIZE_BUILD_DIR:-build-sanitize} scripts/build.sh \
  -DPORTCHECK_TESTS=ON -DPORTCHECK_SANITIZE=ON -DPORTCHECK_FUZZ=ON \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only"
cd "${SANITIZE_BUILD_DIR:-build-sanitize}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[ -x /usr/lib/llvm-19/bin/llvm-symbolizer ] && export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-19/bin/llvm-symbolizer}
export PORTCHECK_FUZZ_SECONDS=${PORTCHECK_FUZZ_SECONDS:-30}
# The Python-only tests (the compile/run adapters against stand-ins, the pypto-lib torch models) run no
# port-check code: the normal build ran them already. The Ray cluster tests (ray.*) spend their minute
# starting Ray; the port-check code they drive is in the TuneRay / TuneOnly unit tests run here.
ctest --output-on-failure --parallel "$(nproc)" --timeout 900 -E '^(pypto_lib\..*|run\.adapter|run\.contract|compile\.adapter|ray\..*)$'
