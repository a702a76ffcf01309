#!/usr/bin/env bash
# Installs, builds and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh -DPORTCHECK_TESTS=ON
cd "${BUILD_DIR:-build}"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600
