#!/usr/bin/env bash
# Installs what port-check builds and tests with on Debian 12: the Debian packages below and the
# npm-pinned grammar sources (package-lock.json). Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libcli11-dev libgit2-dev libtinyxml2-dev nlohmann-json3-dev libgtest-dev libtree-sitter-dev libmimalloc-dev libxxhash-dev
  clang-19 python3 python3-jsonschema
  # The pre-commit framework test runs Debian's pre-commit and the newest from PyPI in a venv.
  pre-commit python3-venv
  # The man page test renders the page generated from the command line with groff (packaging/).
  groff-base
  # scripts/lint_package.sh runs lintian on the .deb (scripts/test.sh; packaging/lintian-overrides).
  lintian
  # Plain torch for the tests that run goldens without PyPTO (the run adapter against its stand-in,
  # the pypto-lib blocks' reference math); they skip without it. The simulator needs torch >= 2.3,
  # which lives in a virtual environment outside the tree (docs/doctor.md), not here.
  python3-torch
  # Headless rendering of the HTML report in the layout tests (report_command_test), and pdftotext to
  # read back what printing it to PDF kept.
  chromium poppler-utils
  # The sanitizer and libFuzzer runtimes (only a recommendation of clang-19, so not installed without
  # it) and llvm-symbolizer for file:line in sanitizer reports.
  libclang-rt-19-dev llvm-19
  # The shared cache tier's clients (docs/shared-cache.md), and the real servers its fault tests
  # start on loopback (tests/unit/store/): they skip, naming the binary, without redis-server or nginx.
  libhiredis-dev libcurl4-openssl-dev redis-server nginx-light
)
# node and npm may come from elsewhere (e.g. NodeSource); Debian's npm only when there is none.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Grammar sources and the SARIF schema, exactly as pinned in package-lock.json (no install scripts run).
stamp=node_modules/.port-check-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

# Ray from PyPI for the scale-out tests (tests/ray/, docs/scale-out.md), in a virtual environment outside
# the tree where `port-check --ray` looks by default: ~280 MB, about 15 s on this machine. Not fatal: without
# it the Ray tests skip and say why.
ray_version=2.60.0
ray_venv=${XDG_CACHE_HOME:-$HOME/.cache}/port-check/ray-venv
if [ "$("$ray_venv/bin/python" -c 'import ray; print(ray.__version__)' 2>/dev/null)" != "$ray_version" ]; then
  echo "bootstrap: installing ray==$ray_version into $ray_venv"
  if ! { python3 -m venv "$ray_venv" && "$ray_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
           "ray==$ray_version"; }; then
    echo "bootstrap: could not install ray==$ray_version into $ray_venv (no PyPI?); the Ray tests will skip" >&2
  fi
fi
