#!/usr/bin/env bash
# Builds the Debian package port-check_<version>_<arch>.deb with CPack: the stripped binary, its man
# page and bash completion, with the Debian libraries it links as dependencies (dpkg-shlibdeps).
#   PACKAGE_BUILD_DIR  package this existing build instead of a Release build in build-release/
#                      (CI packages its RelWithDebInfo build: stripped, it is the same program at -O2)
# Prints the path of the .deb.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PACKAGE_BUILD_DIR:-}" ]; then
  build_dir=$PACKAGE_BUILD_DIR
  cmake --build "$build_dir" >&2
else
  build_dir=build-release
  BUILD_DIR=$build_dir BUILD_TYPE=Release scripts/build.sh -DPORTCHECK_TESTS=OFF >&2
fi
version=$(sed -n 's/^project(port_check VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
(cd "$build_dir" && cpack -G DEB >/dev/null)
ls "$build_dir"/port-check_"$version"_*.deb
